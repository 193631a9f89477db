import { add, addRange, cardinality, emptySet, fullSet, has, intersectInto, subtractInto, type Bitset, DIM_BRAND, DIM_CATEGORY, DIM_COLOR, DIM_SIZE, docOf, FIRST_PARAM_DIM, foldCase, idOf, type ShopIndex, sortInTurns, cheaper, cheapestOffers } from './indexing';
import { priceStats, priceStatsOfSet, type PriceStats } from './price-stats';
import { clearMulti, countRanks, PLANES, presenceFromExcess, type CountTask } from './count-kernel';
import { countInParallel, finishInParallel, otherPostings, sharedFor, startInParallel, type Shared } from './parallel-count';
import { baseCounts as locationBaseCounts, before, locationBase, locationCounts, locationShown, representatives, type KeyOrder, type LocationShown, type Offered } from './location-only';
import { MAX_DEPTH, type ListingQuery, type SortKey } from './query';
import { Buffers } from './buffers';

// The listing engine: one query over one shop's immutable index, synchronously. Filters become
// bitsets; facets are counted over the whole result, each selected dimension disjunctively (with
// every filter but its own); variants collapse to their best-ranked one in the current order.

/** Results up to this size are sorted directly; larger ones are read off the index's sorted order. */
export const SORT_DIRECTLY_BELOW = 4096;

/**
 * Locations holding at least this share of a shop's offers are found by one pass over every offer
 * (in document order); fewer, through each location's list. At 1,000,000 products (1,832,140
 * offers), the pass took 8.7 ms, the lists 7.0 ms for a city with 6.7 % of the offers.
 */
export const SCAN_OFFERS_FROM = 1 / 12;

/** Up to this many locations' lists of offers are merged; more are gathered through a bitset of ranks. */
export const MERGE_LISTS_UP_TO = 4;

/** How locations' offers are found (the defaults above; tests force each way). */
type LocateWay = { scanOffersFrom: number; mergeListsUpTo: number; subtrees: boolean };
const DEFAULT_WAY: LocateWay = { scanOffersFrom: SCAN_OFFERS_FROM, mergeListsUpTo: MERGE_LISTS_UP_TO, subtrees: true };

/** Sets of at least this many documents are counted on two threads (a handoff costs ~0.1 ms). */
export const PARALLEL_FROM = 20_000;

export type SearchHits = { set: Bitset; score: Float64Array };

export type DimCounts = { counts: Int32Array; present: Int32Array };

export type EngineResult = {
  total: number;
  page: Int32Array;
  // Price, oldprice (NaN: none) and discount each page product is shown with.
  pagePrice: Float64Array;
  pageOldprice: Float64Array;
  pageDiscount: Float64Array;
  pageLocation: Int32Array; // the location of the offer that priced it, or -1
  stats: PriceStats | null;
  counts: Int32Array; // per facet value: products (groups) of the result with it, disjunctive per dimension
  present: Int32Array; // per dimension: products (groups) with any value of it
  locations: number[];
  requests: number;
  countsKey: string; // what the counts depend on (countsKey)
  debug: { id: string; sort_by: SortKey; sort_key: number | null; matched: Record<string, unknown> }[] | null;
};

export type Effective = { price: Float64Array; oldprice: Float64Array; discount: Float64Array; offerLocation: Int32Array | null };

/** The documents with any of `values`; `into`: an array of the index's set size to write them in (cleared first), else made. */
export function union(index: ShopIndex, values: (number | undefined)[], into?: Bitset): Bitset {
  const set = into ? into.fill(0) : emptySet(index.n);
  for (const value of values) {
    if (value === undefined) continue;
    for (let p = index.invOffsets[value]; p < index.invOffsets[value + 1]; p++) add(set, index.invDocs[p]);
  }
  return set;
}

export function docsSet(n: number, lists: (Int32Array | undefined)[]): Bitset {
  const set = emptySet(n);
  for (const docs of lists) if (docs) for (let i = 0; i < docs.length; i++) add(set, docs[i]);
  return set;
}

/** The document with this id as a one-element list, or undefined. */
export function idDocs(index: ShopIndex, id: string): Int32Array | undefined {
  const doc = docOf(index, id);
  return doc === undefined ? undefined : Int32Array.of(doc);
}

/** Location numbers the query asks for, each with every location below it. */
export function locationMask(index: ShopIndex, ids: string[]): Uint8Array {
  const mask = new Uint8Array(index.locations.length);
  for (const id of ids) {
    const number = index.locationByKey.get(id);
    if (number === undefined) continue;
    for (const below of index.locationDescendants[number]) mask[below] = 1;
  }
  return mask;
}

export type Scratch = {
  price: Float64Array;
  oldprice: Float64Array;
  discount: Float64Array;
  best: Int32Array; // by rank, all -1 between calls: locate's work
  offerLocation: Int32Array;
  // The set of locations whose offer prices are written in, and its key: left in place after a
  // query, so the next query for the same locations (the usual case: a store's shoppers) writes
  // nothing; undone when another set is asked for.
  applied: Located | null;
  appliedKey: string | null;
};

/** Per-index buffers for location prices: the base prices with one location set's offers over them. */
function scratchOf(index: ShopIndex): Scratch {
  let scratch = index.memo.scratch;
  if (!scratch) {
    // Prices and discounts in shared memory: the counting worker picks representatives by them.
    const sharedCopy = (column: Float64Array) => {
      const copy = new Float64Array(new SharedArrayBuffer(column.byteLength));
      copy.set(column);
      return copy;
    };
    scratch = {
      price: sharedCopy(index.price),
      oldprice: index.oldprice.slice(),
      discount: sharedCopy(index.discount),
      best: new Int32Array(index.n).fill(-1),
      offerLocation: new Int32Array(index.n).fill(-1),
      applied: null,
      appliedKey: null,
    };
    index.memo.scratch = scratch;
  }
  return scratch;
}

