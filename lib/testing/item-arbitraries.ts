import fc from 'fast-check';

// Items for property tests of the checks and readers (item-rules.test.ts, item-bytes.test.ts).

// Values chosen around each rule's edges: right types, wrong types, limits, NULs, blanks.
// Numbers past 2^53 that JSON.parse rounds (an id sent as one is refused, not merged with another).
const huge = fc.constantFrom(2 ** 53, 2 ** 53 + 2, Number('12345678901234567890'), 1e21, -(2 ** 53) - 2);
const anything = fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e10, '', ' ', 'x', ' y ', 'a\0b', [], ['a'], [1], {}, { a: 1 });
const str = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(' ', ' pad ', 'nul\0', 'x'.repeat(64), 'x'.repeat(65), 'x'.repeat(255), 'x'.repeat(256), 'x'.repeat(500), 'x'.repeat(501)));
const num = fc.oneof(fc.integer({ min: -3, max: 14 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 200 }), fc.constantFrom(2147483647, 2147483648, -2147483648, -2147483649, 1e-9, 0));
const scalar = fc.oneof(str, num, fc.boolean(), fc.constant(null));
const list = fc.array(fc.oneof(str, num, fc.boolean(), fc.constant(null), fc.constant([])), { maxLength: 3 });
const value = fc.oneof({ weight: 3, arbitrary: scalar }, { weight: 2, arbitrary: list }, { weight: 1, arbitrary: anything });

const param = fc.oneof(
  { weight: 40, arbitrary: fc.record({ name: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), value: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean()), { maxLength: 2 }), fc.string({ maxLength: 3 }), fc.integer()) }) },
  { weight: 3, arbitrary: fc.record({ name: fc.oneof(str, num), value: fc.oneof(list, scalar) }) },
  { weight: 3, arbitrary: fc.record({ name: fc.oneof(str, num, anything), value, unit: value, priority: value, searchable: value, extra: value }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: anything },
);
const offer = fc.oneof(
  { weight: 30, arbitrary: fc.record({ location: fc.oneof(fc.string({ minLength: 1, maxLength: 3 }), fc.integer()), price: fc.double({ min: 0.01, max: 100, noNaN: true }), stock_quantity: fc.nat() }, { requiredKeys: ['location'] }) },
  { weight: 4, arbitrary: fc.record({ location: fc.oneof(str, num), price: num }, { requiredKeys: ['location'] }) },
  {
    weight: 3,
    arbitrary: fc.record(
      { location: fc.oneof(str, num, anything), price: value, oldprice: value, merchant: value, stock_quantity: value, sizes: value, weight: value, delivery_types: fc.oneof(value, fc.constant({ courier: 1 })), discount_percent: value, note: value },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: anything },
);
const date = fc.constantFrom('2026-06-21', '2025-01-01T00:00:00Z', '2026-06-21', '2024-02-29T23:59:59.123-05:00', '2026-06-21', '2020-01-01', '2026-06-21T10:00', '2026-06-21 10:00:00Z', '2026-06-21T10:00:00.5+03:00', '2026-13-40', '0000-01-01', 'soon', '21.06.2026', 7, '2024-02-30', '2023-02-29', '2024-04-31T10:00Z', '2024-02-29');
const color = fc.oneof(
  { weight: 4, arbitrary: fc.record({ color: fc.string({ maxLength: 4 }), picture: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(null)) }, { requiredKeys: ['color'] }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 4 }) },
  { weight: 1, arbitrary: fc.record({ color: value, picture: value, shade: value }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: value },
);
const flagOrNull = fc.oneof(fc.boolean(), fc.constant(null));
const shortText = fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null));
const niche = fc.oneof(
  { weight: 4, arbitrary: fc.record({ gender: fc.constantFrom('male', 'female'), sizes: fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 2 }), colors: fc.constant([{ color: 'red' }, 'blue']) }, { requiredKeys: [] }) },
  { weight: 4, arbitrary: fc.record({ gender: fc.oneof(fc.string({ maxLength: 2 }), fc.constant(null)), type: fc.string({ maxLength: 3 }), sizes: fc.oneof(fc.array(fc.oneof({ weight: 6, arbitrary: fc.oneof(fc.string({ maxLength: 2 }), num) }, { weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.constant(null)) }), { maxLength: 3 }), fc.constant(null)), colors: fc.oneof(fc.array(color, { maxLength: 3 }), fc.constant(null)), feature: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)), fit: value }, { requiredKeys: [] }) },
  fc.record({ gender: value, sizes: value, colors: fc.oneof(value, fc.constant([{ color: 'red' }, 'blue'])), type: value, feature: value }, { requiredKeys: [] }),
  fc.record({ year: fc.constantFrom(1999, 1700, 3000, 'x', null), isbn: fc.oneof(value, fc.constant(['978-3'])), author: shortText, series: value }, { requiredKeys: [] }),
  anything,
);

