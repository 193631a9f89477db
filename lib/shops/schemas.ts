import { z } from 'zod';

const currencies = new Set(Intl.supportedValuesOf('currency'));

export const CurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => currencies.has(code), { message: 'must be an ISO 4217 currency code such as USD or EUR' });

export const ShopCreateInput = z.object({
  name: z.string().trim().min(1, 'is required').max(200),
  currency: CurrencyCode.default('USD'),
  listingExtendedDefault: z.boolean().default(false),
});
export type ShopCreateInput = z.input<typeof ShopCreateInput>;

export const ShopCredentials = z.object({
  shop_id: z.string({ error: 'shop_id is required' }).min(1, 'shop_id is required'),
  shop_secret: z.string({ error: 'shop_secret is required' }).min(1, 'shop_secret is required'),
});

/** A shop id PostgreSQL can look up (no NUL, not absurdly long); any other names no shop. */
export function plausibleShopId(shopId: string): boolean {
  return shopId.length > 0 && shopId.length <= 255 && !shopId.includes('\0') && shopId.isWellFormed();
}