/**
 * With `locations`: the documents in stock in one of them (every document without offers, and those
 * with an offer there), each priced by its cheapest such offer (ties: the lowest location id).
 * The prices are valid until the next call with other locations.
 */
export function locationFilter(index: ShopIndex, mask: Uint8Array, way = DEFAULT_WAY): { set: Bitset; effective: Effective } {
  const scratch = scratchOf(index);
  // Which offer prices each document depends on the locations only: kept per set of locations.
  const key = mask.join('');
  let located = scratch.appliedKey === key ? scratch.applied : null;
  if (!located) {
    if (scratch.applied) undo(index, scratch, scratch.applied.offers);
    scratch.applied = null;
    scratch.appliedKey = null;
    located = locatedFor(index, mask, scratch.best, way);
    const { offers } = located;
    for (let i = 0; i < offers.length; i++) {
      const doc = index.groupOrder[index.offerRank[offers[i]]];
      const offer = offers[i];
      scratch.price[doc] = index.offerPrice[offer];
      scratch.oldprice[doc] = index.offerOldprice[offer];
      scratch.discount[doc] = index.offerDiscount[offer];
      scratch.offerLocation[doc] = index.offerLocation[offer];
    }
    scratch.applied = located;
    scratch.appliedKey = key;
  }
  return { set: locatedSet(index, located).slice(), effective: { price: scratch.price, oldprice: scratch.oldprice, discount: scratch.discount, offerLocation: scratch.offerLocation } };
}

/** The documents in stock in the masked locations and their offers (locate's), kept per set of locations. */
function locatedFor(index: ShopIndex, mask: Uint8Array, best: Int32Array, way: LocateWay): Located {
  const key = mask.join('');
  const kept = (index.memo.located ??= new Map());
  let located = recall(kept, key);
  if (!located) {
    located = locate(index, mask, best, way);
    keep(kept, key, located, 16);
  }
  return located;
}

function undo(index: ShopIndex, scratch: Scratch, offers: Int32Array): void {
  for (const offer of offers) {
    const doc = index.groupOrder[index.offerRank[offer]];
    scratch.price[doc] = index.price[doc];
    scratch.oldprice[doc] = index.oldprice[doc];
    scratch.discount[doc] = index.discount[doc];
    scratch.offerLocation[doc] = -1;
  }
}

/**
 * The documents in stock in some locations: for those with offers there the offer pricing each, by
 * their documents' ranks, ascending (an offer's rank is `offerRank[offer]`), and all of them as a
 * set, made when first asked for (`locatedSet`: a query for locations alone does not need it).
 */
export type Located = { set: Bitset | null; offers: Int32Array };

/** Every document in stock in a located set of locations: those without offers, and those with one there. */
function locatedSet(index: ShopIndex, located: Located): Bitset {
  if (!located.set) {
    const { groupOrder, offerRank } = index;
    const { offers } = located;
    const set = index.withoutOffers.slice();
    for (let i = 0; i < offers.length; i++) {
      const doc = groupOrder[offerRank[offers[i]]];
      set[doc >>> 5] |= 1 << (doc & 31);
    }
    located.set = set;
  }
  return located.set;
}

/**
 * The documents in stock in the masked locations, and the offer pricing each one that has offers,
 * in rank order (as counting visits them). One location and those below it: the index has them
 * (ShopIndex.subtreeOffers). Otherwise, offers are numbered in rank order: when the masked
 * locations hold a good share of them, one pass over every offer finds them in order; otherwise
 * each masked location's list (in rank order too) is read: a few lists merged, more through a
 * bitset of the ranks found, read in order.
 */
function locate(index: ShopIndex, mask: Uint8Array, best: Int32Array, { scanOffersFrom, mergeListsUpTo, subtrees }: LocateWay): Located {
  const root = subtrees ? subtreeRoot(index, mask) : -1;
  const kept = root >= 0 ? index.subtreeOffers[root] : null;
  if (kept) return { set: null, offers: kept };
  const { offerPrice, offerRank, offerLocation, locationOfferOffsets } = index;
  const offerCount = offerRank.length;
  let masked = 0;
  for (let location = 0; location < mask.length; location++) if (mask[location]) masked += locationOfferOffsets[location + 1] - locationOfferOffsets[location];
  // What is kept owns its bytes; the arrays it is made in (the scan's, the merges', the bitset's)
  // are the index's buffers: garbage outside the heap brings collections for "external memory
  // pressure" in the middle of queries.
  const { buffers } = workOf(index);
  let offers: Int32Array;
  if (masked >= offerCount * scanOffersFrom) {
    const chosen = buffers.int32('chosen offers', masked);
    let count = 0;
    let lastRank = -1;
    for (let offer = 0; offer < offerCount; offer++) {
      if (!mask[offerLocation[offer]]) continue;
      const rank = offerRank[offer];
      if (rank === lastRank) {
        if (cheaper(offerPrice, offer, chosen[count - 1])) chosen[count - 1] = offer;
      } else {
        lastRank = rank;
        chosen[count++] = offer;
      }
    }
    offers = chosen.slice(0, count);
  } else if (listsOf(index, mask).length <= mergeListsUpTo) {
    // The few lists merged, each in rank order: one pass each, front to back (one list is
    // itself: a view of the index's).
    const [first = new Int32Array(0), ...rest] = listsOf(index, mask);
    offers = first;
    for (let i = 0; i < rest.length; i++) {
      const into = buffers.int32(i % 2 === 0 ? 'merged offers' : 'merged offers too', offers.length + rest[i].length);
      offers = mergeOffers(index, offers, rest[i], into);
    }
    if (rest.length > 0) offers = offers.slice();
  } else {
    // `best` (by rank) is all -1, and left so. The ranks found are marked in a bitset, read in order.
    const locations: number[] = [];
    mask.forEach((on, location) => on && locations.push(location));
    offers = cheapestOffers(index, locations, best, buffers.uint32('found ranks', (index.n + 31) >>> 5).fill(0));
  }
  return { set: null, offers };
}

