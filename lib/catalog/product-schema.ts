import { z } from 'zod';
import { identifier, keepsItsDigits, lostDigits } from './schemas';
import { DELIVERY_TYPES_RULE, expected, integer, SECTION_RULES, type SectionName } from './section-rules';

// Spec 2.4–2.8 with CONTRACT §3's coercions and limits. Unknown keys are kept (loose objects),
// so a field we do not model yet still comes back as the shop sent it.

const text = (field: string) => z.string({ error: expected(field, 'a string') });
const optionalText = (field: string) => text(field).nullish();
const flag = (field: string) => z.boolean({ error: `${field} must be true or false` }).nullish();
const number = (field: string) => z.number({ error: expected(field, 'a number') }).finite(`${field} must be a number`);
/**
 * Strings, numbers kept as their string form. Ids (a product's categories) are trimmed, as the
 * category tree's own ids are, and a number must keep its digits (keepsItsDigits).
 */
const textList = (field: string, ids = false) =>
  z.array(
    z
      .union([z.string(), z.number().finite()])
      .refine((value) => !ids || keepsItsDigits(value), lostDigits(`${field}[]`))
      .transform((value) => (ids ? String(value).trim() : String(value)))
      .refine((value) => !value.includes('\0'), `${field} must not contain NUL characters`),
    { error: expected(field, 'an array of strings') },
  );
