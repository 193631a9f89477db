import crypto from 'node:crypto';
import fc from 'fast-check';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyProducts } from '@/lib/catalog/apply-products';
import { backfillFacets } from '@/lib/catalog/backfill-facets';
import { applyTree } from '@/lib/catalog/apply-tree';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { loadReferenceCatalog, referenceListing, type ReferenceAnswer } from '@/lib/testing/listing-reference';
import { buildIndex, idOf, type ShopIndex } from './build-index';
import { runListing } from './engine';
import type { ListingQuery, SortKey } from './query';
import { buildSearchIndex } from './search';
import { SEARCH_FIELDS, type SearchField } from './search-text';
import { searchDocuments } from './search';

// Random catalogs and random queries: the engine must give exactly the reference's answer
// (ids, order, totals, every facet count, price statistics, locations).

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const CATEGORY_NAMES = ['Shoes', 'Boots', 'Books', 'Hats', 'Crème', 'Socks'];
const WORDS = ['red', 'running', 'shoe', 'Brûlée', 'winter', 'boot', 'book', 'hat'];
const BRANDS = ['Acme', 'acme', 'Beta', ' Gamma '];

const tree = (prefix: string, size: number) =>
  fc.tuple(...Array.from({ length: size }, (_, i) => fc.option(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { nil: null }))).map((parents) =>
    parents.map((parent, i) => ({ id: `${prefix}${i}`, parent: i === 0 || parent === null ? null : `${prefix}${parent}` })),
  );

const params = fc.uniqueArray(
  fc.record({
    // Names and values with the stored facet tokens' separators (U+001F, U+001E) must still work.
    name: fc.constantFrom('Color', 'Size', 'Flag', 'Material', 'Mat\u001fé'),
    value: fc.oneof(fc.array(fc.constantFrom('red', 'blue', 'green', 'gr\u001eey'), { minLength: 1, maxLength: 2 }), fc.array(fc.constantFrom(1, 2, 10), { minLength: 1, maxLength: 2 }), fc.constant([true])),
    priority: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    searchable: fc.option(fc.constant(false), { nil: undefined, freq: 5 }),
  }),
  { selector: (p) => p.name, maxLength: 3 },
);

const product = (i: number) =>
  fc.record({
    id: fc.constant(i % 7 === 3 ? `pé${i}` : `p${String(i).padStart(2, '0')}`),
    group_id: fc.constantFrom(null, 'g0', 'g1', 'g2'),
    price: fc.constantFrom(1, 5, 5.5, 10, 99.99, 100, 250),
    oldprice: fc.constantFrom(null, null, 10, 120, 300),
    categories: fc.uniqueArray(fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'cx'), { maxLength: 2 }),
    brand: fc.constantFrom(null, ...BRANDS),
    merchant: fc.option(fc.uniqueArray(fc.constantFrom('M1', 'm2'), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 2 }),
    available: fc.boolean(),
    rating: fc.option(fc.constantFrom(1, 3.5, 5), { nil: undefined }),
    price_margin: fc.option(fc.constantFrom(0, 10, 50), { nil: undefined }),
    creation_date: fc.option(fc.constantFrom('2026-01-01', '2026-03-05', '2025-12-31'), { nil: undefined }),
    name: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
    model: fc.option(fc.constantFrom('RX-1', 'Boot 2'), { nil: undefined }),
    params,
    fashion: fc.option(
      fc.record({ sizes: fc.array(fc.constantFrom('S', 's', 'M', 42), { maxLength: 2 }), colors: fc.array(fc.constantFrom('Red', 'red', 'Blue').map((color) => ({ color })), { maxLength: 2 }) }),
      { nil: undefined },
    ),
    book: fc.option(fc.record({ author: fc.constantFrom('Julia Child', 'Jules Verne') }), { nil: undefined }),
    locations: fc.option(
      fc.uniqueArray(fc.record({ location: fc.constantFrom('l0', 'l1', 'l2', 'l3', 'lx'), price: fc.option(fc.constantFrom(3, 5, 50), { nil: undefined }) }), { selector: (o) => o.location, minLength: 1, maxLength: 3 }),
      { nil: undefined, freq: 2 },
    ),
    salesRate: fc.constantFrom(0, 0, 1, 7, 7.5),
  });

const catalog = fc.record({
  categories: tree('c', 6),
  locations: tree('l', 4),
  products: fc.integer({ min: 0, max: 24 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => product(i)))),
  // How rows hold their facet values: dictionary numbers (as imports store them), tokens (rows
  // stored before the dictionary existed, or backfilled), none (before either: read from `data`).
  storedFacets: fc.constantFrom('numbers', 'mixed', 'tokens', 'data'),
});

