import { isIsoDate, ItemInput, NICHE_SCHEMAS } from './product-schema';
import { keepsItsDigits } from './schemas';

// The common case of ItemInput without zod: plain checks over the fields a product feed sends,
// giving the same output zod gives. Whatever it is not sure of (a field that fails, a shape it
// does not handle) returns undefined, and the caller asks zod, which also words the reason.
// zod costs ~45 µs per item of the benchmark's shape (15 params); these checks ~12 µs.
// fast-item.test.ts holds it to zod's answers on generated items.
// A check gives back its very input when it accepts it unchanged, and copies only what it
// changes: an item sent as the schema wants it (the common case) costs no allocation.

const FAIL = Symbol('fail');
// Set by a check that gives something other than its input (a number made a string, a trimmed
// name, a value wrapped in an array): the item as accepted then differs from the item as sent.
let altered = false;
type Out = unknown;
type Check = (value: unknown) => Out;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isInt32 = (value: unknown): value is number => isNumber(value) && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;

const nullish =
  (check: Check): Check =>
  (value) =>
    value === null ? null : check(value);

const text: Check = (value) => (typeof value === 'string' ? value : FAIL);
const flag: Check = (value) => (typeof value === 'boolean' ? value : FAIL);
const number: Check = (value) => (isNumber(value) ? value : FAIL);
const positive: Check = (value) => (isNumber(value) && value > 0 ? value : FAIL);
const nonNegative: Check = (value) => (isNumber(value) && value >= 0 ? value : FAIL);
const integer: Check = (value) => (isInt32(value) ? value : FAIL);
const stringOrNumber: Check = (value) => {
  if (typeof value === 'string') return value;
  if (typeof value !== 'number') return FAIL;
  altered = true;
  return String(value);
};
const between =
  (min: number, max: number): Check =>
  (value) =>
    isNumber(value) && value >= min && value <= max ? value : FAIL;

function identifier(maxLength: number): Check {
  return (value) => {
    if ((typeof value !== 'string' && !isNumber(value)) || !keepsItsDigits(value)) return FAIL;
    const id = String(value).trim();
    if (id !== value) altered = true;
    return id.length >= 1 && id.length <= maxLength && !id.includes('\0') ? id : FAIL;
  };
}

const textList: Check = (value) => {
  if (!Array.isArray(value)) return FAIL;
  let out: string[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const element = value[i] as unknown;
    if (typeof element === 'string') {
      if (element.includes('\0')) return FAIL;
      if (out) out[i] = element;
    } else if (isNumber(element)) {
      altered = true;
      out ??= (value as string[]).slice(0, i);
      out[i] = String(element);
    } else {
      return FAIL;
    }
  }
  return out ?? value;
};

const oneOrMany: Check = (value) => {
  if (typeof value === 'string') {
    altered = true;
    return [value];
  }
  if (!Array.isArray(value) || !value.every((element) => typeof element === 'string')) return FAIL;
  return value;
};

const paramValue: Check = (value) => {
  if (Array.isArray(value)) {
    for (const element of value as unknown[]) {
      if (typeof element !== 'string' && typeof element !== 'boolean' && !isNumber(element)) return FAIL;
    }
    return value;
  }
  if (typeof value !== 'string' && typeof value !== 'boolean' && !isNumber(value)) return FAIL;
  altered = true;
  return [value];
};

/** A loose object's checks by key. A Map: one look-up a key, where an object took two. */
type Checks = Map<string, Check>;
const checksOf = (checks: Record<string, Check>): Checks => new Map(Object.entries(checks));

/**
 * `input` with `checks` run on its known keys and unknown keys passed through: `input` itself
 * when every check gave its value back, else a copy with the checks' results.
 */
function looseObject(input: unknown, checks: Checks, required: readonly string[]): Record<string, unknown> | undefined {
  if (!isObject(input)) return undefined;
  for (const key of required) if (!(key in input)) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const key in input) {
    // zod drops it; an assignment would set the copy's prototype.
    if (key === '__proto__') return undefined;
    const value = input[key];
    const check = checks.get(key);
    if (check === undefined) {
      if (out) out[key] = value;
      continue;
    }
    // A key present with undefined cannot come from JSON; zod is the judge of anything else.
    if (value === undefined) return undefined;
    const result = check(value);
    if (result === FAIL) return undefined;
    if (out) out[key] = result;
    else if (result !== value) {
      // The first change: the keys before it, as they are, then this one's result.
      out = {};
      for (const earlier in input) {
        if (earlier === key) break;
        out[earlier] = input[earlier];
      }
      out[key] = result;
    }
  }
  return out ?? input;
}

const PARAM_CHECKS: Checks = checksOf({
  name: (value) => {
    if (typeof value !== 'string' && !isNumber(value)) return FAIL;
    const name = String(value).trim();
    if (name !== value) altered = true;
    return name;
  },
  value: paramValue,
  unit: nullish(text),
  priority: nullish(integer),
  searchable: nullish(flag),
});
const PARAM_REQUIRED = ['name', 'value'] as const;

/** An array whose elements each pass `check`: the array itself when each came back as it was. */
function arrayEach(check: Check): Check {
  return (value) => {
    if (!Array.isArray(value)) return FAIL;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const element = check(value[i]);
      if (element === FAIL) return FAIL;
      if (out) out[i] = element;
      else if (element !== value[i]) {
        out = value.slice(0, i);
        out[i] = element;
      }
    }
    return out ?? value;
  };
}

/** An array of loose objects, each checked as looseObject does. */
function arrayOf(checks: Checks, required: readonly string[]): Check {
  return arrayEach((element) => looseObject(element, checks, required) ?? FAIL);
}

const params = arrayOf(PARAM_CHECKS, PARAM_REQUIRED);

