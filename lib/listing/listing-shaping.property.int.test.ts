import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { applyChange, catalogOf, propertyRuns, changeOf, loadCatalog, queryOf, type CatalogSizes, type GeneratedQuery } from '@/lib/testing/listing-arbitraries';
import { storeIndexAt } from '@/lib/testing/listing-compare';
import { loadReferenceCatalog, referenceResponse, type ReferenceCatalog, type ReferenceResponse } from '@/lib/testing/listing-reference';
import { dropIndexes } from './index-store';
import { listProducts } from './listing';
import { parseListingQuery } from './query';

// The whole answer of GET /products as listing.ts shapes it (statistics, products, categories,
// brands, industrial_filters, filters in their order with numeric ranges, limits) against the
// reference, from the request's parameters, before and after imports that patch or rebuild the
// shop's index in the index store.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  dropIndexes();
  await database?.close();
});

const SIZES: CatalogSizes = { products: 80, categories: 8, locations: 4 };

const shaping = fc.record({
  brandLimit: fc.constantFrom(0, 1, 2, 1000),
  categoryLimit: fc.constantFrom(0, 1, 3, 1000),
  filtersSearchBy: fc.constantFrom('popularity', 'name', 'quantity'),
  extended: fc.boolean(),
});
type Shaping = typeof shaping extends fc.Arbitrary<infer T> ? T : never;

/** The request's parameters, as a storefront sends them. */
function paramsOf(shopId: string, q: GeneratedQuery, shape: Shaping): Map<string, string> {
  const params = new Map<string, string>([
    ['shop_id', shopId],
    ['did', 'd'],
    ['sid', 's'],
    ['sort_dir', q.sortDir],
    ['collapse', String(q.collapse)],
    ['available', String(q.available)],
    ['limit', String(q.limit)],
    ['page', String(q.page)],
    ['brand_limit', String(shape.brandLimit)],
    ['category_limit', String(shape.categoryLimit)],
    ['filters_search_by', shape.filtersSearchBy],
    ['extended', String(shape.extended)],
    ['search_scope', q.searchScope.join(',')],
  ]);
  const lists: [string, string[]][] = [
    ['categories', q.categories],
    ['locations', q.locations],
    ['brands', q.brands],
    ['excluded_brands', q.excludedBrands],
    ['merchants', q.merchants],
    ['excluded_merchants', q.excludedMerchants],
    ['colors', q.colors],
    ['fashion_sizes', q.sizes],
    ['exclude', q.exclude],
  ];
  for (const [name, values] of lists) if (values.length) params.set(name, values.join(','));
  if (q.filters.length) params.set('filters', JSON.stringify(Object.fromEntries(q.filters)));
  if (q.priceMin !== null) params.set('price_min', String(q.priceMin));
  if (q.priceMax !== null) params.set('price_max', String(q.priceMax));
  if (q.discount !== null) params.set('discount', String(q.discount));
  if (q.searchQuery) params.set('search_query', q.searchQuery);
  if (q.sortBy !== 'relevance' || q.searchQuery) params.set('sort_by', q.sortBy);
  return params;
}

type Answer = {
  products_total: number;
  price_range: ReferenceResponse['price_range'];
  price_ranges: ReferenceResponse['price_ranges'];
  price_median: number;
  products: (string | { id: string })[];
  categories: { id: string; count: number }[];
  brands: { name: string; count: number }[];
  industrial_filters: ReferenceResponse['industrial_filters'];
  filters: Record<string, { count: number; priority: number; values: Record<string, number>; ranges?: { min: number; max: number } }>;
  locations: { id: string }[];
};

/** What is compared of an answer: filters and their values as entries, in the order a JSON client reads them. */
function comparableAnswer(answer: Answer) {
  return {
    products_total: answer.products_total,
    price_range: answer.price_range,
    price_ranges: answer.price_ranges,
    price_median: answer.price_median,
    products: answer.products.map((p) => (typeof p === 'string' ? p : p.id)),
    categories: answer.categories.map(({ id, count }) => ({ id, count })),
    brands: answer.brands.map(({ name, count }) => ({ name, count })),
    industrial_filters: answer.industrial_filters,
    filters: Object.entries(answer.filters).map(([name, f]) => [name, { count: f.count, priority: f.priority, values: Object.entries(f.values), ...(f.ranges ? { ranges: f.ranges } : {}) }]),
    locations: answer.locations.map((l) => l.id),
  };
}

/** The reference's blocks written as the listing writes JSON objects (keys that are array indexes first). */
function expectedAnswer(reference: ReferenceCatalog, params: Map<string, string>) {
  const expected = referenceResponse(reference, parseListingQuery(params));
  const filters = Object.fromEntries(expected.filters.map(([name, f]) => [name, { ...f, values: Object.fromEntries(f.values) }]));
  return comparableAnswer({ ...expected, products: expected.products, locations: expected.locations.map((id) => ({ id })), filters });
}

async function answerOf(params: Map<string, string>): Promise<Answer> {
  const parts = await listProducts(database.ctx, { params, origin: 'http://localhost' });
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Answer;
}

it('shapes every answer as the reference does, before and after patches and rebuilds', { timeout: 300_000 }, async () => {
  const sql = database.ctx.sql;
  let cases = 0;
  let refreshed = 0;
  await fc.assert(
    fc.asyncProperty(
      catalogOf(SIZES),
      fc.array(changeOf(SIZES), { maxLength: 2 }),
      fc.array(fc.tuple(queryOf(SIZES), shaping), { minLength: 8, maxLength: 8 }),
      async (generated, changes, queries) => {
        const { shop_id: shopId } = await createTestShop(database.ctx);
        await loadCatalog(sql, { ...generated, storedFacets: 'numbers' }, shopId);
        for (const change of [null, ...changes]) {
          if (change) {
            await storeIndexAt(sql, shopId, await applyChange(sql, shopId, change));
            refreshed++;
          }
          const reference = await loadReferenceCatalog(sql, shopId);
          for (const [q, shape] of queries) {
            const params = paramsOf(shopId, q, shape);
            // The same request twice: the second answer's blocks come from what the index kept.
            for (let i = 0; i < 2; i++) {
              expect(comparableAnswer(await answerOf(params)), JSON.stringify(Object.fromEntries(params))).toEqual(expectedAnswer(reference, params));
              cases++;
            }
          }
        }
      },
    ),
    { numRuns: propertyRuns(20), endOnFailure: true },
  );
  expect(refreshed).toBeGreaterThan(5);
  expect(cases).toBeGreaterThan(320);
});