// Each filter is left out three times in four, so many queries have one filter or none and
// large results (where counting a group once matters most).
const list = <T>(values: T[], max = 2) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant<T[]>([]) }, { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: max }) });

const query = fc.record({
  categories: list(['c0', 'c1', 'c2', 'c3', 'cx', 'nope']),
  // Half the queries ask for locations: a product's price then comes from an offer there.
  locations: fc.oneof(fc.constant<string[]>([]), fc.uniqueArray(fc.constantFrom('l0', 'l1', 'l2', 'l3', 'lx'), { minLength: 1, maxLength: 2 })),
  brands: list(['acme', 'BETA', 'gamma', 'nope']),
  excludedBrands: list(['Acme', 'beta']),
  merchants: list(['m1', 'M2']),
  excludedMerchants: list(['m2']),
  colors: list(['red', 'BLUE']),
  sizes: list(['s', 'M', '42']),
  exclude: list(['p00', 'p01', 'pé3']),
  filters: fc.oneof(
    { weight: 2, arbitrary: fc.constant<[string, string[]][]>([]) },
    { weight: 1, arbitrary: fc.uniqueArray(fc.tuple(fc.constantFrom('Color', 'Size', 'Flag', 'Nope'), fc.array(fc.constantFrom('red', 'blue', '1', '10', 'true'), { minLength: 1, maxLength: 2 })), { selector: (f) => f[0], maxLength: 2 }) },
  ),
  priceMin: fc.option(fc.constantFrom(0, 5, 10, 99), { nil: null, freq: 3 }),
  priceMax: fc.option(fc.constantFrom(5, 50, 100), { nil: null, freq: 3 }),
  discount: fc.constantFrom(null, null, true, false),
  available: fc.constantFrom(true, true, true, false),
  sortBy: fc.constantFrom<SortKey>('sales_rate', 'price', 'discount', 'date', 'price_margin', 'rating', 'relevance'),
  sortDir: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  collapse: fc.boolean(),
  limit: fc.constantFrom(0, 1, 3, 24),
  page: fc.constantFrom(1, 1, 2, 3),
  searchQuery: fc.option(fc.constantFrom('red', 'sho', 'boot b', 'CREME', 'julia', 'acme', 'blu', 'r'), { nil: null, freq: 2 }),
  searchScope: fc.constantFrom<SearchField[]>([...SEARCH_FIELDS], ['name', 'brand', 'model', 'categories', 'params'], ['author', 'publisher', 'illustrator', 'editor', 'series'], ['params']),
});
type GeneratedQuery = typeof query extends fc.Arbitrary<infer T> ? T : never;
type GeneratedCatalog = typeof catalog extends fc.Arbitrary<infer T> ? T : never;

