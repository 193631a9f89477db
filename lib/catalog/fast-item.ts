import { isIsoDate, ItemInput } from './product-schema';
import { keepsItsDigits } from './schemas';
import { type Check, checkEach, checkLooseObject, checkOneOrMany, checkTextList, DELIVERY_TYPES_RULE, FAIL, isInt32, isNumber, SECTION_RULES } from './section-rules';

// The common case of ItemInput without zod: plain checks over the fields a product feed sends,
// giving the same output zod gives. Whatever it is not sure of (a field that fails, a shape it
// does not handle) returns undefined, and the caller asks zod, which also words the reason.
// zod costs ~45 µs per item of the benchmark's shape (15 params); these checks ~12 µs.
// fast-item.test.ts holds it to zod's answers on generated items.
// A check gives back its very input when it accepts it unchanged, and copies only what it
// changes (section-rules.ts): an item sent as the schema wants it (the common case) costs no
// allocation, and is exact (its text can be stored for it) when the output is the input itself.

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
    return id.length >= 1 && id.length <= maxLength && !id.includes('\0') ? id : FAIL;
  };
}

const textList = checkTextList;
const oneOrMany = checkOneOrMany;

const paramValue: Check = (value) => {
  if (Array.isArray(value)) {
    for (const element of value as unknown[]) {
      if (typeof element !== 'string' && typeof element !== 'boolean' && !isNumber(element)) return FAIL;
    }
    return value;
  }
  if (typeof value !== 'string' && typeof value !== 'boolean' && !isNumber(value)) return FAIL;
  return [value];
};

/** A loose object's checks by key. A Map: one look-up a key, where an object took two. */
type Checks = Map<string, Check>;
const checksOf = (checks: Record<string, Check>): Checks => new Map(Object.entries(checks));

const PARAM_CHECKS: Checks = checksOf({
  name: (value) => {
    if (typeof value !== 'string' && !isNumber(value)) return FAIL;
    return String(value).trim();
  },
  value: paramValue,
  unit: nullish(text),
  priority: nullish(integer),
  searchable: nullish(flag),
});
const PARAM_REQUIRED = ['name', 'value'] as const;

/** An array of loose objects, each checked as checkLooseObject does. */
function arrayOf(checks: Checks, required: readonly string[]): Check {
  return (value) => checkEach(value, (element) => checkLooseObject(element, checks, required));
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
  delivery_types: nullish(DELIVERY_TYPES_RULE.check),
  discount_percent: nullish(number),
});
const OFFER_REQUIRED = ['location'] as const;

const offers = arrayOf(OFFER_CHECKS, OFFER_REQUIRED);

const date: Check = (value) => (typeof value === 'string' && isIsoDate(value) ? value : FAIL);

// Fashion, whose colours may be sent as names alone; the other niche sections are section-rules.ts's.
const mixedList: Check = (value) => (Array.isArray(value) && value.every((element) => typeof element === 'string' || isNumber(element)) ? value : FAIL);
const COLOR_CHECKS: Checks = checksOf({ color: text, picture: nullish(text) });
const COLOR_REQUIRED = ['color'] as const;
const colors: Check = (value) =>
  checkEach(value, (element) =>
    // A colour given by its name alone is one without a picture.
    typeof element === 'string' ? { color: element } : checkLooseObject(element, COLOR_CHECKS, COLOR_REQUIRED),
  );
const FASHION_CHECKS: Checks = checksOf({
  gender: nullish(text),
  type: nullish(text),
  sizes: nullish(mixedList),
  colors: nullish(colors),
  feature: nullish(text),
});
const fashion: Check = (value) => checkLooseObject(value, FASHION_CHECKS, []);

const ITEM_CHECKS: Checks = checksOf({
  id: identifier(64),
  available: nullish((value) => {
    if (typeof value === 'boolean') return value;
    return isNumber(value) ? value > 0 : FAIL;
  }),
  categories: (value) => {
    if (Array.isArray(value) && !value.every(keepsItsDigits)) return FAIL;
    const list = textList(value);
    if (list === FAIL) return FAIL;
    const ids = list as string[];
    if (ids.every((id) => id !== '' && id.trim() === id)) return ids;
    // Trimmed, as the category tree's ids are; a blank one is zod's to word.
    const trimmed = ids.map((id) => id.trim());
    return trimmed.includes('') ? FAIL : trimmed;
  },
  picture: (value) => (typeof value === 'string' && value.length >= 1 && value.length <= 500 ? value : FAIL),
  name: (value) => {
    if (typeof value !== 'string') return FAIL;
    const name = value.trim();
    return name.length >= 1 && name.length <= 255 ? name : FAIL;
  },
  price: positive,
  url: (value) => {
    if (typeof value !== 'string') return FAIL;
    const url = value.trim();
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
  fashion: nullish(fashion),
  ...Object.fromEntries(Object.entries(SECTION_RULES).map(([key, rule]) => [key, nullish(rule.check)])),
});
const ITEM_REQUIRED = ['id', 'categories', 'picture', 'name', 'price', 'url'] as const;

/**
 * ItemInput's output for an item the plain checks accept, else undefined (ask zod); `exact` when
 * that output is the item as sent (same JSON, keys aside), so its text can stand for it.
 */
export function checkItem(input: unknown): { item: ItemInput; exact: boolean } | undefined {
  const item = checkLooseObject(input, ITEM_CHECKS, ITEM_REQUIRED);
  return item === FAIL ? undefined : { item: item as ItemInput, exact: item === input };
}

