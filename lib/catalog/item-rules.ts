import { z } from 'zod';
import { isIsoDate } from './iso-dates';
import { identifier, keepsItsDigits, lostDigits } from './schemas';
import {
  arrayOf,
  boundedInt32,
  boundedNumber,
  boundedText,
  type Check,
  checkEach,
  checkTextList,
  DELIVERY_TYPES_RULE,
  expected,
  FAIL,
  flag,
  int32,
  isNumber,
  looseObject,
  mixedList,
  nullish,
  number,
  oneOrMany,
  type Limits,
  type Rule,
  SECTION_RULES,
  type SectionName,
  text,
  textList,
} from './section-rules';

// An item's members (spec 2.4–2.8 with CONTRACT §3's coercions and limits), each written once, in
// a table: its rule gives the zod schema (product-schema.ts, which words the errors) and the plain
// check that gives zod's output without zod (checkItem, below), with the limits the byte reader
// applies; `read` names how the byte reader (item-bytes.ts) reads it. Unknown keys are kept
// (loose objects), so a field not modelled yet comes back as the shop sent it.
// zod costs ~45 µs an item of the synthetic shape (15 params), the checks ~2.5 (every shape:
// docs/benchmarks-history.md, "One definition of the item rules").
// item-rules.test.ts holds the checks to zod's answers on generated items.

/** How item-bytes.ts reads a member; the rule's limits say what it accepts. */
export type ReadKind =
  | 'id'
  | 'available'
  | 'categories'
  | 'text'
  | 'number'
  | 'int'
  | 'flag'
  | 'texts'
  | 'code'
  | 'group'
  | 'merchant'
  | 'date'
  | 'gift'
  | 'params'
  | 'locations'
  | 'fashion'
  | 'seasonality'
  | 'niche';

export type Member<R extends Rule = Rule> = { rule: R; read: ReadKind; required: boolean };

const required = <Z extends z.ZodType>(rule: Rule<Z>, read: ReadKind): Member<Rule<Z>> => ({ rule, read, required: true });
const optional = <Z extends z.ZodType>(rule: Rule<Z>, read: ReadKind): Member<Rule<z.ZodOptional<z.ZodNullable<Z>>>> => ({ rule: nullish(rule), read, required: false });

const rulesOf = <T extends Record<string, Member>>(members: T) =>
  Object.fromEntries(Object.entries(members).map(([name, member]) => [name, member.rule])) as { [K in keyof T]: T[K]['rule'] };
const requiredOf = (members: Record<string, Member>) => Object.keys(members).filter((name) => members[name].required);

/** An id: a string or a number keeping its digits, trimmed, 1 to `maxLength` characters, no NUL. */
const id = (field: string, maxLength = 255) => ({
  zod: identifier(field, maxLength),
  check: ((value) => {
    if ((typeof value !== 'string' && !isNumber(value)) || !keepsItsDigits(value)) return FAIL;
    const made = String(value).trim();
    return made.length >= 1 && made.length <= maxLength && !made.includes('\0') ? made : FAIL;
  }) as Check,
  limits: { min: 1, max: maxLength, trim: true },
});

const codeCheck: Check = (value) => (typeof value === 'string' ? value : isNumber(value) ? String(value) : FAIL);

/** A string, or a number made its string (codes). */
const code = (field: string) => ({
  zod: z.union([z.string(), z.number()], { error: `${field} must be a string` }).transform(String),
  check: codeCheck,
});

const date = (field: string) => ({
  zod: text(field).zod.refine(isIsoDate, { message: `${field} must be an ISO 8601 date` }),
  check: ((value) => (typeof value === 'string' && isIsoDate(value) ? value : FAIL)) as Check,
});

const isParamScalar = (value: unknown) => typeof value === 'string' || typeof value === 'boolean' || isNumber(value);

// A param's and an offer's members: rules by key (item-bytes.ts reads them with code of its own,
// taking their keys and limits from here).
const PARAM_RULES = {
  name: {
    zod: z.union([z.string(), z.number()], { error: 'params[].name must be a string' }).transform((v) => String(v).trim()),
    check: ((value) => (typeof value === 'string' || isNumber(value) ? String(value).trim() : FAIL)) as Check,
  },
  value: {
    zod: z
      .union([z.array(z.union([z.string(), z.number().finite(), z.boolean()])), z.string(), z.number().finite(), z.boolean()], {
        error: 'params[].value must be an array of strings or numbers',
      })
      .transform((value) => (Array.isArray(value) ? value : [value])),
    check: ((value) => {
      if (Array.isArray(value)) return value.every(isParamScalar) ? value : FAIL;
      return isParamScalar(value) ? [value] : FAIL;
    }) as Check,
  },
  unit: nullish({ zod: z.string({ error: 'params[].unit must be a string or null' }), check: text('params[].unit').check }),
  priority: nullish(int32('params[].priority')),
  searchable: nullish(flag('params[].searchable')),
};
export const PARAM_RULE = looseObject(PARAM_RULES, ['name', 'value']);
export const PARAM_KEYS = Object.keys(PARAM_RULES);

