import { type Bitset, DIM_CATEGORY, FIRST_PARAM_DIM, type ShopIndex, cardinality, idOf } from '../indexing';
import { type ListingQuery, MAX_DEPTH } from '../query';
import { countRanks } from './count-kernel';
import { Pick, cachedCounts, countFacets, countPass, countsKey, keepCounts } from './facet-counts';
import { type KeyOrder, type LocationShown, type Offered, locationBase, locationCounts, locationShown } from './location-only';
import { MERGE_LISTS_UP_TO, SCAN_OFFERS_FROM, hasValue, undo, matchQuery, locationsInStock } from './match';
import { comparator, locationKeyed, orderedWalk, sortValues, unfilteredShown } from './order';
import { SORT_DIRECTLY_BELOW, firstInOrder, firstPositions, locationPage, offerOfDocument, offerSlot, offeredOf, statsOf, walkToPage, pagePrices } from './page';
import { finishInParallel, otherPostings, sharedFor, startInParallel } from './parallel-count';
import { type Effective, EngineResult, SearchHits } from './types';
import { PARALLEL_FROM, keep, recall, workOf } from './work';

// The listing engine: one query over one shop's immutable index, synchronously. Filters become
// bitsets; facets are counted over the whole result, each selected dimension disjunctively (with
// every filter but its own); variants collapse to their best-ranked one in the current order.

/**
 * Drops what queries kept with the index (the benchmark's cold runs): facet counts, result sizes,
 * sorted results, location offers and the location prices left written. Kept: what the index is
 * built or warmed with (orders, the default base counts, the figures for locations alone).
 */
export function forgetKept(index: ShopIndex): void {
  const { memo } = index;
  memo.facetCounts = undefined;
  memo.shown = undefined;
  memo.sorted = undefined;
  memo.located = undefined;
  const { scratch } = memo;
  if (scratch?.written) undo(index, scratch, scratch.written);
  if (scratch) {
    scratch.written = null;
    scratch.appliedKey = null;
  }
}

/** The sort keys by rank, when the location prices keep them so (sortValues's `values` are by document). */
function valuesByRank(sortBy: string, effective: Effective): Float64Array | null {
  if (sortBy === 'price') return effective.priceByRank ?? null;
  if (sortBy === 'discount') return effective.discountByRank ?? null;
  return null;
}

export function filterNames(query: ListingQuery): string[] {
  const names: string[] = [];
  if (query.available) names.push('available');
  if (query.categories.length) names.push('categories');
  if (query.locations.length) names.push('locations');
  if (query.brands.length) names.push('brands');
  if (query.excludedBrands.length) names.push('excluded_brands');
  if (query.merchants.length) names.push('merchants');
  if (query.excludedMerchants.length) names.push('excluded_merchants');
  if (query.colors.length) names.push('colors');
  if (query.sizes.length) names.push('fashion_sizes');
  if (query.priceMin !== null) names.push('price_min');
  if (query.priceMax !== null) names.push('price_max');
  if (query.discount !== null) names.push('discount');
  if (query.exclude.length) names.push('exclude');
  if (query.searchQuery) names.push('search_query');
  for (const name of query.filters.keys()) names.push(`filters.${name}`);
  return names;
}

/** Whether a query asks for locations and nothing else that narrows its result (see location-only.ts). */
/**
 * `sortDirectlyBelow`: results up to this size are sorted, larger ones read off the kept order;
 * `parallelFrom`: sets of this many documents are counted on two threads (tests set 0 for both);
 * `scanOffersFrom`: see SCAN_OFFERS_FROM (tests set 0 and 2: always and never); `mergeListsUpTo`: see
 * MERGE_LISTS_UP_TO (tests set 0 too: never); `paramDims`: see CountTask.multi (tests set false
 * too: the excess counted value by value, as with more than 64 param dimensions); `subtrees`: a
 * location and those below it take the index's offers for them (tests set false too: found as any
 * other set of locations).
 */
