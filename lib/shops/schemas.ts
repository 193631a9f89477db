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

const template = (field: string) =>
  z
    .string({ error: `${field} must be a string or null` })
    .max(100_000, `${field} is too long (at most 100,000 characters)`)
    .refine((source) => !source.includes('\0'), `${field} must not contain NUL characters`)
    .nullable();

// The admin app's listing settings of a shop (CONTRACT §4): templates null mean the built-in ones.
export const ListingSettingsInput = z.object({
  listing_extended_default: z.boolean({ error: 'listing_extended_default must be true or false' }),
  listing_template: template('listing_template'),
  collection_template: template('collection_template'),
});
export type ListingSettingsInput = z.input<typeof ListingSettingsInput>;