// The other niche sections (section-rules.ts): valid members mostly, any value now and then.
const sometimes = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 20, arbitrary: valid }, { weight: 1, arbitrary: value });
const textArray = fc.array(fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 3 }) }, { weight: 1, arbitrary: fc.integer() }, { weight: 1, arbitrary: fc.constant('n\0') }), { maxLength: 2 });
const mixedArray = fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), { maxLength: 2 });
const bound = fc.oneof({ weight: 6, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 100 }) }, { weight: 1, arbitrary: fc.constantFrom(null, '5', true) });
const sectionOf = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof({ weight: 10, arbitrary: fc.record(Object.fromEntries(Object.entries(fields).map(([key, arbitrary]) => [key, sometimes(arbitrary)])), { requiredKeys: [] }) }, { weight: 1, arbitrary: anything });
const SECTIONS: Record<string, fc.Arbitrary<unknown>> = {
  child: sectionOf({ type: shortText, gender: shortText, age: fc.record({ min: bound, max: bound, unit: value }, { requiredKeys: [] }) }),
  jewelry: sectionOf({ gender: shortText, color: shortText, metal: shortText, gem: shortText, ring_sizes: mixedArray, bracelet_sizes: mixedArray, chain_sizes: mixedArray }),
  cosmetic: sectionOf({
    gender: shortText, hypoallergenic: flagOrNull, periodic: flagOrNull, professional: flagOrNull,
    skin: fc.record({ part: textArray, type: textArray, condition: textArray }, { requiredKeys: [] }),
    hair: fc.record({ type: textArray, condition: textArray }, { requiredKeys: [] }),
    nail: fc.record({ type: shortText, polish_color: shortText }, { requiredKeys: [] }),
    perfume: fc.record({ aroma: shortText, family: shortText, note: value }, { requiredKeys: [] }),
  }),
  pharmacy: sectionOf({ volumes: fc.array(fc.record({ value: fc.oneof(num, value), price: num }, { requiredKeys: ['price'] }), { maxLength: 2 }) }),
  realty: sectionOf({ action: shortText, type: shortText, space: fc.record({ min: bound, max: bound, final: bound }, { requiredKeys: [] }) }),
  auto: sectionOf({ vds: shortText, periodic: flagOrNull, compatibility: fc.array(fc.record({ brand: shortText, model: shortText }, { requiredKeys: [] }), { maxLength: 3 }) }),
  fmcg: sectionOf({ hypoallergenic: flagOrNull, periodic: flagOrNull }),
  pets: sectionOf({ periodic: flagOrNull, breed: shortText, type: shortText, age: shortText, size: shortText }),
};