/** The location whose subtree (itself and every location below it) is exactly the masked ones, or -1. */
function subtreeRoot(index: ShopIndex, mask: Uint8Array): number {
  let masked = 0;
  let root = -1;
  for (let location = 0; location < mask.length; location++) {
    if (!mask[location]) continue;
    masked++;
    if (root < 0 || index.locationDescendants[location].length > index.locationDescendants[root].length) root = location;
  }
  if (root < 0 || index.locationDescendants[root].length !== masked) return -1;
  return index.locationDescendants[root].every((location) => mask[location] === 1) ? root : -1;
}

/** The masked locations' lists of offers that are not empty. */
function listsOf(index: ShopIndex, mask: Uint8Array): Int32Array[] {
  const { locationOfferOffsets, locationOffers } = index;
  const lists: Int32Array[] = [];
  for (let location = 0; location < mask.length; location++) {
    if (mask[location] && locationOfferOffsets[location + 1] > locationOfferOffsets[location]) {
      lists.push(locationOffers.subarray(locationOfferOffsets[location], locationOfferOffsets[location + 1]));
    }
  }
  return lists;
}

/**
 * Two lists of offers by rank (ascending, at most one offer a rank) merged into `out` (room for
 * both): a rank in both keeps the cheaper offer (on a tie the lower location id: a document's
 * offers are numbered in the order of their locations' ids).
 */
function mergeOffers(index: ShopIndex, offers: Int32Array, list: Int32Array, out: Int32Array): Int32Array {
  const { offerRank, offerPrice } = index;
  let i = 0;
  let j = 0;
  let count = 0;
  while (i < offers.length && j < list.length) {
    const mine = offers[i];
    const theirs = list[j];
    const rank = offerRank[mine];
    const otherRank = offerRank[theirs];
    if (rank < otherRank) {
      out[count++] = mine;
      i++;
    } else if (otherRank < rank) {
      out[count++] = theirs;
      j++;
    } else {
      out[count++] = cheaper(offerPrice, theirs, mine) ? theirs : mine;
      i++;
      j++;
    }
  }
  while (i < offers.length) out[count++] = offers[i++];
  while (j < list.length) out[count++] = list[j++];
  return out.subarray(0, count);
}

function lowerBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The documents priced from `min` to `max`; `into`: as union's. */
export function priceFilter(index: ShopIndex, effective: Effective, min: number | null, max: number | null, into?: Bitset): Bitset {
  const set = into ? into.fill(0) : emptySet(index.n);
  if (effective.price === index.price) {
    // Documents are numbered by base price: the filter is one range.
    const from = min === null ? 0 : lowerBound(index.price, min);
    const to = max === null ? index.n : upperBound(index.price, max);
    addRange(set, from, to);
    return set;
  }
  const prices = effective.price;
  for (let doc = 0; doc < index.n; doc++) {
    const price = prices[doc];
    if ((min === null || price >= min) && (max === null || price <= max)) set[doc >>> 5] |= 1 << (doc & 31);
  }
  return set;
}

/** The documents with (or without) a discount: not to be changed (it may be kept with the index). */
export function discountFilter(index: ShopIndex, effective: Effective, wanted: boolean): Bitset {
  if (effective.discount === index.discount) {
    // Base discounts do not change with the query: one set per index and answer.
    let cached = index.memo.discountSets.get(wanted);
    if (!cached) {
      cached = discountSet(index, index.discount, wanted);
      index.memo.discountSets.set(wanted, cached);
    }
    return cached;
  }
  return discountSet(index, effective.discount, wanted);
}

function discountSet(index: ShopIndex, discounts: Float64Array, wanted: boolean): Bitset {
  const set = emptySet(index.n);
  for (let doc = 0; doc < index.n; doc++) {
    if (discounts[doc] > 0 === wanted) set[doc >>> 5] |= 1 << (doc & 31);
  }
  return set;
}

/** Calls `visit(doc)` for each document of `set`, in document order. */
export function forEachDocument(set: Bitset, visit: (doc: number) => void): void {
  for (let w = 0; w < set.length; w++) {
    let bits = set[w];
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      visit((w << 5) + 31 - Math.clz32(low));
    }
  }
}

/**
 * Buffers of the size of the catalog that every query needs, kept with the index instead of being
 * allocated per query (at a million products they would otherwise make ~5 MB of garbage a query
 * and frequent full collections). Queries run synchronously, one at a time, so one set is enough.
 */
// `ranks` in shared memory (the counting worker reads it); `prices`: made when a query with
// locations first needs it (8 MB at a million products); `buffers`: the rest, each made when a
// query first needs it; `parallelFrom`: the query's.
export type Work = {
  ranks: Bitset;
  buffers: Buffers;
  repSet: Bitset;
  positions: Bitset;
  prices: Float64Array | null;
  groupStamp: Int32Array;
  mark: number;
  shared?: Shared | null;
  parallelFrom: number;
  paramDims: boolean; // count a group with several documents in a set by its param dimensions (CountTask.multi)
};

function workOf(index: ShopIndex): Work {
  let work = index.memo.work;
  if (!work) {
    work = {
      ranks: new Uint32Array(new SharedArrayBuffer(4 * ((index.n + 31) >>> 5))),
      buffers: new Buffers(),
      repSet: emptySet(index.n),
      positions: emptySet(index.n),
      prices: null,
      groupStamp: new Int32Array(index.n),
      mark: 0,
      parallelFrom: PARALLEL_FROM,
      paramDims: true,
    };
    index.memo.work = work;
  }
  return work;
}

