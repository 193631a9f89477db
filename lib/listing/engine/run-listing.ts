import { type Bitset, DIM_CATEGORY, FIRST_PARAM_DIM, type ShopIndex, cardinality, idOf } from '../indexing';
import { type ListingQuery, MAX_DEPTH, type SortKey } from '../query';
import { countRanks } from './count-kernel';
import { Pick, cachedCounts, countFacets, countPass, countsKey, keepCounts } from './facet-counts';
import { type KeyOrder, type LocationShown, type Offered, locationBase, locationCounts, locationShown } from './location-only';
import { type Located, type Match, MERGE_LISTS_UP_TO, SCAN_OFFERS_FROM, hasValue, undo, matchQuery, locationsInStock } from './match';
import { type Walk, comparator, locationKeyed, orderedWalk, sortValues, unfilteredShown } from './order';
import { SORT_DIRECTLY_BELOW, firstInOrder, firstPositions, locationPage, offerOfDocument, offerSlot, offeredOf, statsOf, walkToPage, pagePrices } from './page';
import { finishInParallel, otherPostings, sharedFor, startInParallel } from './parallel-count';
import { type Effective, EngineResult, type FacetCounts, SearchHits, type Shown } from './types';
import { PARALLEL_FROM, type Work, keep, recall, workOf } from './work';

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
  work.parallelFrom = parallelFrom;
  work.paramDims = paramDims;
  const match = matchQuery(index, query, search, work.buffers, { scanOffersFrom, mergeListsUpTo, subtrees });
  const ordering = orderingOf(index, query, search, match, work, sortDirectlyBelow);
  // Facet counts (kept per filter set with the index), the result's size and price statistics
  // (kept per filter set and order), and the products in order up to the page's end.
  const counted = match.located ? countLocated(index, query, match.located, ordering, work) : countDocuments(index, query, match, ordering, work);
  const { shown, ordered, offered } = counted;

  const from = (query.page - 1) * query.limit;
  const page = from >= ordered.length ? new Int32Array(0) : ordered.slice(from, Math.min(ordered.length, from + query.limit));
  const { pagePrice, pageOldprice, pageDiscount, pageLocation } = pagePrices(index, page, match.effective, offered);
  const locations = locationsInStock(index, match.matched, match.mask, offered);
  const debug = query.debug ? debugRows(index, query, search, page, ordering.values, match.effective, offered) : null;
  const { counts, present, requests } = counted;
  return { total: shown.total, page, pagePrice, pageOldprice, pageDiscount, pageLocation, stats: shown.stats, counts, present, locations, requests, countsKey: ordering.key, debug };
}

/** The order stage's choices for one query: its sort keys, how its page is found, what is kept of it. */
type Ordering = {
  sortBy: SortKey;
  values: Float64Array; // the sort key by document (sortValues)
  size: number; // the matched documents
  key: string; // what the facet counts depend on (countsKey)
  shownKey: string; // what the result's size, statistics and sorted products depend on
  walk: Walk | null; // the kept order to read the page off, for results too large to sort
  shown: Shown | null; // the result's size and statistics, when kept
  pick: Pick | null; // when they are not kept: the counting pass picks each group's representative
};

function orderingOf(index: ShopIndex, query: ListingQuery, search: SearchHits | null, match: Match, work: Work, sortDirectlyBelow: number): Ordering {
  const { effective, matched, narrowed, selections } = match;
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
  const shown = unfiltered ? unfilteredShown(index, sortBy, query.sortDir) : recall((index.memo.shown ??= new Map()), shownKey);
  const pick: Pick | null =
    !shown && collapse
      ? { values, valuesByRank: valuesByRank(sortBy, effective), sign: query.sortDir === 'asc' ? 1 : -1, idRank: index.idRank, positionOfRank: walk?.positionOfRank ?? null, positions: work.positions, reps: work.repSet, count: 0, done: false }
      : null;
  return { sortBy, values, size, key, shownKey, walk, shown: shown ?? null, pick };
}

type Counted = FacetCounts & { shown: Shown; ordered: Int32Array; offered: Offered | null };

/** How many products in order the page needs: none past MAX_DEPTH. */
function pageEnd(query: ListingQuery, total: number): number {
  return query.page * query.limit > MAX_DEPTH ? 0 : Math.min(total, query.page * query.limit);
}

function keepShown(index: ShopIndex, ordering: Ordering, shown: Shown): Shown {
  keep((index.memo.shown ??= new Map()), ordering.shownKey, shown, 256);
  return shown;
}

/**
 * Locations and nothing else that narrows (location-only.ts): the result is the offered products.
 * The counts are started (on the other thread too, for many documents) while this thread finds
 * the result's products, then finished.
 */
