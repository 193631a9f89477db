import { AppError } from '@/lib/http/errors';

export type ParsedArgs = { words: string[]; options: Map<string, string[]>; flags: Set<string> };

/** `shop create --name X --shop a --shop b --technical-notices`: words, repeatable options, flags. */
export function parseArgs(argv: string[], booleanFlags: string[]): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (booleanFlags.includes(name)) {
      // `--technical-notices=false` would otherwise turn notices on.
      if (inline !== undefined) throw new AppError('VALIDATION', `--${name} takes no value`);
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new AppError('VALIDATION', `--${name} needs a value`);
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { words, options, flags };
}

/** Refuses an option or flag the command does not take: a typo must not be ignored silently. */
export function checkOptions(args: ParsedArgs, command: string, takes: readonly string[]): void {
  for (const name of [...args.options.keys(), ...args.flags]) {
    if (takes.includes(name)) continue;
    const known = takes.length ? `; it takes ${takes.map((option) => `--${option}`).join(', ')}` : '; it takes no options';
    throw new AppError('VALIDATION', `unknown option --${name} for "${command}"${known}`);
  }
}

export function required(args: ParsedArgs, name: string): string {
  const value = args.options.get(name)?.at(-1);
  if (value === undefined || value === '') throw new AppError('VALIDATION', `--${name} is required`);
  return value;
}

export function optional(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.at(-1);
}