/** CountTask.multi for a counting pass (cleared). */
function multiFor(work: Work, valueCount: number): Int32Array {
  const multi = work.buffers.int32('multi', 2 * valueCount);
  clearMulti(multi);
  return multi;
}

/** A new mark for `groupStamp`: a group is taken in this query when its stamp equals it. */
function nextMark(work: Work): number {
  if (work.mark === 0x7fffffff) {
    work.groupStamp.fill(0);
    work.mark = 0;
  }
  return ++work.mark;
}

/**
 * Over `set`, one per product (group) when collapsing: writes to `out` (all zero) the products with
 * each value, and at `out[valueCount + dim]` those with any value of each param dimension. The hot
 * loop of the engine.
 *
 * Documents are visited in group order (through their ranks), which is also how their postings
 * are laid out, so the reads go front to back. A value appears once in a document's postings, so
 * a product alone in the set is counted with plain increments, and one loop counts values and
 * excess markers alike, with no branch per value. Only a group with several documents in the set
 * needs stamps, so each value counts once for the group (and its excess is counted apart). The
 * excess then becomes presence (`presenceFromExcess`).
 */
function countPass(index: ShopIndex, set: Bitset, collapse: boolean, out: Int32Array | null, pick: Pick | null = null): void {
  const { postOffsets, postings, groupRank, groupOfRank, groupOrder } = index;
  const work = workOf(index);
  const ranks = work.ranks; // all clear; cleared again as it is read
  let documents = 0;
  for (let w = 0; w < set.length; w++) {
    let bits = set[w];
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const rank = groupRank[(w << 5) + 31 - Math.clz32(low)];
      ranks[rank >>> 5] |= 1 << (rank & 31);
      documents++;
    }
  }
  const byDims = out !== null && collapse && work.paramDims && index.paramDims !== null;
  const task: CountTask = {
    ranks,
    fromWord: 0,
    toWord: ranks.length,
    postOffsets,
    postings,
    groupOfRank,
    groupOrder,
    collapse,
    out,
    stamp: out && collapse ? work.buffers.int32('stamp', out.length).fill(-1) : null,
    valueDim: index.valueDim,
    multi: byDims ? multiFor(work, index.valueDim.length) : null,
    planes: byDims ? work.buffers.int32('planes', PLANES).fill(0) : null,
    paramDims: byDims ? index.paramDims : null,
    firstParamDim: FIRST_PARAM_DIM,
    pick: pick !== null && collapse,
    positionOfRank: pick?.positionOfRank ?? null,
    values: pick?.values ?? null,
    sign: pick?.sign ?? 1,
    idRank: pick?.idRank ?? null,
    reps: pick?.reps ?? null,
    positions: pick?.positions ?? null,
  };
  const parallel = documents >= work.parallelFrom ? countInParallel(task, (work.shared ??= sharedFor(index, ranks, FIRST_PARAM_DIM))) : null;
  const picked = parallel ?? countRanks(task);
  if (out) presenceFromExcess(out, index.dimValues, FIRST_PARAM_DIM);
  if (pick) {
    pick.count += picked;
    pick.done = true;
  }
}

/**
 * Each group's representative in a query's order (its best-ranked variant in the set), picked
 * by a pass that visits the set group by group: a bitset of them and their number.
 */
type Pick = {
  values: Float64Array;
  sign: number;
  idRank: Int32Array;
  // With a kept order: each rank's position in it (compared instead of the keys), and the
  // representatives' positions (the page is then the first of them).
  positionOfRank: Int32Array | null;
  positions: Bitset;
  reps: Bitset;
  count: number;
  done: boolean;
};

/**
 * The counts of dimension `dim`'s values alone over `set`, written into `counts`. From the
 * inverted lists (each of the dimension's values tests its documents against the set) when they
 * are shorter than the set's postings; otherwise by a counting pass.
 */
