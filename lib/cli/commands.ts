import { backfillFacets } from '@/lib/catalog/backfill-facets';
import { createCollection } from '@/lib/collections/manage-collections';
import { AppError } from '@/lib/http/errors';
import { getImport, presentImport } from '@/lib/imports/import-records';
import type { AppContext } from '@/lib/runtime/context';
import { createShop, listShops, rotateShopSecret } from '@/lib/shops/manage-shops';
import { createStaffUser } from '@/lib/staff/users';
import { listEmailFlags } from '@/lib/subscriptions/email-flags';
import { optional, required, type ParsedArgs } from './args';

export const BOOLEAN_FLAGS = ['listing-extended-default', 'technical-notices'];

type Command = (ctx: AppContext, args: ParsedArgs) => Promise<unknown>;

// CONTRACT §2: each command prints exactly one JSON document.
export const commands: Record<string, Command> = {
  'shop create': (ctx, args) =>
    createShop(ctx, {
      name: required(args, 'name'),
      currency: optional(args, 'currency'),
      listingExtendedDefault: args.flags.has('listing-extended-default'),
    }),
  'shop list': (ctx) => listShops(ctx),
  'shop rotate-secret': (ctx, args) => rotateShopSecret(ctx, required(args, 'shop')),
  'user create': (ctx, args) =>
    createStaffUser(ctx, {
      email: required(args, 'email'),
      password: required(args, 'password'),
      shops: args.options.get('shop') ?? [],
      technicalNotices: args.flags.has('technical-notices'),
    }),
  'collection create': (ctx, args) => {
    let rules: unknown;
    try {
      rules = JSON.parse(required(args, 'rules'));
    } catch {
      throw new AppError('VALIDATION', '--rules must be JSON: {"groups": [{...}]}');
    }
    return createCollection(ctx, required(args, 'shop'), { name: required(args, 'name'), rules });
  },
  // Fills products.facets for rows stored before the column existed (their listing index builds faster).
  'listing backfill': async (ctx, args) => {
    const only = optional(args, 'shop');
    const shops = await listShops(ctx, only === undefined ? undefined : [only]);
    if (only !== undefined && shops.length === 0) throw new AppError('NOT_FOUND', `Shop ${only} not found`);
    const filled = [];
    for (const shop of shops) filled.push({ shop_id: shop.shop_id, filled: await backfillFacets(ctx.sql, shop.shop_id) });
    return filled;
  },
  'flags list': (ctx, args) => listEmailFlags(ctx, required(args, 'shop'), optional(args, 'email')),
  'import status': async (ctx, args) => {
    const id = Number(required(args, 'id'));
    if (!Number.isInteger(id) || id <= 0) throw new AppError('VALIDATION', '--id must be an import id (a positive integer)');
    return presentImport(await getImport(ctx, required(args, 'shop'), id));
  },
};

export function findCommand(words: string[]): Command {
  const name = words.slice(0, 2).join(' ');
  const command = commands[name];
  if (!command) {
    throw new AppError('VALIDATION', `unknown command "${name}"; commands: ${Object.keys(commands).join(', ')}`);
  }
  return command;
}