const OFFER_RULES = {
  location: id('locations[].location'),
  price: nullish(boundedNumber('locations[].price', { above: 0 })),
  oldprice: nullish(boundedNumber('locations[].oldprice', { above: 0 })),
  merchant: nullish(oneOrMany('locations[].merchant')),
  stock_quantity: nullish(boundedInt32('locations[].stock_quantity', { min: 0 })),
  sizes: nullish(textList('locations[].sizes')),
  weight: nullish(boundedInt32('locations[].weight', { min: 0 })),
  delivery_types: nullish(DELIVERY_TYPES_RULE),
  discount_percent: nullish(number('locations[].discount_percent')),
};
export const OFFER_RULE = looseObject(OFFER_RULES, ['location']);
export const OFFER_KEYS = Object.keys(OFFER_RULES);
/** An offer's limits by member, for the byte reader. */
export const OFFER_LIMITS = Object.fromEntries(Object.entries(OFFER_RULES).map(([name, rule]) => [name, rule.limits ?? {}])) as Record<keyof typeof OFFER_RULES, Limits>;

const COLOR_RULE = looseObject({ color: text('fashion.colors[].color'), picture: nullish(text('fashion.colors[].picture')) }, ['color']);
export const COLOR_KEYS = ['color', 'picture'];

/** Fashion: its colours and sizes are facets, with readers of their own in item-bytes.ts. */
const FASHION_RULE = looseObject({
  gender: nullish(text('gender')),
  type: nullish(text('fashion.type')),
  sizes: nullish(mixedList('fashion.sizes')),
  colors: nullish({
    zod: z.array(z.union([COLOR_RULE.zod, z.string().transform((color) => ({ color }))]), { error: 'fashion.colors must be an array of {color, picture}' }),
    // A colour given by its name alone is one without a picture.
    check: ((value) => checkEach(value, (element) => (typeof element === 'string' ? { color: element } : COLOR_RULE.check(element)))) as Check,
  }),
  feature: nullish(text('fashion.feature')),
});
export const FASHION_KEYS = ['gender', 'type', 'sizes', 'colors', 'feature'];