function countDimension(index: ShopIndex, set: Bitset, dim: number, collapse: boolean, counts: Int32Array): void {
  const from = index.dimValues[dim];
  const to = index.dimValues[dim + 1];
  const { invOffsets, invDocs, groupOf } = index;
  const postingsOfSet = (cardinality(set) * index.postings.length) / Math.max(1, index.n);
  if (invOffsets[to] - invOffsets[from] > postingsOfSet) {
    const all = new Int32Array(index.valueKey.length + index.dims.length);
    countPass(index, set, collapse, all);
    counts.set(all.subarray(from, to), from);
    return;
  }
  const work = workOf(index);
  for (let value = from; value < to; value++) {
    let count = 0;
    const mark = collapse ? nextMark(work) : 0;
    const taken = work.groupStamp;
    for (let p = invOffsets[value]; p < invOffsets[value + 1]; p++) {
      const doc = invDocs[p];
      if ((set[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      if (collapse) {
        const group = groupOf[doc];
        if (taken[group] === mark) continue;
        taken[group] = mark;
      }
      count++;
    }
    counts[value] = count;
  }
}

/** Counts (values, then presence markers) over the shop's whole listable catalog, kept with the index: unfiltered queries reuse them. */
function baseCounts(index: ShopIndex, base: Bitset, collapse: boolean, available: boolean): Int32Array {
  const key = `${collapse}:${available}`;
  let counts = index.memo.baseCounts.get(key);
  if (!counts) {
    counts = new Int32Array(index.valueKey.length + index.dims.length);
    countPass(index, base, collapse, counts);
    index.memo.baseCounts.set(key, counts);
  }
  return counts;
}

export type FacetCounts = DimCounts & { requests: number };
export type Shown = { total: number; stats: PriceStats | null };

function countFacets(index: ShopIndex, query: ListingQuery, base: Bitset, narrowed: boolean, selections: Map<number, Bitset>, matched: Bitset, pick: Pick | null): FacetCounts {
  const valueCount = index.valueKey.length;
  const all = new Int32Array(valueCount + index.dims.length);
  let requests = 1;
  // Every dimension and the presence markers over the result; each selected dimension is then
  // counted again apart, with every filter but its own (disjunctive).
  if (!narrowed && selections.size === 0) all.set(baseCounts(index, base, query.collapse, query.available));
  else countPass(index, matched, query.collapse, all, pick);
  for (const [dim, selected] of selections) {
    requests++;
    if (!narrowed && selections.size === 1) {
      const cached = baseCounts(index, base, query.collapse, query.available);
      all.set(cached.subarray(index.dimValues[dim], index.dimValues[dim + 1]), index.dimValues[dim]);
      continue;
    }
    let others = base;
    if (selections.size > 1) {
      others = base.slice();
      for (const set of selections.values()) if (set !== selected) intersectInto(others, set);
    }
    countDimension(index, others, dim, query.collapse, all);
  }
  return { counts: all.subarray(0, valueCount), present: all.subarray(valueCount), requests };
}

/** What a query's facet counts depend on: its filters, not its order, page or presentation. */
function countsKey(query: ListingQuery): string {
  return JSON.stringify([
    query.available,
    query.collapse,
    query.categories,
    query.locations,
    query.brands,
    query.excludedBrands,
    query.merchants,
    query.excludedMerchants,
    query.colors,
    query.sizes,
    query.exclude,
    [...query.filters],
    query.priceMin,
    query.priceMax,
    query.discount,
    query.searchQuery,
    query.searchQuery ? query.searchScope : null,
  ]);
}

/** Facet counts kept per filter set: at most ~16 MB of them per index, least recently used dropped. */
const COUNTS_BUDGET_BYTES = 16 * 1024 * 1024;

function recall<T>(kept: Map<string, T>, key: string): T | undefined {
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key); // most recently used last
    kept.set(key, hit);
  }
  return hit;
}

function keep<T>(kept: Map<string, T>, key: string, value: T, most: number): void {
  kept.set(key, value);
  while (kept.size > most) kept.delete(kept.keys().next().value!);
}

function cachedCounts(index: ShopIndex, key: string): FacetCounts | undefined {
  return recall((index.memo.facetCounts ??= new Map()), key);
}

function keepCounts(index: ShopIndex, key: string, counts: FacetCounts): void {
  const most = Math.max(16, Math.floor(COUNTS_BUDGET_BYTES / (4 * (index.valueKey.length + index.dims.length))));
  keep((index.memo.facetCounts ??= new Map()), key, counts, most);
}

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
  if (scratch?.applied) undo(index, scratch, scratch.applied.offers);
  if (scratch) {
    scratch.applied = null;
    scratch.appliedKey = null;
  }
}

/** The counts of the whole in-stock catalog, one per group (the default): made with the index. */
export function prepareBaseCounts(index: ShopIndex): void {
  baseCounts(index, index.available, true, true);
}

function sortValues(index: ShopIndex, key: SortKey, effective: Effective, search: SearchHits | null): Float64Array {
  switch (key) {
    case 'price':
      return effective.price;
    case 'discount':
      return effective.discount;
    case 'date':
      return index.date;
    case 'price_margin':
      return index.priceMargin;
    case 'rating':
      return index.rating;
    case 'relevance':
      return search!.score;
    default:
      return index.salesRate;
  }
}

/** Order by the key in the given direction, products without it last, ties by id ascending. */
export function comparator(index: ShopIndex, values: Float64Array, dir: 'asc' | 'desc') {
  const sign = dir === 'asc' ? 1 : -1;
  const rank = index.idRank;
  return (a: number, b: number) => {
    const x = values[a];
    const y = values[b];
    if (x !== y) {
      if (Number.isNaN(x)) return Number.isNaN(y) ? rank[a] - rank[b] : 1;
      if (Number.isNaN(y)) return -1;
      return x < y ? -sign : sign;
    }
    return rank[a] - rank[b];
  };
}

/**
 * A kept order, made once per index and order: the documents in it; each one's group beside it
 * (sequential reads); and each rank's position in it (group order: the counting pass picks a
 * group's representative by comparing them as it reads the group's documents).
 */
export type Walk = { order: Int32Array; groups: Int32Array; positionOfRank: Int32Array };

function orderedWalk(index: ShopIndex, key: SortKey, dir: 'asc' | 'desc'): Walk {
  const orderKey = `${key}:${dir}`;
  let walk = index.memo.walks.get(orderKey);
  if (!walk) {
    const order = sortedDocuments(index, key, dir);
    const groups = new Int32Array(order.length);
    const positionOfRank = new Int32Array(new SharedArrayBuffer(4 * order.length)); // read by the counting worker too
    for (let k = 0; k < order.length; k++) {
      groups[k] = index.groupOf[order[k]];
      positionOfRank[index.groupRank[order[k]]] = k;
    }
    walk = { order, groups, positionOfRank };
    index.memo.walks.set(orderKey, walk);
  }
  return walk;
}

/**
 * The unfiltered listing's size and price statistics in an order (products in stock, one per
 * group: each group's first in stock along the order), made with the index like its default
 * counts; they depend on stock, so an availability patch makes them again.
 */
function unfilteredShown(index: ShopIndex, key: SortKey, dir: 'asc' | 'desc'): Shown {
  const orderKey = `${key}:${dir}`;
  let shown = index.memo.unfiltered.get(orderKey);
  if (!shown) {
    const { order, groups } = orderedWalk(index, key, dir);
    const work = workOf(index);
    const taken = work.groupStamp;
    const mark = nextMark(work);
    const reps = work.repSet;
    let total = 0;
    for (let k = 0; k < order.length; k++) {
      const doc = order[k];
      if ((index.available[doc >>> 5] & (1 << (doc & 31))) === 0 || taken[groups[k]] === mark) continue;
      taken[groups[k]] = mark;
      reps[doc >>> 5] |= 1 << (doc & 31);
      total++;
    }
    shown = { total, stats: priceStatsOfSet(index.price, reps, total) };
    reps.fill(0);
    index.memo.unfiltered.set(orderKey, shown);
  }
  return shown;
}