function toQuery(shopId: string, q: GeneratedQuery): ListingQuery {
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

function engineAnswer(index: ShopIndex, result: ReturnType<typeof runListing>): ReferenceAnswer {
  const facets: Record<string, Record<string, number>> = { category: {}, brand: {}, color: {}, size: {} };
  const present: Record<string, number> = {};
  result.counts.forEach((count, value) => {
    if (count === 0) return;
    const dim = index.dims[index.valueDim[value]];
    const name = dim.param ? `param:${dim.key}` : dim.key;
    (facets[name] ??= {})[index.valueKey[value]] = count;
  });
  index.dims.forEach((dim, d) => {
    if (dim.param && result.present[d] > 0) present[dim.key] = result.present[d];
  });
  return {
    ids: Array.from(result.page, (doc) => idOf(index, doc)),
    shown: Array.from(result.page, (_, i) => ({
      price: result.pagePrice[i],
      oldprice: Number.isNaN(result.pageOldprice[i]) ? null : result.pageOldprice[i],
      discount: result.pageDiscount[i],
      location: result.pageLocation[i] >= 0 ? index.locations[result.pageLocation[i]].id : null,
    })),
    total: result.total,
    facets,
    present,
    stats: result.stats,
    locations: result.locations.map((l) => index.locations[l].id).sort(),
  };
}

function comparable(answer: ReferenceAnswer) {
  const facets = Object.fromEntries(Object.entries(answer.facets).filter(([, values]) => Object.keys(values).length > 0));
  const present = Object.fromEntries(Object.entries(answer.present).filter(([, count]) => count > 0));
  return { ...answer, facets, present };
}

/** A query for locations with no other filter. */
function locationsAloneQuery(shopId: string, q: Pick<GeneratedQuery, 'locations' | 'sortBy' | 'sortDir' | 'collapse' | 'available' | 'limit' | 'page'>): ListingQuery {
  const none = { categories: [], brands: [], excludedBrands: [], merchants: [], excludedMerchants: [], colors: [], sizes: [], exclude: [], filters: [] as [string, string[]][] };
  return toQuery(shopId, { ...q, ...none, priceMin: null, priceMax: null, discount: null, searchQuery: null, searchScope: [...SEARCH_FIELDS] });
}

async function loadCatalog(value: GeneratedCatalog): Promise<string> {
  const shopId = `prop_${crypto.randomBytes(6).toString('hex')}`;
  const sql = database.ctx.sql;
  await sql`insert into shops (id, name, secret_hash, secret_sealed) values (${shopId}, 'property', 'x', 'x')`;
  await sql.begin(async (tx) => {
    await applyTree(tx, shopId, 'categories', 'replace', value.categories.map((c, i) => ({ ...c, name: CATEGORY_NAMES[i], url: `https://shop.example/c/${c.id}` })));
    await applyTree(tx, shopId, 'locations', 'replace', value.locations.map((l) => ({ ...l, name: `Location ${l.id}` })));
    const items = value.products.map(({ salesRate: _salesRate, ...item }) => ({ ...item, picture: 'https://cdn.example/x.jpg', url: `https://shop.example/${item.id}` }));
    await applyProducts(tx, shopId, 'put', items);
    for (const item of value.products) await tx`update products set sales_rate = ${item.salesRate} where shop_id = ${shopId} and id = ${item.id}`;
    // mixed: ids ending in an odd digit from data, in 2, 4 or 6 from tokens, the rest numbers.
    const { storedFacets } = value;
    if (storedFacets !== 'numbers') {
      await tx`update products set facet_values = null where shop_id = ${shopId} and (${storedFacets !== 'mixed'} or right(id, 1) in ('1', '2', '3', '4', '5', '6', '7', '9'))`;
      await backfillFacets(tx as unknown as Sql, shopId);
      await tx`update products set facets = null where shop_id = ${shopId} and (${storedFacets === 'data'} or (${storedFacets === 'mixed'} and right(id, 1) in ('1', '3', '5', '7', '9')))`;
    }
  });
  return shopId;
}

/** A generated catalog loaded, its index, and the reference's rows of it. */
async function loaded(value: GeneratedCatalog) {
  const shopId = await loadCatalog(value);
  const index = await buildIndex(database.ctx.sql, shopId);
  return { shopId, index, reference: await loadReferenceCatalog(database.ctx.sql, shopId) };
}

it('answers every generated query exactly as the reference does', { timeout: 300_000 }, async () => {
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(catalog, fc.array(query, { minLength: 30, maxLength: 30 }), async (generated, queries) => {
      const { shopId, index, reference } = await loaded(generated);
      const words = await buildSearchIndex(database.ctx.sql, index);
      for (const [n, generatedQuery] of queries.entries()) {
        // Half the queries read every result off the kept orders, as large results are (the
        // others sort their results, as small ones are); half, across those, count on two
        // threads, as large sets are; and across those, half find location offers by a pass over
        // every offer, half through each location's list (merged, or, for half of those,
        // gathered through a bitset of ranks). The last 14 count a group's excess value by
        // value instead of by its param dimensions (as with more than 64 of them). A third find
        // one location's offers as any other set's, not from the index's per location and below.
        const subtrees = n % 3 !== 0;
        const sortDirectlyBelow = n % 2 === 0 ? 0 : undefined;
        const parallelFrom = (n >> 1) % 2 === 0 ? 0 : undefined;
        const scanOffersFrom = (n >> 2) % 2 === 0 ? 0 : 2;
        const mergeListsUpTo = (n >> 3) % 2 === 0 ? 0 : undefined;
        const paramDims = n < 16;
        // Each query, its next page, then the query again: the later answers come partly or wholly
        // from what the index kept.
        const first = toQuery(shopId, generatedQuery);
        for (const q of [first, { ...first, page: generatedQuery.page + 1 }, first]) {
          const hits = q.searchQuery ? searchDocuments(index, words, q.searchQuery, q.searchScope) : null;
          const engine = comparable(engineAnswer(index, runListing(index, q, hits, { sortDirectlyBelow, parallelFrom, scanOffersFrom, mergeListsUpTo, paramDims, subtrees })));
          const expected = comparable(referenceListing(reference, q));
          expect(engine, JSON.stringify({ ...generatedQuery, page: q.page })).toEqual(expected);
          // Kept sorted results own their bytes (a view would hold the whole set it was cut from).
          for (const sorted of ((index.cache.get('sorted') as Map<string, Int32Array> | undefined) ?? new Map<string, Int32Array>()).values()) {
            expect(sorted.buffer.byteLength).toBe(sorted.byteLength);
          }
          cases++;
        }
      }
    }),
    // No shrinking: each step would rebuild a catalog in PostgreSQL; the failing query is in the message.
    { numRuns: Number(process.env.LISTING_PROPERTY_RUNS ?? 100), endOnFailure: true },
  );
  expect(cases).toBeGreaterThanOrEqual(6000);
});

