import crypto from 'node:crypto';
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import { applyTree } from '@/lib/catalog/apply-tree';
import { backfillFacets } from '@/lib/catalog/backfill-facets';
import type { ListingQuery, SortKey } from '@/lib/listing/query';
import { SEARCH_FIELDS, type SearchField } from '@/lib/listing/search-text';

// Catalogs and queries for the listing's property tests (engine.property.int.test.ts and the
// shaping test): from a handful of products to hundreds, prices with cents and without, numbers
// below zero and with decimals in params, offers with their own oldprice and discount, ids outside
// the BMP, and words whose folding is not plain (ß, İ, ı, ё, й, combining marks).

export const CATEGORY_NAMES = ['Shoes', 'Boots', 'Books', 'Hats', 'Crème', 'Socks', 'Straße', 'İzmir', 'Ёлки', 'Caps', 'Coats', 'Bags'];
const WORDS = ['red', 'running', 'shoe', 'Brûlée', 'winter', 'boot', 'book', 'hat', 'Straße', 'İstanbul', 'ёлка', 'e\u0301te\u0301', 'ılık', 'Йогурт', 'ΟΔΟΣ', 'Οδοστρωμα', 'δρόμος'];
const BRANDS = ['Acme', 'acme', 'Beta', ' Gamma ', 'Straße', 'STRAẞE', '😀 Smile'];
const LOCATION_IDS = (count: number) => [...Array.from({ length: count }, (_, i) => `l${i}`), 'lx'];

/**
 * Prices as shops send them: whole, in cents, any decimal, and next to a bucket bound (the largest
 * double below 20; 0.1 + 0.2).
 */
const price = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(1, 5, 5.5, 10, 99.99, 100, 250) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 2_000_000 }).map((cents) => cents / 100) },
  { weight: 1, arbitrary: fc.double({ min: 0.01, max: 1e6, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0.01, 19.999999999999996, 20, 0.1 + 0.2, 24.99, 2.5, 1e6, 7.000000000000001) },
);
const oldprice = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom(10, 120, 300) }, { weight: 1, arbitrary: price });
// Given as is (CONTRACT §3): decimals, 0, below zero; absent mostly (then computed at import).
const discountPercent = fc.option(fc.constantFrom<number>(0, 20.4, 20.6, 50, -5, 99.5), { nil: undefined, freq: 4 });

// Each name with values of its kind, so that numeric params (ranges) stay numeric across a large
// catalog: text, numbers (with decimals, below zero, numerals written as text), Booleans, mixed.
const TEXTS = fc.array(fc.constantFrom('red', 'blue', 'green', 'gr\u001eey', 'Red'), { minLength: 1, maxLength: 2 });
const NUMBERS = fc.array(fc.constantFrom<number | string>(1, 2, 10, -1.5, 0.25, -3, 0, 1234.5, '2.50', '-4', '10', 1e-7, 1e21), { minLength: 1, maxLength: 3 });
const FLAGS = fc.constantFrom<unknown[]>([true], [false], [true, false]);
const PARAM_VALUES: Record<string, fc.Arbitrary<unknown[]>> = {
  Color: TEXTS,
  Material: TEXTS,
  Weight: NUMBERS,
  Länge: NUMBERS,
  Flag: FLAGS,
  // Names and values with the stored facet tokens' separators (U+001F, U+001E) must still work.
  'Mat\u001fé': fc.oneof(TEXTS, NUMBERS),
  Size: fc.oneof(TEXTS, NUMBERS, FLAGS),
};
const params = fc.uniqueArray(
  fc.constantFrom(...Object.keys(PARAM_VALUES)).chain((name) =>
    fc.record({
      name: fc.constant(name),
      value: PARAM_VALUES[name],
      priority: fc.option(fc.integer({ min: -1, max: 3 }), { nil: undefined }),
      searchable: fc.option(fc.constant(false), { nil: undefined, freq: 5 }),
    }),
  ),
  { selector: (p) => p.name, maxLength: 4 },
);

