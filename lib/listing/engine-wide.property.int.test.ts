import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { applyChange, catalogOf, propertyRuns, changeOf, LARGE, loadCatalog, productOf, queryOf, SMALL, toQuery, type CatalogSizes, type GeneratedCatalog, type GeneratedProduct } from '@/lib/testing/listing-arbitraries';
import { compareQueries, storeIndexAt } from '@/lib/testing/listing-compare';
import { loadReferenceCatalog } from '@/lib/testing/listing-reference';
import { buildIndex, rebuildIndex } from './indexing';
import { dropIndexes } from './index-store';

// The engine against the reference beyond small fresh builds: catalogs of hundreds of products,
// indexes brought up to date after imports (availability patched, or rebuilt from the previous
// index and the changed rows), and a shop with enough facet values for 32-bit postings.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  dropIndexes();
  await database?.close();
});

it('answers queries over catalogs of hundreds of products exactly as the reference does', { timeout: 300_000 }, async () => {
  const sql = database.ctx.sql;
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(catalogOf(LARGE), fc.array(queryOf(LARGE), { minLength: 24, maxLength: 24 }), async (generated, queries) => {
      const shopId = await loadCatalog(sql, generated);
      const index = await buildIndex(sql, shopId);
      cases += await compareQueries(sql, index, await loadReferenceCatalog(sql, shopId), queries.map((q) => toQuery(shopId, q)));
    }),
    { numRuns: propertyRuns(6), endOnFailure: true },
  );
  expect(cases).toBe(propertyRuns(6) * 24 * 3);
});

it('answers as the reference after availability patches, removals and incremental rebuilds', { timeout: 300_000 }, async () => {
  const sql = database.ctx.sql;
  const sizes: CatalogSizes = { ...SMALL, products: 60 };
  const kinds = { patched: 0, rebuilt: 0 };
  let cases = 0;
  await fc.assert(
    // Rows with facet values as text tokens (storedFacets other than numbers) make the next build a full one: mostly numbers here.
    fc.asyncProperty(catalogOf(sizes).chain((g) => fc.constantFrom('numbers', 'numbers', 'numbers', g.storedFacets).map((storedFacets) => ({ ...g, storedFacets }))), fc.array(changeOf(sizes), { minLength: 1, maxLength: 4 }), fc.array(queryOf(sizes), { minLength: 6, maxLength: 6 }), async (generated, changes, queries) => {
      const shopId = await loadCatalog(sql, generated);
      let index = await storeIndexAt(sql, shopId, 0);
      let direct = index;
      for (const change of changes) {
        const version = await applyChange(sql, shopId, change);
        index = await storeIndexAt(sql, shopId, version);
        if (index.buildSteps.includes('patched')) kinds.patched++;
        if (index.buildSteps.includes('replayed')) kinds.rebuilt++;
        // The builder's own incremental rebuild, from the previous one (whatever the store did).
        direct = (await rebuildIndex(sql, direct)) ?? (await buildIndex(sql, shopId));
        if (direct.buildSteps.includes('replayed')) kinds.rebuilt++;
        const reference = await loadReferenceCatalog(sql, shopId);
        const asked = queries.map((q) => toQuery(shopId, q));
        cases += await compareQueries(sql, index, reference, asked);
        cases += await compareQueries(sql, direct, reference, asked);
      }
    }),
    { numRuns: propertyRuns(15), endOnFailure: true },
  );
  expect(kinds.patched).toBeGreaterThan(3);
  expect(kinds.rebuilt).toBeGreaterThan(3);
  expect(cases).toBeGreaterThan(500);
});

// Postings are 16-bit while a shop's facet values and dimensions are fewer than 65,536
// (build-index.ts, layoutTask's `narrow`); a shop with more takes 32-bit postings (and 32-bit token
// numbers: its dictionary is as large). Serial numbers, many per product, make it so.
const SERIALS = 66_000;

it('answers with 32-bit postings exactly as the reference does', { timeout: 300_000 }, async () => {
  const sql = database.ctx.sql;
  let cases = 0;
  const serialQueries = fc.array(
    queryOf(LARGE).chain((q) => fc.option(fc.constantFrom('s-0-0', 's-7-3', 's-150-219', 'nope'), { nil: undefined }).map((serial) => ({ ...q, filters: serial ? [...q.filters, ['Serial', [serial]] as [string, string[]]] : q.filters }))),
    { minLength: 6, maxLength: 6 },
  );
  await fc.assert(
    fc.asyncProperty(catalogOf({ ...LARGE, minProducts: 300, products: 300 }), serialQueries, fc.array(productOf(7, LARGE), { minLength: 1, maxLength: 1 }), async (generated, queries, changed) => {
      // Each product's own serial numbers; the first few products share some.
      const perProduct = Math.ceil(SERIALS / generated.products.length);
      const withSerials = (p: GeneratedProduct, i: number): GeneratedProduct => ({
        ...p,
        params: [...p.params, { name: 'Serial', value: Array.from({ length: perProduct }, (_, k) => (i < 4 && k < 3 ? `s-shared-${k}` : `s-${i}-${k}`)), priority: undefined, searchable: undefined }],
      });
      // Numbers, as imports store them: rows with text tokens would make the rebuild a full build.
      const catalog: GeneratedCatalog = { ...generated, storedFacets: 'numbers', products: generated.products.map(withSerials) };
      const shopId = await loadCatalog(sql, catalog);
      const index = await buildIndex(sql, shopId);
      expect(index.postings).toBeInstanceOf(Int32Array);
      const asked = queries.map((q) => toQuery(shopId, q));
      cases += await compareQueries(sql, index, await loadReferenceCatalog(sql, shopId), asked);
      // And rebuilt from it after one product changed (its serials replaced).
      await applyChange(sql, shopId, { put: [withSerials({ ...changed[0], id: catalog.products[7].id }, 1000)] });
      const rebuilt = (await rebuildIndex(sql, index))!;
      expect(rebuilt.buildSteps).toContain('replayed');
      expect(rebuilt.postings).toBeInstanceOf(Int32Array);
      cases += await compareQueries(sql, rebuilt, await loadReferenceCatalog(sql, shopId), asked);
    }),
    { numRuns: propertyRuns(2), endOnFailure: true },
  );
  expect(cases).toBe(propertyRuns(2) * 12 * 3);
});
