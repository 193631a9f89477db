import { asc, eq, inArray } from 'drizzle-orm';
import { shops } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { ShopCreateInput } from './schemas';
import { generateToken, hashSecret, sealSecret } from './secrets';

type Ctx = Pick<AppContext, 'db' | 'sealKey'>;

export async function createShop(ctx: Ctx, input: ShopCreateInput) {
  const { name, currency, listingExtendedDefault } = ShopCreateInput.parse(input);
  const shopId = generateToken(16);
  const secret = generateToken(24);
  await ctx.db.insert(shops).values({
    id: shopId,
    name,
    currency,
    listingExtendedDefault,
    secretHash: await hashSecret(secret),
    secretSealed: sealSecret(ctx.sealKey, secret),
  });
  return { shop_id: shopId, shop_secret: secret };
}

export async function listShops(ctx: Pick<AppContext, 'db'>, only?: string[]) {
  if (only && only.length === 0) return [];
  return ctx.db
    .select({ shop_id: shops.id, name: shops.name, currency: shops.currency })
    .from(shops)
    .where(only ? inArray(shops.id, only) : undefined)
    .orderBy(asc(shops.createdAt), asc(shops.id));
}

export async function rotateShopSecret(ctx: Ctx, shopId: string) {
  const secret = generateToken(24);
  const updated = await ctx.db
    .update(shops)
    .set({ secretHash: await hashSecret(secret), secretSealed: sealSecret(ctx.sealKey, secret) })
    .where(eq(shops.id, shopId))
    .returning({ id: shops.id });
  if (updated.length === 0) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  return { shop_id: shopId, shop_secret: secret };
}