/** A product id: mostly ASCII, some with an accent, some outside the BMP, some above the surrogates (orders differ there). */
export function productId(i: number): string {
  if (i % 7 === 3) return `pé${i}`;
  if (i % 7 === 5) return `p😀${i}`;
  if (i % 11 === 6) return `p\uff5e${i}`;
  return `p${String(i).padStart(2, '0')}`;
}

const offer = (locationIds: string[]) =>
  fc.record({
    location: fc.constantFrom(...locationIds),
    price: fc.option(fc.oneof(fc.constantFrom(3, 5, 50), price), { nil: undefined }),
    oldprice: fc.option(fc.oneof(fc.constantFrom(6, 60), price), { nil: undefined, freq: 3 }),
    discount_percent: discountPercent,
  });

export const productOf = (i: number, sizes: CatalogSizes) =>
  fc.record({
    id: fc.constant(productId(i)),
    group_id: fc.constantFrom(null, 'g0', 'g1', 'g2', ...(sizes.products > 24 ? ['g3', 'g😀4', `g${i % 40}`] : [])),
    price,
    oldprice,
    discount_percent: discountPercent,
    categories: fc.uniqueArray(fc.constantFrom(...Array.from({ length: sizes.categories }, (_, c) => `c${c}`), 'cx'), { maxLength: 2 }),
    brand: fc.constantFrom(null, ...BRANDS),
    merchant: fc.option(fc.uniqueArray(fc.constantFrom('M1', 'm2'), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 2 }),
    available: fc.boolean(),
    rating: fc.option(fc.constantFrom(1, 3.5, 5), { nil: undefined }),
    price_margin: fc.option(fc.constantFrom(0, 10, 50, 12.5), { nil: undefined }),
    creation_date: fc.option(fc.constantFrom('2026-01-01', '2026-03-05', '2025-12-31'), { nil: undefined }),
    name: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
    model: fc.option(fc.constantFrom('RX-1', 'Boot 2'), { nil: undefined }),
    params,
    fashion: fc.option(
      fc.record({ sizes: fc.array(fc.constantFrom('S', 's', 'M', 42), { maxLength: 2 }), colors: fc.array(fc.constantFrom('Red', 'red', 'Blue').map((color) => ({ color })), { maxLength: 2 }) }),
      { nil: undefined },
    ),
    book: fc.option(fc.record({ author: fc.constantFrom('Julia Child', 'Jules Verne', 'Лев Толстой') }), { nil: undefined }),
    locations: fc.option(fc.uniqueArray(offer(LOCATION_IDS(sizes.locations)), { selector: (o) => o.location, minLength: 1, maxLength: 3 }), { nil: undefined, freq: 2 }),
    salesRate: fc.constantFrom(0, 0, 1, 7, 7.5),
  });
export type GeneratedProduct = typeof productOf extends (...args: never[]) => fc.Arbitrary<infer T> ? T : never;

export type CatalogSizes = { products: number; minProducts?: number; categories: number; locations: number };
export const SMALL: CatalogSizes = { products: 24, categories: 6, locations: 4 };
export const LARGE: CatalogSizes = { products: 400, minProducts: 150, categories: 12, locations: 6 };

const tree = (prefix: string, size: number) =>
  fc.tuple(...Array.from({ length: size }, (_, i) => fc.option(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { nil: null }))).map((parents) =>
    parents.map((parent, i) => ({ id: `${prefix}${i}`, parent: i === 0 || parent === null ? null : `${prefix}${parent}` })),
  );

export const catalogOf = (sizes: CatalogSizes) =>
  fc.record({
    categories: tree('c', sizes.categories),
    locations: tree('l', sizes.locations),
    products: fc.integer({ min: sizes.minProducts ?? 0, max: sizes.products }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => productOf(i, sizes)))),
    // How rows hold their facet values: dictionary numbers (as imports store them), tokens (rows
    // stored before the dictionary existed, or backfilled), none (before either: read from `data`).
    storedFacets: fc.constantFrom('numbers', 'mixed', 'tokens', 'data'),
  });
