import { AppError } from '@/lib/http/errors';
import type { ParsedArgs } from './args';
import { commands } from './commands';

// What `--help` answers, one JSON document like every command's answer (CONTRACT §2).
export const HELP: Record<keyof typeof commands, { usage: string; does: string }> = {
  'shop create': { usage: 'shop create --name NAME [--currency CODE] [--listing-extended-default]', does: 'creates a shop; prints {shop_id, shop_secret}' },
  'shop list': { usage: 'shop list', does: 'lists the shops: [{shop_id, name, currency}]' },
  'shop rotate-secret': { usage: 'shop rotate-secret --shop SHOP_ID', does: 'replaces the shop secret (the old one stops working); prints {shop_id, shop_secret}' },
  'user create': {
    usage: 'user create --email EMAIL --password PASSWORD [--shop SHOP_ID ...] [--technical-notices]',
    does: 'creates a staff account, or sets an existing one anew; without --shop an admin of every shop; prints {email}',
  },
  'collection create': { usage: 'collection create --shop SHOP_ID --name NAME --rules JSON', does: 'creates a collection from rule groups; prints {id}' },
  'listing backfill': { usage: 'listing backfill [--shop SHOP_ID]', does: "fills the listing's facet tokens of products stored before they existed; prints [{shop_id, filled}]" },
  'flags list': { usage: 'flags list --shop SHOP_ID [--email EMAIL]', does: 'lists flagged emails, most recently changed first: [{email, flags, updated_at}]' },
  'import status': { usage: 'import status --shop SHOP_ID --id IMPORT_ID', does: 'prints the import record' },
};

const PREFIX = 'npm run cli -- ';

/** The help asked for with `--help` or `help`: of every command, or of the one named. */
export function helpFor(args: ParsedArgs): unknown {
  const words = args.words[0] === 'help' ? args.words.slice(1) : args.words;
  const name = words.slice(0, 2).join(' ');
  const one = HELP[name as keyof typeof HELP];
  if (one) return { command: name, usage: PREFIX + one.usage, does: one.does, options: [...commands[name].takes.map((o) => `--${o}`), '--help'] };
  if (words.length && !Object.keys(HELP).some((command) => command.startsWith(`${words[0]} `))) {
    throw new AppError('VALIDATION', `unknown command "${words.join(' ')}"; commands: ${Object.keys(commands).join(', ')}`);
  }
  const group = words[0];
  return {
    usage: `${PREFIX}<command> [options]`,
    prints: 'one JSON document on stdout; exit 0, or {"error": "..."} and exit 1',
    commands: Object.entries(HELP)
      .filter(([command]) => !group || command.startsWith(`${group} `))
      .map(([command, help]) => ({ command, usage: PREFIX + help.usage, does: help.does })),
  };
}

export function wantsHelp(args: ParsedArgs): boolean {
  return args.flags.has('help') || args.words[0] === 'help';
}