/** An item's members, in the order product-schema.ts always had them. */
export const ITEM_MEMBERS = {
  id: required(id('id', 64), 'id'),
  // CONTRACT §3: a Boolean or a stock count (a number > 0 means in stock).
  available: optional(
    {
      zod: z
        .union([z.boolean(), z.number().finite()], { error: 'available must be true, false or a stock count' })
        .transform((value) => (typeof value === 'number' ? value > 0 : value)),
      check: ((value) => (typeof value === 'boolean' ? value : isNumber(value) ? value > 0 : FAIL)) as Check,
    },
    'available',
  ),
  // Ids, trimmed as the category tree's own ids are; a number must keep its digits.
  categories: required(
    {
      zod: z
        .array(
          z
            .union([z.string(), z.number().finite()])
            .refine(keepsItsDigits, lostDigits('categories[]'))
            .transform((value) => String(value).trim())
            .refine((value) => !value.includes('\0'), 'categories must not contain NUL characters'),
          { error: expected('categories', 'an array of strings') },
        )
        .refine((list) => list.every((category) => category !== ''), { message: 'categories must not contain empty ids' }),
      check: ((value) => {
        if (Array.isArray(value) && !value.every(keepsItsDigits)) return FAIL;
        const list = checkTextList(value);
        if (list === FAIL) return FAIL;
        const ids = list as string[];
        if (ids.every((category) => category !== '' && category.trim() === category)) return ids;
        // A blank one is zod's to word.
        const trimmed = ids.map((category) => category.trim());
        return trimmed.includes('') ? FAIL : trimmed;
      }) as Check,
    },
    'categories',
  ),
  picture: required(boundedText('picture', { min: 1, max: 500 }), 'text'),
  name: required(boundedText('name', { trim: true, min: 1, max: 255 }), 'text'),
  price: required(boundedNumber('price', { above: 0 }), 'number'),
  url: required(boundedText('url', { trim: true, min: 1 }), 'text'),
  // Not bound above 0 (the spec gives no bound; feeds send 0 for "none"): 0 counts as no old price.
  oldprice: optional(boundedNumber('oldprice', { min: 0 }), 'number'),
  currency: optional(text('currency'), 'text'),
  params: optional(arrayOf(PARAM_RULE, 'params must be an array of {name, value}'), 'params'),
  group_id: optional(
    {
      zod: z.union([z.string(), z.number()], { error: 'group_id must be a string' }).refine(keepsItsDigits, lostDigits('group_id')).transform(String),
      check: ((value) => (keepsItsDigits(value) ? codeCheck(value) : FAIL)) as Check,
    },
    'group',
  ),
  type_prefix: optional(text('type_prefix'), 'text'),
  brand: optional(text('brand'), 'text'),
  brand_picture: optional(text('brand_picture'), 'text'),
  vendor_code: optional(code('vendor_code'), 'code'),
  barcode: optional(code('barcode'), 'code'),
  model: optional(text('model'), 'text'),
  description: optional(text('description'), 'text'),
  merchant: optional(oneOrMany('merchant'), 'merchant'),
  tags: optional(textList('tags'), 'texts'),
  stock_quantity: optional(int32('stock_quantity'), 'int'),
  discount_percent: optional(number('discount_percent'), 'number'),
  gift: optional(
    {
      zod: z.union([z.string(), z.boolean()], { error: 'gift must be a string or a Boolean' }),
      check: ((value) => (typeof value === 'string' || typeof value === 'boolean' ? value : FAIL)) as Check,
    },
    'gift',
  ),
  installment: optional(int32('installment'), 'int'),
  promocode: optional(text('promocode'), 'text'),
  price_with_promocode: optional(number('price_with_promocode'), 'number'),
  deeplink_android: optional(text('deeplink_android'), 'text'),
  deeplink_ios: optional(text('deeplink_ios'), 'text'),
  bonuses_accrual_allowed: optional(flag('bonuses_accrual_allowed'), 'flag'),
  bonuses_spending_allowed: optional(flag('bonuses_spending_allowed'), 'flag'),
  discounts_allowed: optional(flag('discounts_allowed'), 'flag'),
  accessories: optional(textList('accessories'), 'texts'),
  customer_recommendations: optional(textList('customer_recommendations'), 'texts'),
  seasonality: optional(arrayOf(boundedInt32('seasonality[]', { min: 1, max: 12 }, 'seasonality values'), 'seasonality must be an array of months 1 to 12'), 'seasonality'),
  rating: optional(boundedNumber('rating', { min: 1, max: 5 }), 'number'),
  leftovers: optional(text('leftovers'), 'text'),
  is_new: optional(flag('is_new'), 'flag'),
  is_child: optional(flag('is_child'), 'flag'),
  is_fashion: optional(flag('is_fashion'), 'flag'),
  date: optional(date('date'), 'date'),
  creation_date: optional(date('creation_date'), 'date'),
  price_margin: optional(boundedNumber('price_margin', { min: 0, max: 100 }), 'number'),
  ignored: optional(flag('ignored'), 'flag'),
  locations: optional(arrayOf(OFFER_RULE, 'locations must be an array of location offers'), 'locations'),
  fashion: optional(FASHION_RULE, 'fashion'),
  ...{
    child: optional(SECTION_RULES.child, 'niche'),
    jewelry: optional(SECTION_RULES.jewelry, 'niche'),
    cosmetic: optional(SECTION_RULES.cosmetic, 'niche'),
    pharmacy: optional(SECTION_RULES.pharmacy, 'niche'),
    book: optional(SECTION_RULES.book, 'niche'),
    realty: optional(SECTION_RULES.realty, 'niche'),
    auto: optional(SECTION_RULES.auto, 'niche'),
    fmcg: optional(SECTION_RULES.fmcg, 'niche'),
    pets: optional(SECTION_RULES.pets, 'niche'),
  } satisfies Record<SectionName, Member>,
};
export type ItemMemberName = keyof typeof ITEM_MEMBERS;

export const ITEM_RULE = looseObject(rulesOf(ITEM_MEMBERS), requiredOf(ITEM_MEMBERS) as ItemMemberName[]);

/**
 * ItemInput's output for an item the plain checks accept, else undefined (ask zod); `exact` when
 * that output is the item as sent (same JSON, keys aside), so its text can stand for it. A check
 * gives back its very input when it accepts it unchanged and copies only what it changes: an item
 * sent as the schema wants it costs no allocation.
 */
export function checkItem(input: unknown): { item: z.infer<typeof ITEM_RULE.zod>; exact: boolean } | undefined {
  const item = ITEM_RULE.check(input);
  return item === FAIL ? undefined : { item: item as z.infer<typeof ITEM_RULE.zod>, exact: item === input };
}