export type GeneratedCatalog = typeof catalogOf extends (...args: never[]) => fc.Arbitrary<infer T> ? T : never;

// Each filter is left out three times in four, so many queries have one filter or none and
// large results (where counting a group once matters most).
const list = <T>(values: T[], max = 2) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant<T[]>([]) }, { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: max }) });

export const SEARCHES = ['red', 'sho', 'boot b', 'CREME', 'julia', 'acme', 'blu', 'r', 'STRAẞE', 'strasse', 'straß', 'istan', 'İSTANBUL', 'ёлк', 'ЕЛКА', 'ete', 'été', 'ılı', 'иогурт', 'red boot red', '--', 'лев', '😀', 'ΟΔΟΣ', 'οδοσ', 'οδος', 'ΔΡΟΜΟΣ'];

export const queryOf = (sizes: CatalogSizes) =>
  fc.record({
    categories: list([...Array.from({ length: Math.min(sizes.categories, 5) }, (_, c) => `c${c}`), 'cx', 'nope']),
    // Half the queries ask for locations: a product's price then comes from an offer there.
    locations: fc.oneof(fc.constant<string[]>([]), fc.uniqueArray(fc.constantFrom(...LOCATION_IDS(sizes.locations)), { minLength: 1, maxLength: 2 })),
    brands: list(['acme', 'BETA', 'gamma', 'nope', 'straße']),
    excludedBrands: list(['Acme', 'beta', '😀 smile']),
    merchants: list(['m1', 'M2']),
    excludedMerchants: list(['m2']),
    colors: list(['red', 'BLUE']),
    sizes: list(['s', 'M', '42']),
    exclude: list(['p00', 'p01', 'pé3', 'p😀5', 'p\uff5e6']),
    filters: fc.oneof(
      { weight: 2, arbitrary: fc.constant<[string, string[]][]>([]) },
      {
        weight: 1,
        arbitrary: fc.uniqueArray(fc.tuple(fc.constantFrom('Color', 'Size', 'Flag', 'Weight', 'Länge', 'Nope'), fc.array(fc.constantFrom('red', 'blue', '1', '10', 'true', 'false', '-1.5', '2.50', '0.25'), { minLength: 1, maxLength: 2 })), {
          selector: (f) => f[0],
          maxLength: 2,
        }),
      },
    ),
    priceMin: fc.option(fc.constantFrom(-3, 0, 5, 10, 99, 5.5, 19.99), { nil: null, freq: 3 }),
    priceMax: fc.option(fc.constantFrom(5, 50, 100, 99.99, 1000), { nil: null, freq: 3 }),
    discount: fc.constantFrom(null, null, true, false),
    available: fc.constantFrom(true, true, true, false),
    sortBy: fc.constantFrom<SortKey>('sales_rate', 'price', 'discount', 'date', 'price_margin', 'rating', 'relevance'),
    sortDir: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
    collapse: fc.boolean(),
    limit: fc.constantFrom(0, 1, 3, 24, ...(sizes.products > 24 ? [100, 1000] : [])),
    page: fc.constantFrom(1, 1, 2, 3),
    searchQuery: fc.option(fc.constantFrom(...SEARCHES), { nil: null, freq: 2 }),
    searchScope: fc.constantFrom<SearchField[]>([...SEARCH_FIELDS], ['name', 'brand', 'model', 'categories', 'params'], ['author', 'publisher', 'illustrator', 'editor', 'series'], ['params']),
  });
export type GeneratedQuery = typeof queryOf extends (...args: never[]) => fc.Arbitrary<infer T> ? T : never;

export function toQuery(shopId: string, q: GeneratedQuery): ListingQuery {
  const sortBy = q.sortBy === 'relevance' && !q.searchQuery ? 'sales_rate' : q.sortBy;
  return {
    ...q,
    sortBy,
    shopId,
    did: 'd',
    sid: 's',
    email: null,
    filters: new Map(q.filters),
    extended: null,
    debug: false,
    brandLimit: 1000,
    categoryLimit: 1000,
    filtersSearchBy: 'popularity',
    v2: false,
  };
}