/** Sizes and the like, where the spec allows strings and numbers: kept as sent. */
const mixedList = (field: string) => z.array(z.union([z.string(), z.number().finite()]), { error: `${field} must be an array of strings or numbers` });
/** One string or an array of them (CONTRACT §3: "merchant may be a string"). */
const oneOrMany = (field: string) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${field} must be a string or an array of strings` })
    .transform((value) => (Array.isArray(value) ? value : [value]));

export const ParamInput = z.looseObject({
  name: z.union([z.string(), z.number()], { error: 'params[].name must be a string' }).transform((v) => String(v).trim()),
  value: z
    .union([z.array(z.union([z.string(), z.number().finite(), z.boolean()])), z.string(), z.number().finite(), z.boolean()], {
      error: 'params[].value must be an array of strings or numbers',
    })
    .transform((value) => (Array.isArray(value) ? value : [value])),
  unit: z.string({ error: 'params[].unit must be a string or null' }).nullish(),
  priority: integer('params[].priority').nullish(),
  searchable: flag('params[].searchable'),
});
export type ParamInput = z.infer<typeof ParamInput>;

export const OfferInput = z.looseObject({
  location: identifier('locations[].location'),
  price: number('locations[].price').positive('locations[].price must be greater than 0').nullish(),
  oldprice: number('locations[].oldprice').positive('locations[].oldprice must be greater than 0').nullish(),
  merchant: oneOrMany('locations[].merchant').nullish(),
  stock_quantity: integer('locations[].stock_quantity').min(0, 'locations[].stock_quantity must not be negative').nullish(),
  sizes: textList('locations[].sizes').nullish(),
  weight: integer('locations[].weight').min(0, 'locations[].weight must not be negative').nullish(),
  delivery_types: DELIVERY_TYPES_RULE.zod.nullish(),
  discount_percent: number('locations[].discount_percent').nullish(),
});
export type OfferInput = z.infer<typeof OfferInput>;

const gender = optionalText('gender');

const niche = {
  fashion: z.looseObject({
    gender,
    type: optionalText('fashion.type'),
    sizes: mixedList('fashion.sizes').nullish(),
    colors: z
      .array(
        z.union([
          z.looseObject({ color: text('fashion.colors[].color'), picture: optionalText('fashion.colors[].picture') }),
          z.string().transform((color) => ({ color })),
        ]),
        { error: 'fashion.colors must be an array of {color, picture}' },
      )
      .nullish(),
    feature: optionalText('fashion.feature'),
  }),
  ...(Object.fromEntries(Object.entries(SECTION_RULES).map(([name, rule]) => [name, rule.zod])) as { [name in SectionName]: (typeof SECTION_RULES)[name]['zod'] }),
};
export const NICHE_SECTIONS = Object.keys(niche) as (keyof typeof niche)[];
export const NICHE_SCHEMAS = niche;

const isoDateTime = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant an ISO 8601 date or date-time names; without a zone it is read as UTC. */
export function parseIsoDate(value: string): Date {
  const normalised = value.replace(' ', 'T');
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(normalised) || !normalised.includes('T');
  return new Date(zoned ? normalised : `${normalised}Z`);
}

// A catalog's items share few dates (days, mostly): each date's instant is kept once read, a few
// thousand at most, where reading one took ~1 µs.
const INSTANTS_KEPT = 4096;
const instants = new Map<string, string | null>();

/**
 * The instant an ISO 8601 date or date-time naming a day of the calendar in a year from 1 to 9999
 * stands for, as toISOString gives it; null for any other text.
 */
export function isoInstant(value: string): string | null {
  const kept = instants.get(value);
  if (kept !== undefined) return kept;
  if (!isoDateTime.test(value)) return null;
  const date = parseIsoDate(value);
  const year = date.getUTCFullYear();
  const instant = year >= 1 && year <= 9999 && isCalendarDay(value) ? date.toISOString() : null;
  if (instants.size >= INSTANTS_KEPT) instants.clear();
  instants.set(value, instant);
  return instant;
}

/**
 * Whether the YYYY-MM-DD a date starts with is a day of the calendar: Date reads 2024-02-30 as
 * 1 March rather than refusing it (the spec asks for a valid date).
 */
function isCalendarDay(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** An ISO 8601 date or date-time naming a day of the calendar, in a year from 1 to 9999. */
export function isIsoDate(value: string): boolean {
  return isoInstant(value) !== null;
}

const validDate = (field: string) => text(field).refine(isIsoDate, { message: `${field} must be an ISO 8601 date` });

export const ItemInput = z.looseObject({
  id: identifier('id', 64),
  // CONTRACT §3: a Boolean or a stock count (a number > 0 means in stock).
  available: z
    .union([z.boolean(), z.number().finite()], { error: 'available must be true, false or a stock count' })
    .transform((value) => (typeof value === 'number' ? value > 0 : value))
    .nullish(),
  categories: textList('categories', true).refine((list) => list.every((id) => id !== ''), { message: 'categories must not contain empty ids' }),
  picture: text('picture').min(1, 'picture is required').max(500, 'picture must be at most 500 characters'),
  name: text('name').trim().min(1, 'name is required').max(255, 'name must be at most 255 characters'),
  price: number('price').positive('price must be greater than 0'),
  url: text('url').trim().min(1, 'url is required'),
  // Not bound above 0 (the spec gives no bound; feeds send 0 for "none"): 0 counts as no old price.
  oldprice: number('oldprice').min(0, 'oldprice must not be negative').nullish(),
  currency: optionalText('currency'),
  params: z.array(ParamInput, { error: 'params must be an array of {name, value}' }).nullish(),
  group_id: z.union([z.string(), z.number()], { error: 'group_id must be a string' }).refine(keepsItsDigits, lostDigits('group_id')).transform(String).nullish(),
  type_prefix: optionalText('type_prefix'),
  brand: optionalText('brand'),
  brand_picture: optionalText('brand_picture'),
  vendor_code: z.union([z.string(), z.number()], { error: 'vendor_code must be a string' }).transform(String).nullish(),
  barcode: z.union([z.string(), z.number()], { error: 'barcode must be a string' }).transform(String).nullish(),
  model: optionalText('model'),
  description: optionalText('description'),
  merchant: oneOrMany('merchant').nullish(),
  tags: textList('tags').nullish(),
  stock_quantity: integer('stock_quantity').nullish(),
  discount_percent: number('discount_percent').nullish(),
  gift: z.union([z.string(), z.boolean()], { error: 'gift must be a string or a Boolean' }).nullish(),
  installment: integer('installment').nullish(),
  promocode: optionalText('promocode'),
  price_with_promocode: number('price_with_promocode').nullish(),
  deeplink_android: optionalText('deeplink_android'),
  deeplink_ios: optionalText('deeplink_ios'),
  bonuses_accrual_allowed: flag('bonuses_accrual_allowed'),
  bonuses_spending_allowed: flag('bonuses_spending_allowed'),
  discounts_allowed: flag('discounts_allowed'),
  accessories: textList('accessories').nullish(),
  customer_recommendations: textList('customer_recommendations').nullish(),
  seasonality: z
    .array(integer('seasonality[]').min(1, 'seasonality values must be 1 to 12').max(12, 'seasonality values must be 1 to 12'), {
      error: 'seasonality must be an array of months 1 to 12',
    })
    .nullish(),
  rating: number('rating').min(1, 'rating must be 1 to 5').max(5, 'rating must be 1 to 5').nullish(),
  leftovers: optionalText('leftovers'),
  is_new: flag('is_new'),
  is_child: flag('is_child'),
  is_fashion: flag('is_fashion'),
  date: validDate('date').nullish(),
  creation_date: validDate('creation_date').nullish(),
  price_margin: number('price_margin').min(0, 'price_margin must be 0 to 100').max(100, 'price_margin must be 0 to 100').nullish(),
  ignored: flag('ignored'),
  locations: z.array(OfferInput, { error: 'locations must be an array of location offers' }).nullish(),
  fashion: niche.fashion.nullish(),
  child: niche.child.nullish(),
  jewelry: niche.jewelry.nullish(),
  cosmetic: niche.cosmetic.nullish(),
  pharmacy: niche.pharmacy.nullish(),
  book: niche.book.nullish(),
  realty: niche.realty.nullish(),
  auto: niche.auto.nullish(),
  fmcg: niche.fmcg.nullish(),
  pets: niche.pets.nullish(),
});
export type ItemInput = z.infer<typeof ItemInput>;

/** Spec 2.3's rule: the given value, else floor((oldprice - price) / oldprice * 100), never negative. */
export function discountPercent(given: number | null | undefined, price: number | null | undefined, oldprice: number | null | undefined): number {
  if (given !== null && given !== undefined) return given;
  if (!price || !oldprice || oldprice <= price) return 0;
  return Math.floor(((oldprice - price) / oldprice) * 100 + 1e-9);
}