function baseValues(index: ShopIndex, key: SortKey): Float64Array {
  return sortValues(index, key, { price: index.price, oldprice: index.oldprice, discount: index.discount, offerLocation: null }, null);
}

/** Every document in the order of a location-independent key, computed once per index. */
export function sortedDocuments(index: ShopIndex, key: SortKey, dir: 'asc' | 'desc'): Int32Array {
  const orderKey = `${key}:${dir}`;
  let order = index.memo.orders.get(orderKey);
  if (!order) {
    order = new Int32Array(index.n);
    for (let doc = 0; doc < index.n; doc++) order[doc] = doc;
    order.sort(comparator(index, baseValues(index, key), dir));
    index.memo.orders.set(orderKey, order);
  }
  return order;
}

/**
 * The same, computed before an index is swapped in (for the orders its predecessor was asked for),
 * giving the event loop turns: the first query of each order after a swap does not sort. With the
 * unfiltered listing's size and statistics in that order.
 */
export async function prepareSortedDocuments(index: ShopIndex, key: SortKey, dir: 'asc' | 'desc', pause: () => Promise<void>): Promise<void> {
  const orderKey = `${key}:${dir}`;
  if (!index.memo.orders.has(orderKey)) {
    const order = new Int32Array(index.n);
    for (let doc = 0; doc < index.n; doc++) order[doc] = doc;
    await sortInTurns(order, comparator(index, baseValues(index, key), dir), pause);
    index.memo.orders.set(orderKey, order);
    await pause();
  }
  unfilteredShown(index, key, dir);
}

/**
 * What the previous index's queries for locations alone had made (see location-only.ts), made
 * again for its successor in steps with `pause()` between them: the first such query after a swap
 * would otherwise wait for them (~0.5 s at a million products).
 */
export async function prepareLocationOnly(index: ShopIndex, previous: ShopIndex, pause: () => Promise<void>): Promise<void> {
  for (const made of previous.memo.locationBases.values()) {
    const base = locationBase(index, made.available);
    for (const collapse of made.counts.keys()) {
      await pause();
      locationBaseCounts(index, base, collapse, (set, alone, out) => countPass(index, set, alone, out));
    }
    for (const orderKey of made.representatives.keys()) {
      const [key, dir] = orderKey.split(':') as [SortKey, 'asc' | 'desc'];
      await prepareSortedDocuments(index, key, dir, pause);
      await pause();
      representatives(index, base, orderKey, orderedWalk(index, key, dir).order, baseValues(index, key), !locationKeyed(key));
    }
  }
}