/** The item a generated product is sent as. */
export function itemOf(product: GeneratedProduct): Record<string, unknown> {
  const { salesRate: _salesRate, ...item } = product;
  return { ...item, picture: 'https://cdn.example/x.jpg', url: `https://shop.example/${encodeURIComponent(item.id)}` };
}

/** A generated catalog stored for a new shop (`shopId`, else a made-up one inserted here). */
export async function loadCatalog(sql: Sql, value: GeneratedCatalog, shopId?: string): Promise<string> {
  const shop = shopId ?? `prop_${crypto.randomBytes(6).toString('hex')}`;
  if (!shopId) await sql`insert into shops (id, name, secret_hash, secret_sealed) values (${shop}, 'property', 'x', 'x')`;
  await sql.begin(async (tx) => {
    await applyTree(tx, shop, 'categories', 'replace', value.categories.map((c, i) => ({ ...c, name: CATEGORY_NAMES[i % CATEGORY_NAMES.length], url: `https://shop.example/c/${c.id}` })));
    await applyTree(tx, shop, 'locations', 'replace', value.locations.map((l) => ({ ...l, name: `Location ${l.id}` })));
    const outcome = await applyProducts(tx, shop, 'put', value.products.map(itemOf));
    if (outcome.rejected > 0) throw new Error(`generated items rejected: ${JSON.stringify(outcome.errors)}`);
    for (const item of value.products) await tx`update products set sales_rate = ${item.salesRate} where shop_id = ${shop} and id = ${item.id}`;
    // mixed: ids ending in an odd digit from data, in 2, 4 or 6 from tokens, the rest numbers.
    const { storedFacets } = value;
    if (storedFacets !== 'numbers') {
      await tx`update products set facet_values = null where shop_id = ${shop} and (${storedFacets !== 'mixed'} or right(id, 1) in ('1', '2', '3', '4', '5', '6', '7', '9'))`;
      await backfillFacets(tx as unknown as Sql, shop);
      await tx`update products set facets = null where shop_id = ${shop} and (${storedFacets === 'data'} or (${storedFacets === 'mixed'} and right(id, 1) in ('1', '3', '5', '7', '9')))`;
    }
  });
  return shop;
}

// An import after the first load: products sent again (changed) or new, an availability sync (all
// others out of stock), a removal.
export const changeOf = (sizes: CatalogSizes) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.uniqueArray(fc.nat(sizes.products + 4), { minLength: 1, maxLength: 8 }).chain((numbers) => fc.tuple(...numbers.map((i) => productOf(i, sizes)))).map((put) => ({ put })) },
    { weight: 2, arbitrary: fc.uniqueArray(fc.nat(sizes.products + 2).map(productId), { maxLength: sizes.products }).map((patch) => ({ patch })) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.nat(sizes.products).map(productId), { minLength: 1, maxLength: 4 }).map((remove) => ({ remove })) },
  );
export type Change = { put: GeneratedProduct[] } | { patch: string[] } | { remove: string[] };

/** The change committed; returns the catalog version it made. */
export async function applyChange(sql: Sql, shopId: string, change: Change): Promise<number> {
  return sql.begin(async (tx) => {
    const outcome =
      'put' in change ? await applyProducts(tx, shopId, 'put', change.put.map(itemOf)) : await applyAvailability(tx, shopId, 'patch' in change ? 'patch' : 'delete', 'patch' in change ? change.patch : change.remove);
    if (outcome.rejected > 0) throw new Error(`generated items rejected: ${JSON.stringify(outcome.errors)}`);
    const [{ version }] = await tx<{ version: number }[]>`select catalog_version::int as version from shops where id = ${shopId}`;
    return version;
  });
}

/** A property's runs: `base`, times LISTING_PROPERTY_SCALE when set (a longer hunt for discrepancies). */
export function propertyRuns(base: number): number {
  return Math.max(1, Math.round(base * Number(process.env.LISTING_PROPERTY_SCALE ?? 1)));
}