export function runListing(
  index: ShopIndex,
  query: ListingQuery,
  search: SearchHits | null,
  { sortDirectlyBelow = SORT_DIRECTLY_BELOW, parallelFrom = PARALLEL_FROM, scanOffersFrom = SCAN_OFFERS_FROM, mergeListsUpTo = MERGE_LISTS_UP_TO, paramDims = true, subtrees = true } = {},
): EngineResult {
  const work = workOf(index);
  const { buffers } = work;
  work.parallelFrom = parallelFrom;
  work.paramDims = paramDims;
  const { base, narrowed, selections, matched, effective, mask, located } = matchQuery(index, query, search, buffers, { scanOffersFrom, mergeListsUpTo, subtrees });

  // The order, and what is kept of this filter set in it: the result's size and price statistics
  // depend on the filters and the order (which variant stands for a group).
  const sortBy = query.sortBy;
  const values = sortValues(index, sortBy, effective, search);
  const collapse = query.collapse;
  const key = countsKey(query);
  const shownKey = `${key}|${sortBy}|${query.sortDir}`;
  const size = cardinality(matched);
  const locationDependent = sortBy === 'relevance' || ((sortBy === 'price' || sortBy === 'discount') && effective.price !== index.price);
  // Small results are sorted; larger ones (~size·log(size) comparisons) are read off a kept order.
  const walk = locationDependent || size <= sortDirectlyBelow ? null : orderedWalk(index, sortBy, query.sortDir);
  const unfiltered = walk && !narrowed && selections.size === 0 && collapse && query.available;
  let shown = unfiltered ? unfilteredShown(index, sortBy, query.sortDir) : recall((index.memo.shown ??= new Map()), shownKey);
  // When they are not kept, the pass that counts the result also picks each group's representative.
  const pick: Pick | null =
    !shown && collapse
      ? { values, valuesByRank: valuesByRank(sortBy, effective), sign: query.sortDir === 'asc' ? 1 : -1, idRank: index.idRank, positionOfRank: walk?.positionOfRank ?? null, positions: work.positions, reps: work.repSet, count: 0, done: false }
      : null;

  // Facet counts: the dimensions without a selection over the result, each selected one apart
  // (disjunctive); "products with this param" always over the result. They depend on the filters
  // only (not on the order or the page): kept per filter set with the index.
  const known = cachedCounts(index, key);
  let counts: Int32Array;
  let present: Int32Array;
  let requests: number;
  let ordered: Int32Array;
  let offered: Offered | null = null;
  if (located) {
    const location = locationBase(index, query.available);
    offered = offeredOf(index, located, query.available, sortBy, buffers);
    // The counts are started (on the other thread too, for many documents) while this thread
    // finds the result's products, then finished.
    const finishCounts = known
      ? null
      : locationCounts(
          index,
          location,
          offered.ranks,
          collapse,
          work.ranks,
          (set, alone, out) => countPass(index, set, alone, out),
          (task, documents) => {
            // Collapsing counts the new values (see location-only.ts); otherwise the index's postings.
            const other = collapse ? otherPostings(location.newOffsets, location.newValues) : null;
            const started = documents >= work.parallelFrom ? startInParallel(task, (work.shared ??= sharedFor(index, work.ranks, FIRST_PARAM_DIM)), other) : null;
            return started ? () => void finishInParallel(started) : () => void countRanks(task);
          },
        );
    const byOrder = orderedWalk(index, sortBy, query.sortDir);
    const keyOrder: KeyOrder = { values, sign: query.sortDir === 'asc' ? 1 : -1, idRank: index.idRank };
    let result: LocationShown;
    let all: Int32Array | null = null;
    try {
      result = locationShown(index, location, offered, collapse, `${sortBy}:${query.sortDir}`, byOrder, keyOrder, !locationKeyed(sortBy), buffers);
    } finally {
      if (finishCounts) all = finishCounts(); // whatever happened: the worker is free again
    }
    if (all) {
      counts = all.subarray(0, index.valueKey.length);
      present = all.subarray(index.valueKey.length);
      requests = 1;
      keepCounts(index, key, { counts, present, requests });
    } else ({ counts, present, requests } = known!);
    if (!shown) {
      shown = { total: result.total, stats: result.stats };
      keep((index.memo.shown ??= new Map()), shownKey, shown, 256);
    }
    const want = query.page * query.limit > MAX_DEPTH ? 0 : Math.min(shown.total, query.page * query.limit);
    const byOffers = locationKeyed(sortBy);
    ordered = want === 0 ? new Int32Array(0) : locationPage(index, result, byOrder, byOffers ? keyOrder : null, want);
  } else {
    ({ counts, present, requests } = known ?? countFacets(index, query, base, narrowed, selections, matched, pick));
    if (!known) keepCounts(index, key, { counts, present, requests });
    // The result: one product per group (its best-ranked variant) when collapsing, every matching
    // one otherwise; its size and price statistics from them, without walking the order.
    if (!shown) {
      let total = size;
      let reps: Bitset = matched;
      if (pick) {
        if (!pick.done) countPass(index, matched, true, null, pick); // the counts were kept: pick alone
        reps = pick.reps;
        total = pick.count;
      }
      shown = { total, stats: statsOf(index, reps, total, effective, work) };
      keep((index.memo.shown ??= new Map()), shownKey, shown, 256);
    }
    const want = query.page * query.limit > MAX_DEPTH ? 0 : Math.min(shown.total, query.page * query.limit);
    // The page: the first representatives along the kept order when the pick marked their
    // positions; otherwise found by sorting (small results) or by walking the kept order.
    if (want === 0) ordered = new Int32Array(0);
    else if (pick && walk) ordered = firstPositions(walk.order, pick.positions, want);
    else if (walk) ordered = walkToPage(index, walk, matched, collapse, want);
    else {
      // Sorted: kept per filter set and order, as far as a page has needed (the next page of a
      // small result is not sorted again).
      const sorted = (index.memo.sorted ??= new Map());
      const known = recall(sorted, shownKey);
      if (known && known.length >= want) ordered = known;
      else {
        ordered = firstInOrder(index, pick ? pick.reps : matched, collapse && !pick, comparator(index, values, query.sortDir), want);
        keep(sorted, shownKey, ordered, 256);
      }
    }
    if (pick) {
      pick.reps.fill(0);
      if (walk) pick.positions.fill(0);
    }
  }
  const total = shown.total;

  const from = (query.page - 1) * query.limit;
  const page = from >= ordered.length ? new Int32Array(0) : ordered.slice(from, Math.min(ordered.length, from + query.limit));
  const { pagePrice, pageOldprice, pageDiscount, pageLocation } = pagePrices(index, page, effective, offered);
  const offerOf = (doc: number) => (offered ? offerOfDocument(index, offered, doc) : -1);

  const locations = locationsInStock(index, matched, mask, offered);

  const debug = query.debug
    ? Array.from(page, (doc) => {
        const offer = offerOf(doc);
        const value = offer >= 0 && offered!.keys ? offered!.keys[offerSlot(index, offered!, doc)] : values[doc];
        const matchedBy: Record<string, unknown> = { filters: filterNames(query) };
        if (query.categories.length) matchedBy.categories = query.categories.filter((id) => hasValue(index, doc, DIM_CATEGORY, id));
        if (offer >= 0) matchedBy.location = index.locations[index.offerLocation[offer]].id;
        else if (effective.offerLocation && effective.offerLocation[doc] >= 0) matchedBy.location = index.locations[effective.offerLocation[doc]].id;
        if (search) matchedBy.search_score = search.score[doc];
        return { id: idOf(index, doc), sort_by: sortBy, sort_key: Number.isNaN(value) ? null : value, matched: matchedBy };
      })
    : null;

  return { total, page, pagePrice, pageOldprice, pageDiscount, pageLocation, stats: shown.stats, counts, present, locations, requests, countsKey: key, debug };
}