function countLocated(index: ShopIndex, query: ListingQuery, located: Located, ordering: Ordering, work: Work): Counted {
  const { sortBy, values, key } = ordering;
  const collapse = query.collapse;
  const known = cachedCounts(index, key);
  const location = locationBase(index, query.available);
  const offered = offeredOf(index, located, query.available, sortBy, work.buffers);
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
    result = locationShown(index, location, offered, collapse, `${sortBy}:${query.sortDir}`, byOrder, keyOrder, !locationKeyed(sortBy), work.buffers);
  } finally {
    if (finishCounts) all = finishCounts(); // whatever happened: the worker is free again
  }
  let facets: FacetCounts;
  if (all) {
    facets = { counts: all.subarray(0, index.valueKey.length), present: all.subarray(index.valueKey.length), requests: 1 };
    keepCounts(index, key, facets);
  } else facets = known!;
  const shown = ordering.shown ?? keepShown(index, ordering, { total: result.total, stats: result.stats });
  const want = pageEnd(query, shown.total);
  const ordered = want === 0 ? new Int32Array(0) : locationPage(index, result, byOrder, locationKeyed(sortBy) ? keyOrder : null, want);
  return { counts: facets.counts, present: facets.present, requests: facets.requests, shown, ordered, offered };
}

/**
 * Every other query: the dimensions without a selection counted over the result, each selected
 * one apart (disjunctive), "products with this param" over the result; then one product per
 * group (its best-ranked variant) when collapsing, every matching one otherwise, its size and
 * price statistics from them without walking the order.
 */
function countDocuments(index: ShopIndex, query: ListingQuery, match: Match, ordering: Ordering, work: Work): Counted {
  const { base, narrowed, selections, matched, effective } = match;
  const { values, key, shownKey, walk, pick } = ordering;
  const collapse = query.collapse;
  const known = cachedCounts(index, key);
  const { counts, present, requests } = known ?? countFacets(index, query, base, narrowed, selections, matched, pick);
  if (!known) keepCounts(index, key, { counts, present, requests });
  let shown = ordering.shown;
  if (!shown) {
    let total = ordering.size;
    let reps: Bitset = matched;
    if (pick) {
      if (!pick.done) countPass(index, matched, true, null, pick); // the counts were kept: pick alone
      reps = pick.reps;
      total = pick.count;
    }
    shown = keepShown(index, ordering, { total, stats: statsOf(index, reps, total, effective, work) });
  }
  const want = pageEnd(query, shown.total);
  // The page: the first representatives along the kept order when the pick marked their
  // positions; otherwise found by sorting (small results) or by walking the kept order.
  let ordered: Int32Array;
  if (want === 0) ordered = new Int32Array(0);
  else if (pick && walk) ordered = firstPositions(walk.order, pick.positions, want);
  else if (walk) ordered = walkToPage(index, walk, matched, collapse, want);
  else {
    // Sorted: kept per filter set and order, as far as a page has needed (the next page of a
    // small result is not sorted again).
    const sorted = (index.memo.sorted ??= new Map());
    const kept = recall(sorted, shownKey);
    if (kept && kept.length >= want) ordered = kept;
    else {
      ordered = firstInOrder(index, pick ? pick.reps : matched, collapse && !pick, comparator(index, values, query.sortDir), want);
      keep(sorted, shownKey, ordered, 256);
    }
  }
  if (pick) {
    pick.reps.fill(0);
    if (walk) pick.positions.fill(0);
  }
  return { counts, present, requests, shown, ordered, offered: null };
}

/** `debug=true`: per page product its sort key and what matched it. */
function debugRows(index: ShopIndex, query: ListingQuery, search: SearchHits | null, page: Int32Array, values: Float64Array, effective: Effective, offered: Offered | null): EngineResult['debug'] {
  const filters = filterNames(query);
  return Array.from(page, (doc) => {
    const offer = offered ? offerOfDocument(index, offered, doc) : -1;
    const value = offer >= 0 && offered!.keys ? offered!.keys[offerSlot(index, offered!, doc)] : values[doc];
    const matchedBy: Record<string, unknown> = { filters: [...filters] };
    if (query.categories.length) matchedBy.categories = query.categories.filter((id) => hasValue(index, doc, DIM_CATEGORY, id));
    if (offer >= 0) matchedBy.location = index.locations[index.offerLocation[offer]].id;
    else if (effective.offerLocation && effective.offerLocation[doc] >= 0) matchedBy.location = index.locations[effective.offerLocation[doc]].id;
    if (search) matchedBy.search_score = search.score[doc];
    return { id: idOf(index, doc), sort_by: query.sortBy, sort_key: Number.isNaN(value) ? null : value, matched: matchedBy };
  });
}
