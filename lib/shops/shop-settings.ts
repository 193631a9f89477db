import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { shops } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { CurrencyCode, plausibleShopId } from './schemas';

export type ShopSettings = { shop_id: string; name: string; currency: string; listing_extended_default: boolean; created_at: string };

// What the admin app's shop settings change: the rest (templates) has pages of its own.
export const ShopSettingsInput = z.object({
  name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'name must be at most 200 characters'),
  currency: z.string({ error: 'currency is required' }).pipe(CurrencyCode),
  listing_extended_default: z.boolean({ error: 'listing_extended_default must be true or false' }),
});

export async function shopSettings(ctx: Pick<AppContext, 'db'>, shopId: string): Promise<ShopSettings> {
  if (!plausibleShopId(shopId)) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  const [row] = await ctx.db
    .select({ shop_id: shops.id, name: shops.name, currency: shops.currency, listing_extended_default: shops.listingExtendedDefault, created_at: shops.createdAt })
    .from(shops)
    .where(eq(shops.id, shopId));
  if (!row) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

/** Renames the shop, changes its currency and whether an absent `extended` means full products. */
export async function updateShopSettings(ctx: Pick<AppContext, 'db'>, shopId: string, input: unknown): Promise<ShopSettings> {
  if (!plausibleShopId(shopId)) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  const parsed = ShopSettingsInput.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error).replace(/^currency: must be/, 'currency must be'));
  const { name, currency, listing_extended_default } = parsed.data;
  const updated = await ctx.db.update(shops).set({ name, currency, listingExtendedDefault: listing_extended_default }).where(eq(shops.id, shopId)).returning({ id: shops.id });
  if (updated.length === 0) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  return shopSettings(ctx, shopId);
}