// Every product with two to four offers, at prices that often tie: a query for locations alone
// must price each product by its cheapest offer there, ties going to the lowest location id, and
// show that offer's location (through either way of finding the offers).
const offers = fc.uniqueArray(fc.record({ location: fc.constantFrom('l0', 'l1', 'l2', 'l3', 'lx'), price: fc.option(fc.constantFrom(3, 5), { nil: undefined }) }), {
  selector: (o) => o.location,
  minLength: 2,
  maxLength: 4,
});
const offeredCatalog = catalog.chain((generated) =>
  fc.tuple(...generated.products.map(() => offers)).map((lists) => ({ ...generated, products: generated.products.map((p, i) => ({ ...p, locations: lists[i] })) })),
);
const locationQuery = fc.record({
  locations: fc.uniqueArray(fc.constantFrom('l0', 'l1', 'l2', 'l3', 'lx'), { minLength: 1, maxLength: 2 }),
  sortBy: fc.constantFrom<SortKey>('price', 'sales_rate', 'discount'),
  sortDir: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  collapse: fc.boolean(),
  available: fc.boolean(),
});

it('prices by the cheapest offer in the asked locations, ties going to the lowest location id', { timeout: 120_000 }, async () => {
  let shown = 0;
  await fc.assert(
    fc.asyncProperty(offeredCatalog, fc.array(locationQuery, { minLength: 10, maxLength: 10 }), async (generated, queries) => {
      const { shopId, index, reference } = await loaded(generated);
      for (const [n, generatedQuery] of queries.entries()) {
        const q = locationsAloneQuery(shopId, { ...generatedQuery, limit: 24, page: 1 });
        const engine = comparable(engineAnswer(index, runListing(index, q, null, { scanOffersFrom: n % 2 === 0 ? 0 : 2, mergeListsUpTo: (n >> 1) % 2 === 0 ? 0 : undefined, subtrees: n % 3 !== 0 })));
        expect(engine, JSON.stringify(generatedQuery)).toEqual(comparable(referenceListing(reference, q)));
        shown += engine.shown.filter((product) => product.location !== null).length;
      }
    }),
    { numRuns: 30, endOnFailure: true },
  );
  expect(shown).toBeGreaterThan(500);
});

// Locations and nothing else (answered from what the index keeps: location-only.ts), over the
// general catalogs, where a variant group often mixes products with offers and without.
const locationOnlyQuery = fc.record({
  locations: fc.uniqueArray(fc.constantFrom('l0', 'l1', 'l2', 'l3', 'lx', 'nope'), { minLength: 1, maxLength: 2 }),
  sortBy: fc.constantFrom<SortKey>('sales_rate', 'price', 'discount', 'date', 'price_margin', 'rating'),
  sortDir: fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
  collapse: fc.boolean(),
  available: fc.constantFrom(true, true, false),
  limit: fc.constantFrom(0, 1, 3, 24),
  page: fc.constantFrom(1, 1, 2, 3),
});

it('answers queries for locations alone exactly as the reference does', { timeout: 300_000 }, async () => {
  let mixed = 0;
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(catalog, fc.array(locationOnlyQuery, { minLength: 20, maxLength: 20 }), async (generated, queries) => {
      const { shopId, index, reference } = await loaded(generated);
      const groups = new Map<string, Set<boolean>>();
      for (const p of generated.products) if (p.group_id) groups.set(p.group_id, (groups.get(p.group_id) ?? new Set()).add(p.locations !== undefined));
      if ([...groups.values()].some((kinds) => kinds.size === 2)) mixed++;
      for (const [n, generatedQuery] of queries.entries()) {
        const first = locationsAloneQuery(shopId, generatedQuery);
        // The query, its next page, then the query again (partly from what the index kept).
        for (const q of [first, { ...first, page: first.page + 1 }, first]) {
          const engine = comparable(engineAnswer(index, runListing(index, q, null, { parallelFrom: n % 2 === 0 ? 0 : undefined, scanOffersFrom: (n >> 1) % 2 === 0 ? 0 : 2, mergeListsUpTo: (n >> 2) % 2 === 0 ? 0 : undefined, subtrees: n % 3 !== 0 })));
          expect(engine, JSON.stringify({ ...generatedQuery, page: q.page })).toEqual(comparable(referenceListing(reference, q)));
          cases++;
        }
      }
    }),
    { numRuns: 60, endOnFailure: true },
  );
  expect(cases).toBe(3600);
  expect(mixed).toBeGreaterThan(20);
});