// Each field from values of its own kind (mostly valid), then up to two fields overwritten with
// anything at all: most items stay valid enough to reach the fast path, every rule gets broken.
const text = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant(null) });
const flag = fc.oneof(fc.boolean(), fc.constant(null));
const strings = fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 });
const GOOD: Record<string, fc.Arbitrary<unknown>> = {
  available: fc.oneof(fc.boolean(), fc.integer({ min: -2, max: 5 }), fc.constant(null)),
  oldprice: fc.oneof(fc.double({ min: 0.01, max: 1e6, noNaN: true }), num, fc.constant(null), fc.constantFrom(0, -0.5)),
  currency: text, type_prefix: text, brand: text, brand_picture: text, model: text, description: text, promocode: text,
  deeplink_android: text, deeplink_ios: text, leftovers: text,
  group_id: fc.oneof({ weight: 10, arbitrary: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()) }, { weight: 1, arbitrary: huge }), vendor_code: fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), barcode: fc.integer(),
  merchant: fc.oneof(fc.string({ maxLength: 4 }), fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 })),
  tags: strings, accessories: strings, customer_recommendations: strings,
  stock_quantity: fc.oneof({ weight: 6, arbitrary: fc.integer() }, { weight: 1, arbitrary: num }), installment: fc.integer({ min: -5, max: 24 }), discount_percent: num, price_with_promocode: num,
  rating: fc.oneof({ weight: 6, arbitrary: fc.double({ min: 1, max: 5, noNaN: true }) }, { weight: 1, arbitrary: num }),
  price_margin: fc.oneof({ weight: 6, arbitrary: fc.double({ min: 0, max: 100, noNaN: true }) }, { weight: 1, arbitrary: num }),
  gift: fc.oneof(fc.boolean(), fc.string({ maxLength: 3 })),
  bonuses_accrual_allowed: flag, bonuses_spending_allowed: flag, discounts_allowed: flag, is_new: flag, is_child: flag, is_fashion: flag, ignored: flag,
  seasonality: fc.array(fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 13, 1.5) }), { maxLength: 3 }),
  unknown_field: value,
};

const validish = fc.record(
  {
    id: fc.oneof({ weight: 30, arbitrary: fc.oneof(fc.string({ minLength: 1, maxLength: 4 }), fc.integer()) }, { weight: 2, arbitrary: fc.constantFrom(' a ', 'x'.repeat(64), 'x'.repeat(65)) }, { weight: 1, arbitrary: huge }),
    name: fc.oneof({ weight: 15, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) }, { weight: 1, arbitrary: fc.constantFrom(' ', ' pad ', 'x'.repeat(256)) }),
    url: fc.oneof({ weight: 15, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant(' ') }),
    picture: fc.oneof({ weight: 15, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant('x'.repeat(501)) }),
    price: fc.oneof({ weight: 15, arbitrary: fc.double({ min: 0.01, max: 1e6, noNaN: true }) }, { weight: 1, arbitrary: num }),
    categories: fc.array(
      fc.oneof({ weight: 40, arbitrary: fc.string({ minLength: 1, maxLength: 3 }) }, { weight: 10, arbitrary: fc.integer() }, { weight: 2, arbitrary: fc.constantFrom(' ', ' 7', '8 ', '\u00a09', 'Ёлка', 'цвет\u3000', '\u00a0') }, { weight: 1, arbitrary: huge }),
      { maxLength: 3 },
    ),
    params: fc.array(param, { maxLength: 4 }),
    locations: fc.array(offer, { maxLength: 3 }),
    date,
    creation_date: date,
    fashion: niche,
    book: niche,
    ...GOOD,
  },
  { requiredKeys: ['id', 'name', 'url', 'picture', 'price', 'categories'] },
);
const FIELDS = ['id', 'name', 'url', 'picture', 'price', 'categories', 'params', 'locations', 'date', 'fashion', ...Object.keys(SECTIONS), ...Object.keys(GOOD)];
// One of the other sections on about half the items.
const section = fc.oneof(fc.constant(null), fc.oneof(...Object.entries(SECTIONS).map(([name, arbitrary]) => arbitrary.map((v) => [name, v] as const))));

/** An item: each field from values of its kind, mostly valid, then up to one field overwritten with anything. */
export const generatedItem = fc
  .tuple(validish, section, fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(anything, value, fc.constant(undefined))), { maxLength: 1 }))
  .map(([input, extra, changes]) => {
    const changed: Record<string, unknown> = { ...input };
    if (extra) changed[extra[0]] = extra[1];
    for (const [field, v] of changes) changed[field] = v;
    return changed;
  });

