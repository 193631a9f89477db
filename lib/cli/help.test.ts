import { expect, it } from 'vitest';
import { parseArgs } from './args';
import { BOOLEAN_FLAGS, commands } from './commands';
import { HELP, helpFor, wantsHelp } from './help';

const args = (...argv: string[]) => parseArgs(argv, BOOLEAN_FLAGS);

it('answers --help for the whole CLI, a group and every command, without asking for values', () => {
  expect(Object.keys(HELP).sort()).toEqual(Object.keys(commands).sort());
  for (const argv of [['--help'], ['help']]) {
    expect(wantsHelp(args(...argv))).toBe(true);
    expect((helpFor(args(...argv)) as { commands: unknown[] }).commands).toHaveLength(Object.keys(commands).length);
  }
  for (const name of Object.keys(commands)) {
    const help = helpFor(args(...name.split(' '), '--help')) as { command: string; usage: string; options: string[] };
    expect(help.command).toBe(name);
    expect(help.usage.startsWith(`npm run cli -- ${name}`)).toBe(true);
    expect(help.options).toContain('--help');
  }
  expect(helpFor(args('shop', '--help'))).toMatchObject({ commands: [{ command: 'shop create' }, { command: 'shop list' }, { command: 'shop rotate-secret' }] });
  expect(helpFor(args('help', 'user', 'create'))).toMatchObject({ command: 'user create' });
  expect(() => helpFor(args('nothing', '--help'))).toThrow('unknown command "nothing"');
  expect(wantsHelp(args('shop', 'list'))).toBe(false);
  // No command at all stays an error naming the commands (cli.int.test.ts).
  expect(wantsHelp(args())).toBe(false);
});