function filterNames(query: ListingQuery): string[] {
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

/** Price statistics of the result's products (`count` of them, in `reps`). */
function statsOf(index: ShopIndex, reps: Bitset, count: number, effective: Effective, work: Work): PriceStats | null {
  // Documents are numbered by base price: with base prices, the set alone tells the statistics.
  if (effective.price === index.price) return priceStatsOfSet(index.price, reps, count, work.buffers);
  const prices = (work.prices ??= new Float64Array(index.n));
  let i = 0;
  forEachDocument(reps, (doc) => {
    prices[i++] = effective.price[doc];
  });
  return priceStats(prices, count);
}

/**
 * The first `want` products of `set` in the order of `compare`, found by sorting; with `collapse`
 * (the set is not yet one document per group) only each group's first.
 */
function firstInOrder(index: ShopIndex, set: Bitset, collapse: boolean, compare: (a: number, b: number) => number, want: number): Int32Array {
  const size = cardinality(set);
  const docs = new Int32Array(size);
  let i = 0;
  forEachDocument(set, (doc) => {
    docs[i++] = doc;
  });
  // Without collapsing, only the first `want` need to be in order: partition them out first.
  if (!collapse && want < size / 4) {
    selectFirst(docs, want, compare);
    return docs.subarray(0, want).sort(compare).slice(); // a copy: results are kept (not the whole set behind a view)
  }
  docs.sort(compare);
  if (!collapse) return want < size ? docs.slice(0, want) : docs;
  const out = new Int32Array(want);
  const work = workOf(index);
  const taken = work.groupStamp;
  const mark = nextMark(work);
  let found = 0;
  for (let k = 0; k < size && found < want; k++) {
    const group = index.groupOf[docs[k]];
    if (taken[group] === mark) continue;
    taken[group] = mark;
    out[found++] = docs[k];
  }
  return out;
}

/** Rearranges `docs` so its first `k` are the k first in the order of `compare` (in any order): quickselect. */
function selectFirst(docs: Int32Array, k: number, compare: (a: number, b: number) => number): void {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo < hi) {
    const pivot = docs[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (compare(docs[i], pivot) < 0) i++;
      while (compare(docs[j], pivot) > 0) j--;
      if (i <= j) {
        const t = docs[i];
        docs[i] = docs[j];
        docs[j] = t;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

/** The documents at the first `want` positions of `positions` in `order` (clearing nothing). */
function firstPositions(order: Int32Array, positions: Bitset, want: number): Int32Array {
  const out = new Int32Array(want);
  let found = 0;
  for (let w = 0; w < positions.length && found < want; w++) {
    let bits = positions[w];
    while (bits !== 0 && found < want) {
      const low = bits & -bits;
      bits ^= low;
      out[found++] = order[(w << 5) + 31 - Math.clz32(low)];
    }
  }
  return out;
}

/**
 * The first `want` products of `set` along a kept order; with `collapse` (the set is not yet one
 * document per group) only each group's first.
 */
function walkToPage(index: ShopIndex, walk: Walk, set: Bitset, collapse: boolean, want: number): Int32Array {
  const { order, groups } = walk;
  const out = new Int32Array(want);
  const work = workOf(index);
  const taken = work.groupStamp;
  const mark = nextMark(work);
  let found = 0;
  for (let k = 0; k < order.length && found < want; k++) {
    const doc = order[k];
    if ((set[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    if (collapse) {
      const group = groups[k];
      if (taken[group] === mark) continue;
      taken[group] = mark;
    }
    out[found++] = doc;
  }
  return out;
}

/**
 * The first `want` products of a location-only result: along the kept order when the query's order
 * does not depend on the locations (`byOffers` null); otherwise the kept representatives along the
 * kept order (by base keys: they have no offers) merged with the offered ones, by their keys.
 */
function locationPage(index: ShopIndex, result: LocationShown, walk: Walk, byOffers: KeyOrder | null, want: number): Int32Array {
  const { kept, added } = result;
  if (!byOffers) {
    const reps = workOf(index).buffers.copy('page representatives', kept);
    for (let i = 0; i < added.length; i++) add(reps, added[i]);
    return walkToPage(index, walk, reps, false, want);
  }
  const addedKeys = result.addedKeys!;
  const head = firstAdded(byOffers, addedKeys, added, want);
  const out = new Int32Array(want);
  const values = byOffers.values;
  let found = 0;
  let next = 0;
  const order = walk.order;
  for (let k = 0; k < order.length && found < want; k++) {
    const doc = order[k];
    if ((kept[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    while (next < head.length && found < want && before(byOffers, addedKeys[head[next]], added[head[next]], values[doc], doc)) out[found++] = added[head[next++]];
    if (found < want) out[found++] = doc;
  }
  while (found < want && next < head.length) out[found++] = added[head[next++]];
  return out;
}

/**
 * The places in `added` (keys in `keys`) of the first `want` of them in `order`, in that order: a
 * heap of the first found so far, the last of them on top, turns most away with one comparison.
 */
export function firstAdded(order: KeyOrder, keys: Float64Array, added: Int32Array, want: number): Int32Array {
  const size = Math.min(want, added.length);
  const heap = new Int32Array(size);
  // Whether the product at place a comes after the one at b (the heap's order).
  const after = (a: number, b: number) => before(order, keys[b], added[b], keys[a], added[a]);
  const siftDown = (from: number) => {
    const item = heap[from];
    let at = from;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && after(heap[child + 1], heap[child])) child++;
      if (!after(heap[child], item)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = item;
  };
  for (let i = 0; i < size; i++) heap[i] = i;
  for (let at = (size >>> 1) - 1; at >= 0; at--) siftDown(at);
  for (let i = size; i < added.length; i++) {
    if (!before(order, keys[i], added[i], keys[heap[0]], added[heap[0]])) continue;
    heap[0] = i;
    siftDown(0);
  }
  return heap.sort((a, b) => (after(a, b) ? 1 : after(b, a) ? -1 : 0));
}

/** Whether products' keys in this order depend on the locations (their offers' prices). */
function locationKeyed(key: SortKey): boolean {
  return key === 'price' || key === 'discount';
}

/** Whether a query asks for locations and nothing else that narrows its result (see location-only.ts). */
function locationsAlone(index: ShopIndex, query: ListingQuery, search: SearchHits | null): boolean {
  const merchants = index.merchants.size > 0 && (query.merchants.length > 0 || query.excludedMerchants.length > 0);
  const selections = query.brands.length + query.excludedBrands.length + query.colors.length + query.sizes.length;
  return (
    query.locations.length > 0 &&
    !search &&
    !merchants &&
    selections === 0 &&
    query.exclude.length === 0 &&
    query.categories.length === 0 &&
    query.priceMin === null &&
    query.priceMax === null &&
    query.discount === null &&
    [...query.filters.values()].every((values) => values.length === 0)
  );
}

/** The offered documents of a location-only result (in stock, with `available`), their offers and sort keys. */
function offeredOf(index: ShopIndex, located: Located, available: boolean, sortBy: SortKey, buffers: Buffers): Offered {
  const { offers: best } = located;
  const { groupOrder, offerRank } = index;
  const ranks = buffers.int32('offered ranks', best.length);
  const docs = buffers.int32('offered docs', best.length);
  const offers = buffers.int32('offered offers', best.length);
  let count = 0;
  for (let i = 0; i < best.length; i++) {
    const rank = offerRank[best[i]];
    const doc = groupOrder[rank];
    if (available && !has(index.available, doc)) continue;
    ranks[count] = rank;
    docs[count] = doc;
    offers[count++] = best[i];
  }
  // Keys for the orders the offers change; in the others, kept positions compare documents (see locationShown).
  let keys: Float64Array | null = null;
  if (locationKeyed(sortBy)) {
    const column = sortBy === 'price' ? index.offerPrice : index.offerDiscount;
    keys = buffers.float64('offered keys', count);
    for (let i = 0; i < count; i++) keys[i] = column[offers[i]];
  }
  return { ranks: ranks.subarray(0, count), docs: docs.subarray(0, count), offers: offers.subarray(0, count), keys };
}

/** Where `doc` is in `offered` (ranks ascend there), or -1. */
function offerSlot(index: ShopIndex, offered: Offered, doc: number): number {
  const rank = index.groupRank[doc];
  let lo = 0;
  let hi = offered.ranks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offered.ranks[mid] < rank) lo = mid + 1;
    else hi = mid;
  }
  return lo < offered.ranks.length && offered.ranks[lo] === rank ? lo : -1;
}

/** The offer that prices `doc` in a location-only result, or -1 (none: it has no offers). */
function offerOfDocument(index: ShopIndex, offered: Offered, doc: number): number {
  const slot = offerSlot(index, offered, doc);
  return slot < 0 ? -1 : offered.offers[slot];
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
  const { buffers } = work;
  work.parallelFrom = parallelFrom;
  work.paramDims = paramDims;
  const n = index.n;
  let effective: Effective = { price: index.price, oldprice: index.oldprice, discount: index.discount, offerLocation: null };

  // Filters every facet sees.
  const base = query.available ? buffers.copy('base', index.available) : fullSet(n);
  let narrowed = false;
  const narrow = (set: Bitset) => {
    intersectInto(base, set);
    narrowed = true;
  };
  if (query.exclude.length) {
    subtractInto(base, docsSet(n, query.exclude.map((id) => idDocs(index, id))));
    narrowed = true;
  }
  if (query.categories.length) narrow(union(index, query.categories.map((id) => index.dims[DIM_CATEGORY].values.get(id)), buffers.uint32('categories', base.length)));
  let mask: Uint8Array | null = null;
  // Locations and nothing else: answered from what the index keeps (location-only.ts), without
  // writing the locations' prices in; the offers that price the result are kept beside it.
  const onlyLocations = locationsAlone(index, query, search);
  let located: Located | null = null;
  if (query.locations.length) {
    mask = locationMask(index, query.locations);
    if (onlyLocations) {
      // The result comes from the offered products (location-only.ts): `base` and `matched` stay
      // every product (in stock), which only the locations in stock below read.
      located = locatedFor(index, mask, scratchOf(index).best, { scanOffersFrom, mergeListsUpTo, subtrees });
      narrowed = true;
    } else {
      const filtered = locationFilter(index, mask, { scanOffersFrom, mergeListsUpTo, subtrees });
      effective = filtered.effective;
      narrow(filtered.set);
    }
  }
  // Merchant filters apply only when the feed sets merchants at all (spec 4.7).
  if (index.merchants.size > 0) {
    if (query.merchants.length) narrow(docsSet(n, query.merchants.map((m) => index.merchants.get(foldCase(m)))));
    if (query.excludedMerchants.length) {
      subtractInto(base, docsSet(n, query.excludedMerchants.map((m) => index.merchants.get(foldCase(m)))));
      narrowed = true;
    }
  }
  if (query.priceMin !== null || query.priceMax !== null) narrow(priceFilter(index, effective, query.priceMin, query.priceMax, buffers.uint32('prices', base.length)));
  if (query.discount !== null) narrow(discountFilter(index, effective, query.discount));
  if (search) narrow(search.set);

  // Filters on facet dimensions: each is left out of its own dimension's counts.
  const selections = new Map<number, Bitset>();
  const select = (dim: number | undefined, keys: string[], excluded: string[] = []) => {
    if (keys.length === 0 && excluded.length === 0) return;
    const values = (list: string[]) => list.map((key) => (dim === undefined ? undefined : index.dims[dim].values.get(dim < 4 && dim !== DIM_CATEGORY ? foldCase(key) : key)));
    const set = keys.length ? union(index, values(keys)) : fullSet(n);
    if (excluded.length) subtractInto(set, union(index, values(excluded)));
    if (dim === undefined) narrow(set); // a param no product has: nothing matches
    else selections.set(dim, set);
  };
  select(DIM_BRAND, query.brands, query.excludedBrands);
  select(DIM_COLOR, query.colors);
  select(DIM_SIZE, query.sizes);
  for (const [name, values] of query.filters) select(index.dimByKey.get(`param:${name}`), values);

  const matched = buffers.copy('matched', base);
  for (const set of selections.values()) intersectInto(matched, set);

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
      ? { values, sign: query.sortDir === 'asc' ? 1 : -1, idRank: index.idRank, positionOfRank: walk?.positionOfRank ?? null, positions: work.positions, reps: work.repSet, count: 0, done: false }
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
  const pagePrice = new Float64Array(page.length);
  const pageOldprice = new Float64Array(page.length);
  const pageDiscount = new Float64Array(page.length);
  const pageLocation = new Int32Array(page.length).fill(-1);
  const offerOf = (doc: number) => (offered ? offerOfDocument(index, offered, doc) : -1);
  page.forEach((doc, i) => {
    const offer = offerOf(doc);
    if (offer >= 0) {
      pagePrice[i] = index.offerPrice[offer];
      pageOldprice[i] = index.offerOldprice[offer];
      pageDiscount[i] = index.offerDiscount[offer];
      pageLocation[i] = index.offerLocation[offer];
      return;
    }
    if (effective.offerLocation) pageLocation[i] = effective.offerLocation[doc];
    pagePrice[i] = effective.price[doc];
    pageOldprice[i] = effective.oldprice[doc];
    pageDiscount[i] = effective.discount[doc];
  });

  // Locations where the result is in stock (within the asked ones, when asked).
  const found = new Uint8Array(index.locations.length);
  let everywhere = false;
  for (let w = 0; w < matched.length && !everywhere; w++) if (matched[w] & index.withoutOffers[w]) everywhere = true;
  if (!everywhere) {
    const visit = (doc: number) => {
      const rank = index.groupRank[doc];
      for (let o = index.rankOfferOffsets[rank]; o < index.rankOfferOffsets[rank + 1]; o++) {
        const location = index.offerLocation[o];
        if (mask && !mask[location]) continue;
        for (const above of index.locationAncestors[location]) found[above] = 1;
      }
    };
    // Locations alone: the result's products with offers are the offered ones.
    if (offered) offered.docs.forEach(visit);
    else forEachDocument(matched, visit);
  }
  const locations: number[] = [];
  for (let l = 0; l < index.knownLocations; l++) {
    if ((everywhere || found[l]) && (!mask || mask[l])) locations.push(l);
  }

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

function hasValue(index: ShopIndex, doc: number, dim: number, key: string): boolean {
  const value = index.dims[dim].values.get(key);
  if (value === undefined) return false;
  const rank = index.groupRank[doc];
  for (let p = index.postOffsets[rank]; p < index.postOffsets[rank + 1]; p++) if (index.postings[p] === value) return true;
  return false;
}
