import { backfillFacets } from '@/lib/catalog/backfill-facets';
import { createCollection } from '@/lib/collections/manage-collections';
import { AppError } from '@/lib/http/errors';
import { getImport, parseImportId, presentImport } from '@/lib/imports/import-records';
import type { AppContext } from '@/lib/runtime/context';
import { createShop, listShops, rotateShopSecret } from '@/lib/shops/manage-shops';
import { createStaffUser } from '@/lib/staff/users';
import { listEmailFlags } from '@/lib/subscriptions/email-flags';
import { checkOptions, optional, required, type ParsedArgs } from './args';

export const BOOLEAN_FLAGS = ['listing-extended-default', 'technical-notices', 'help'];

type Run = (ctx: AppContext, args: ParsedArgs) => Promise<unknown>;
type Command = { takes: readonly string[]; run: Run };

// CONTRACT §2: each command prints exactly one JSON document.
export const commands: Record<string, Command> = {
  'shop create': {
    takes: ['name', 'currency', 'listing-extended-default'],
    run: (ctx, args) =>
      createShop(ctx, {
        name: required(args, 'name'),
        currency: optional(args, 'currency'),
        listingExtendedDefault: args.flags.has('listing-extended-default'),
      }),
  },
  'shop list': { takes: [], run: (ctx) => listShops(ctx) },
  'shop rotate-secret': { takes: ['shop'], run: (ctx, args) => rotateShopSecret(ctx, required(args, 'shop')) },
  'user create': {
    takes: ['email', 'password', 'shop', 'technical-notices'],
    run: (ctx, args) =>
      createStaffUser(ctx, {
        email: required(args, 'email'),
        password: required(args, 'password'),
        shops: args.options.get('shop') ?? [],
        technicalNotices: args.flags.has('technical-notices'),
      }),
  },
  'collection create': {
    takes: ['shop', 'name', 'rules'],
    run: (ctx, args) => {
      const text = required(args, 'rules');
      let rules: unknown;
      try {
        rules = JSON.parse(text);
      } catch {
        throw new AppError('VALIDATION', '--rules must be JSON: {"groups": [{...}]}');
      }
      return createCollection(ctx, required(args, 'shop'), { name: required(args, 'name'), rules });
    },
  },
  // Fills products.facets for rows stored before the column existed (their listing index builds faster).
  'listing backfill': {
    takes: ['shop'],
    run: async (ctx, args) => {
      const only = optional(args, 'shop');
      const shops = await listShops(ctx, only === undefined ? undefined : [only]);
      if (only !== undefined && shops.length === 0) throw new AppError('NOT_FOUND', `Shop ${only} not found`);
      const filled = [];
      for (const shop of shops) filled.push({ shop_id: shop.shop_id, filled: await backfillFacets(ctx.sql, shop.shop_id) });
      return filled;
    },
  },
  'flags list': { takes: ['shop', 'email'], run: (ctx, args) => listEmailFlags(ctx, required(args, 'shop'), optional(args, 'email')) },
  'import status': {
    takes: ['shop', 'id'],
    run: async (ctx, args) => {
      const id = parseImportId(required(args, 'id'));
      if (id === undefined) throw new AppError('VALIDATION', '--id must be an import id (a positive integer)');
      return presentImport(await getImport(ctx, required(args, 'shop'), id));
    },
  },
};

/** The command the words name, its options checked. */
export function findCommand(args: ParsedArgs): Run {
  const name = args.words.slice(0, 2).join(' ');
  const command = commands[name];
  if (!command || args.words.length > 2) {
    throw new AppError('VALIDATION', `unknown command "${args.words.join(' ')}"; commands: ${Object.keys(commands).join(', ')}`);
  }
  checkOptions(args, name, command.takes);
  return command.run;
}
