import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { catalogOf, loadCatalog, propertyRuns, queryOf, SMALL, toQuery, type GeneratedCatalog, type GeneratedQuery } from '@/lib/testing/listing-arbitraries';
import { comparable, compareQueries, engineAnswer } from '@/lib/testing/listing-compare';
import { loadReferenceCatalog, referenceListing } from '@/lib/testing/listing-reference';
import { buildIndex } from './indexing';
import { runListing } from './engine';
import type { ListingQuery, SortKey } from './query';
import { SEARCH_FIELDS } from './search-text';

// Random catalogs and random queries: the engine must give exactly the reference's answer
// (ids, order, totals, every facet count, price statistics, locations).

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const catalog = catalogOf(SMALL);
const query = queryOf(SMALL);

/** A query for locations with no other filter. */
function locationsAloneQuery(shopId: string, q: Pick<GeneratedQuery, 'locations' | 'sortBy' | 'sortDir' | 'collapse' | 'available' | 'limit' | 'page'>): ListingQuery {
  const none = { categories: [], brands: [], excludedBrands: [], merchants: [], excludedMerchants: [], colors: [], sizes: [], exclude: [], filters: [] as [string, string[]][] };
  return toQuery(shopId, { ...q, ...none, priceMin: null, priceMax: null, discount: null, searchQuery: null, searchScope: [...SEARCH_FIELDS] });
}

/** A generated catalog loaded, its index, and the reference's rows of it. */
async function loaded(value: GeneratedCatalog) {
  const shopId = await loadCatalog(database.ctx.sql, value);
  const index = await buildIndex(database.ctx.sql, shopId);
  return { shopId, index, reference: await loadReferenceCatalog(database.ctx.sql, shopId) };
}

it('answers every generated query exactly as the reference does', { timeout: 300_000 }, async () => {
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(catalog, fc.array(query, { minLength: 30, maxLength: 30 }), async (generated, queries) => {
      const { shopId, index, reference } = await loaded(generated);
      cases += await compareQueries(database.ctx.sql, index, reference, queries.map((q) => toQuery(shopId, q)));
    }),
    // No shrinking: each step would rebuild a catalog in PostgreSQL; the failing query is in the message.
    { numRuns: Number(process.env.LISTING_PROPERTY_RUNS ?? propertyRuns(100)), endOnFailure: true },
  );
  expect(cases).toBeGreaterThanOrEqual(6000);
});

// Every product with two to four offers, at prices that often tie: a query for locations alone
// must price each product by its cheapest offer there, ties going to the lowest location id, and
// show that offer's location (through either way of finding the offers).
const offers = fc.uniqueArray(
  fc.record({
    location: fc.constantFrom('l0', 'l1', 'l2', 'l3', 'lx'),
    price: fc.option(fc.constantFrom(3, 5), { nil: undefined }),
    // The offer's own oldprice and discount are shown with its price.
    oldprice: fc.option(fc.constantFrom(4.5, 6, 10), { nil: undefined }),
    discount_percent: fc.option(fc.constantFrom(0, 12.5, -5), { nil: undefined }),
  }),
  {
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
    { numRuns: propertyRuns(30), endOnFailure: true },
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
    { numRuns: propertyRuns(60), endOnFailure: true },
  );
  expect(cases).toBe(propertyRuns(60) * 60);
  expect(mixed).toBeGreaterThan(20);
});