const nonNegativeInteger: Check = (value) => (isInt32(value) && value >= 0 ? value : FAIL);

const OFFER_CHECKS: Checks = checksOf({
  location: identifier(255),
  price: nullish(positive),
  oldprice: nullish(positive),
  merchant: nullish(oneOrMany),
  stock_quantity: nullish(nonNegativeInteger),
  sizes: nullish(textList),
  weight: nullish(nonNegativeInteger),
  // Rare and a record: zod's.
  delivery_types: (value) => (value === null ? null : FAIL),
  discount_percent: nullish(number),
});
const OFFER_REQUIRED = ['location'] as const;

const offers = arrayOf(OFFER_CHECKS, OFFER_REQUIRED);

const date: Check = (value) => (typeof value === 'string' && isIsoDate(value) ? value : FAIL);

// Fashion, the niche section most items of a clothing shop carry: plain checks as for the item
// (zod and two JSON.stringify calls cost ~8 µs an item). Other sections go to zod (niche below).
const mixedList: Check = (value) => (Array.isArray(value) && value.every((element) => typeof element === 'string' || isNumber(element)) ? value : FAIL);
const COLOR_CHECKS: Checks = checksOf({ color: text, picture: nullish(text) });
const COLOR_REQUIRED = ['color'] as const;
const colors = arrayEach((element) => {
  if (typeof element !== 'string') return looseObject(element, COLOR_CHECKS, COLOR_REQUIRED) ?? FAIL;
  // A colour given by its name alone is one without a picture.
  altered = true;
  return { color: element };
});
const FASHION_CHECKS: Checks = checksOf({
  gender: nullish(text),
  type: nullish(text),
  sizes: nullish(mixedList),
  colors: nullish(colors),
  feature: nullish(text),
});
const fashion: Check = (value) => looseObject(value, FASHION_CHECKS, []) ?? FAIL;

function niche(schema: (typeof NICHE_SCHEMAS)[keyof typeof NICHE_SCHEMAS]): Check {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) return FAIL;
    if (JSON.stringify(parsed.data) === JSON.stringify(value)) return value;
    altered = true;
    return parsed.data;
  };
}

const ITEM_CHECKS: Checks = checksOf({
  id: identifier(64),
  available: nullish((value) => {
    if (typeof value === 'boolean') return value;
    if (!isNumber(value)) return FAIL;
    altered = true;
    return value > 0;
  }),
  categories: (value) => {
    if (Array.isArray(value) && !value.every(keepsItsDigits)) return FAIL;
    const list = textList(value);
    if (list === FAIL) return FAIL;
    const ids = list as string[];
    if (ids.every((id) => id !== '' && id.trim() === id)) return ids;
    // Trimmed, as the category tree's ids are; a blank one is zod's to word.
    const trimmed = ids.map((id) => id.trim());
    if (trimmed.includes('')) return FAIL;
    altered = true;
    return trimmed;
  },
  picture: (value) => (typeof value === 'string' && value.length >= 1 && value.length <= 500 ? value : FAIL),
  name: (value) => {
    if (typeof value !== 'string') return FAIL;
    const name = value.trim();
    if (name !== value) altered = true;
    return name.length >= 1 && name.length <= 255 ? name : FAIL;
  },
  price: positive,
  url: (value) => {
    if (typeof value !== 'string') return FAIL;
    const url = value.trim();
    if (url !== value) altered = true;
    return url.length >= 1 ? url : FAIL;
  },
  oldprice: nullish(nonNegative),
  currency: nullish(text),
  params: nullish(params),
  group_id: nullish((value) => (keepsItsDigits(value) ? stringOrNumber(value) : FAIL)),
  type_prefix: nullish(text),
  brand: nullish(text),
  brand_picture: nullish(text),
  vendor_code: nullish(stringOrNumber),
  barcode: nullish(stringOrNumber),
  model: nullish(text),
  description: nullish(text),
  merchant: nullish(oneOrMany),
  tags: nullish(textList),
  stock_quantity: nullish(integer),
  discount_percent: nullish(number),
  gift: nullish((value) => (typeof value === 'string' || typeof value === 'boolean' ? value : FAIL)),
  installment: nullish(integer),
  promocode: nullish(text),
  price_with_promocode: nullish(number),
  deeplink_android: nullish(text),
  deeplink_ios: nullish(text),
  bonuses_accrual_allowed: nullish(flag),
  bonuses_spending_allowed: nullish(flag),
  discounts_allowed: nullish(flag),
  accessories: nullish(textList),
  customer_recommendations: nullish(textList),
  seasonality: nullish((value) => (Array.isArray(value) && value.every((month) => isInt32(month) && month >= 1 && month <= 12) ? value : FAIL)),
  rating: nullish(between(1, 5)),
  leftovers: nullish(text),
  is_new: nullish(flag),
  is_child: nullish(flag),
  is_fashion: nullish(flag),
  date: nullish(date),
  creation_date: nullish(date),
  price_margin: nullish(between(0, 100)),
  ignored: nullish(flag),
  locations: nullish(offers),
  ...Object.fromEntries(Object.entries(NICHE_SCHEMAS).map(([key, schema]) => [key, nullish(key === 'fashion' ? fashion : niche(schema))])),
});
const ITEM_REQUIRED = ['id', 'categories', 'picture', 'name', 'price', 'url'] as const;

/**
 * ItemInput's output for an item the plain checks accept, else undefined (ask zod); `exact` when
 * that output is the item as sent (same JSON, keys aside), so its text can stand for it.
 */
export function checkItem(input: unknown): { item: ItemInput; exact: boolean } | undefined {
  altered = false;
  const item = looseObject(input, ITEM_CHECKS, ITEM_REQUIRED) as ItemInput | undefined;
  return item && { item, exact: !altered };
}

