import type { Sql } from 'postgres';
import { expect } from 'vitest';
import { idOf, type ShopIndex } from '@/lib/listing/indexing';
import { runListing } from '@/lib/listing/engine';
import { catalogChanged, indexFor } from '@/lib/listing/index-store';
import type { ListingQuery } from '@/lib/listing/query';
import { buildSearchIndex, searchDocuments } from '@/lib/listing/search';
import { referenceListing, type ReferenceAnswer, type ReferenceCatalog } from './listing-reference';

// The engine's answer in the reference's terms, and the loop the property tests run: each query
// through the engine's ways of answering it, against the reference.

export function engineAnswer(index: ShopIndex, result: ReturnType<typeof runListing>): ReferenceAnswer {
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

export function comparable(answer: ReferenceAnswer) {
  const facets = Object.fromEntries(Object.entries(answer.facets).filter(([, values]) => Object.keys(values).length > 0));
  const present = Object.fromEntries(Object.entries(answer.present).filter(([, count]) => count > 0));
  return { ...answer, facets, present };
}

/**
 * Each query, its next page, then the query again (the later answers come partly or wholly from
 * what the index kept), against the reference; returns the answers compared. The queries take the
 * engine's ways in turn: half read every result off the kept orders, as large results are (the
 * others sort their results, as small ones are); half, across those, count on two threads, as
 * large sets are; and across those, half find location offers by a pass over every offer, half
 * through each location's list (merged, or, for half of those, gathered through a bitset of
 * ranks). From the 17th on, a group's excess value is counted value by value instead of by its
 * param dimensions (as with more than 64 of them). A third find one location's offers as any
 * other set's, not from the index's per location and below.
 */
export async function compareQueries(sql: Sql, index: ShopIndex, reference: ReferenceCatalog, queries: ListingQuery[]): Promise<number> {
  const words = queries.some((q) => q.searchQuery) ? await buildSearchIndex(sql, index) : null;
  let cases = 0;
  for (const [n, first] of queries.entries()) {
    const ways = {
      subtrees: n % 3 !== 0,
      sortDirectlyBelow: n % 2 === 0 ? 0 : undefined,
      parallelFrom: (n >> 1) % 2 === 0 ? 0 : undefined,
      scanOffersFrom: (n >> 2) % 2 === 0 ? 0 : 2,
      mergeListsUpTo: (n >> 3) % 2 === 0 ? 0 : undefined,
      paramDims: n < 16,
    };
    for (const q of [first, { ...first, page: first.page + 1 }, first]) {
      const hits = q.searchQuery ? searchDocuments(index, words!, q.searchQuery, q.searchScope) : null;
      const engine = comparable(engineAnswer(index, runListing(index, q, hits, ways)));
      const expected = comparable(referenceListing(reference, q));
      expect(engine, JSON.stringify({ ...q, filters: [...q.filters], page: q.page })).toEqual(expected);
      // Kept sorted results own their bytes (a view would hold the whole set it was cut from).
      for (const sorted of index.memo.sorted?.values() ?? []) {
        expect(sorted.buffer.byteLength).toBe(sorted.byteLength);
      }
      cases++;
    }
  }
  return cases;
}

/** The index store's index of the shop once it has caught up with `version` (as a storefront's next read gets it). */
export async function storeIndexAt(sql: Sql, shopId: string, version: number): Promise<ShopIndex> {
  for (let waited = 0; waited < 30_000; waited += 5) {
    const index = await indexFor(sql, shopId);
    if (index.version >= version) return index;
    catalogChanged(shopId, version);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the index of ${shopId} did not reach version ${version}`);
}
