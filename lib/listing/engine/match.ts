import { type Offered } from './location-only';
import { type Buffers } from './buffers';
import { type ListingQuery } from '../query';
import { type Bitset, type ShopIndex, add, addRange, cheaper, cheapestOffers, docOf, emptySet, fullSet, intersectInto, subtractInto, DIM_BRAND, DIM_CATEGORY, DIM_COLOR, DIM_SIZE, foldCase } from '../indexing';
import { Effective, type SearchHits } from './types';
import { keep, recall, workOf } from './work';

// Match: each filter of a query as a bitset of documents (facet values through the inverted lists,
// ids, prices, discounts, and locations with the offer pricing each document there).

/**
 * Locations holding at least this share of a shop's offers are found by one pass over every offer
 * (in document order); fewer, through each location's list. At 1,000,000 products (1,832,140
 * offers), the pass took 8.7 ms, the lists 7.0 ms for a city with 6.7 % of the offers.
 */
export const SCAN_OFFERS_FROM = 1 / 12;

/** Up to this many locations' lists of offers are merged; more are gathered through a bitset of ranks. */
export const MERGE_LISTS_UP_TO = 4;

/** How locations' offers are found (the defaults above; tests force each way). */
export type LocateWay = { scanOffersFrom: number; mergeListsUpTo: number; subtrees: boolean };

export const DEFAULT_WAY: LocateWay = { scanOffersFrom: SCAN_OFFERS_FROM, mergeListsUpTo: MERGE_LISTS_UP_TO, subtrees: true };

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
  // Price and discount by rank (documents in group order), as written: a counting pass that picks
  // each group's cheapest reads them front to back instead of by document at random.
  priceByRank: Float64Array;
  discountByRank: Float64Array;
  // The documents whose location prices are written in, and the key of the locations and of the
  // documents they were written for: left in place after a query, so the next query for the same
  // (the usual case: a store's shoppers) writes nothing; undone when another is asked for.
  written: Int32Array | null;
  appliedKey: string | null;
};

/** Per-index buffers for location prices: the base prices with one location set's offers over them. */
export function scratchOf(index: ShopIndex): Scratch {
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
      priceByRank: byRank(index, index.price),
      discountByRank: byRank(index, index.discount),
      written: null,
      appliedKey: null,
    };
    index.memo.scratch = scratch;
  }
  return scratch;
}

/** A column by rank, in shared memory (the counting worker picks by it). */
function byRank(index: ShopIndex, column: Float64Array): Float64Array {
  const ranked = new Float64Array(new SharedArrayBuffer(8 * index.n));
  const { groupOrder } = index;
  for (let rank = 0; rank < index.n; rank++) ranked[rank] = column[groupOrder[rank]];
  return ranked;
}

/**
 * With `locations`: the documents in stock in one of them (every document without offers, and those
 * with an offer there), each priced by its cheapest such offer (ties: the lowest location id):
 * every one of them, or those of `within` only (their prices are read from nowhere else). The
 * prices are valid until the next call with other locations or candidates.
 */
export function locationFilter(index: ShopIndex, mask: Uint8Array, way = DEFAULT_WAY, within: Candidates | null = null): { set: Bitset; effective: Effective } {
  const scratch = scratchOf(index);
  const located = locatedFor(index, mask, scratch.best, way);
  // The prices written depend on the locations and the candidates only: left for the next query.
  const key = within ? `${mask.join('')}|${within.key}` : mask.join('');
  if (scratch.appliedKey !== key) {
    if (scratch.written) undo(index, scratch, scratch.written);
    scratch.written = null;
    scratch.appliedKey = null;
    scratch.written = writeOffers(index, scratch, located.offers, within?.set ?? null);
    scratch.appliedKey = key;
  }
  const { price, oldprice, discount, offerLocation, written, priceByRank, discountByRank } = scratch;
  return { set: locatedSet(index, located).slice(), effective: { price, oldprice, discount, offerLocation, written: written!, priceByRank, discountByRank } };
}

/**
 * The documents a query's categories and availability leave, and a key that names them for the
 * index: every document whose location price a later stage reads is among them (prices, sorts,
 * counts and pages all work within the result).
 */
export type Candidates = { set: Bitset; key: string };

/**
 * Writes the prices of `offers` (one per document, as located) over their documents' base prices,
 * for the documents of `within` only (null: every one); returns those documents. At a million
 * products a city's ~50,000 offers touched seven arrays at random places (~10 ms a change of
 * locations); a category's few thousand documents within them are a fraction of that.
 */
function writeOffers(index: ShopIndex, scratch: Scratch, offers: Int32Array, within: Bitset | null): Int32Array {
  const { groupOrder, offerRank, offerPrice, offerOldprice, offerDiscount, offerLocation } = index;
  const written = new Int32Array(offers.length);
  let count = 0;
  for (let i = 0; i < offers.length; i++) {
    const offer = offers[i];
    const rank = offerRank[offer];
    const doc = groupOrder[rank];
    if (within && (within[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
    scratch.price[doc] = offerPrice[offer];
    scratch.oldprice[doc] = offerOldprice[offer];
    scratch.discount[doc] = offerDiscount[offer];
    scratch.offerLocation[doc] = offerLocation[offer];
    scratch.priceByRank[rank] = offerPrice[offer];
    scratch.discountByRank[rank] = offerDiscount[offer];
    written[count++] = doc;
  }
  return count === offers.length ? written : written.slice(0, count);
}

/** The documents in stock in the masked locations and their offers (locate's), kept per set of locations. */
export function locatedFor(index: ShopIndex, mask: Uint8Array, best: Int32Array, way: LocateWay): Located {
  const key = mask.join('');
  const kept = (index.memo.located ??= new Map());
  let located = recall(kept, key);
  if (!located) {
    located = locate(index, mask, best, way);
    keep(kept, key, located, 16);
  }
  return located;
}

export function undo(index: ShopIndex, scratch: Scratch, written: Int32Array): void {
  for (let i = 0; i < written.length; i++) {
    const doc = written[i];
    const rank = index.groupRank[doc];
    scratch.priceByRank[rank] = index.price[doc];
    scratch.discountByRank[rank] = index.discount[doc];
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
export function locatedSet(index: ShopIndex, located: Located): Bitset {
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
export function locate(index: ShopIndex, mask: Uint8Array, best: Int32Array, { scanOffersFrom, mergeListsUpTo, subtrees }: LocateWay): Located {
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
export function subtreeRoot(index: ShopIndex, mask: Uint8Array): number {
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
export function listsOf(index: ShopIndex, mask: Uint8Array): Int32Array[] {
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
export function mergeOffers(index: ShopIndex, offers: Int32Array, list: Int32Array, out: Int32Array): Int32Array {
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

export function lowerBound(values: Float64Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(values: Float64Array, target: number): number {
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
  const { written } = effective;
  if (written) {
    // Base prices for every document but those written: one range, then those set right.
    addRange(set, min === null ? 0 : lowerBound(index.price, min), max === null ? index.n : upperBound(index.price, max));
    for (let i = 0; i < written.length; i++) {
      const doc = written[i];
      const price = prices[doc];
      if ((min === null || price >= min) && (max === null || price <= max)) set[doc >>> 5] |= 1 << (doc & 31);
      else set[doc >>> 5] &= ~(1 << (doc & 31));
    }
    return set;
  }
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
  const { written } = effective;
  if (!written) return discountSet(index, effective.discount, wanted);
  // The base set, then the documents written set right.
  const set = discountFilter(index, { ...effective, discount: index.discount, written: undefined }, wanted).slice();
  for (let i = 0; i < written.length; i++) {
    const doc = written[i];
    if (effective.discount[doc] > 0 === wanted) set[doc >>> 5] |= 1 << (doc & 31);
    else set[doc >>> 5] &= ~(1 << (doc & 31));
  }
  return set;
}

export function discountSet(index: ShopIndex, discounts: Float64Array, wanted: boolean): Bitset {
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

export function hasValue(index: ShopIndex, doc: number, dim: number, key: string): boolean {
  const value = index.dims[dim].values.get(key);
  if (value === undefined) return false;
  const rank = index.groupRank[doc];
  for (let p = index.postOffsets[rank]; p < index.postOffsets[rank + 1]; p++) if (index.postings[p] === value) return true;
  return false;
}

/** What a query's filters match (matchQuery). */
export type Match = {
  base: Bitset; // the filters every facet sees
  narrowed: boolean; // some filter of `base` left out a product in stock
  selections: Map<number, Bitset>; // per facet dimension filtered on, its filter: left out of its own counts
  matched: Bitset; // the result: `base` and every selection
  effective: Effective; // prices, with the asked locations' offers written in
  mask: Uint8Array | null; // the asked locations, each with those below it
  located: Located | null; // locations alone: the offers in them (location-only.ts), not written in
};

/** The match stage: each filter of the query as a bitset, and what they leave. */
export function matchQuery(index: ShopIndex, query: ListingQuery, search: SearchHits | null, buffers: Buffers, way: LocateWay): Match {
  const n = index.n;
  let effective: Effective = { price: index.price, oldprice: index.oldprice, discount: index.discount, offerLocation: null };

  // Filters every facet sees.
  const base = query.available ? buffers.copy('base', index.available) : fullSet(n);
  let narrowed = false;
  const narrow = (set: Bitset) => {
    intersectInto(base, set);
    narrowed = true;
  };
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
      located = locatedFor(index, mask, scratchOf(index).best, way);
      narrowed = true;
    } else {
      // Excluded products are taken out after: the prices written serve every query of these categories.
      const within = { set: base, key: `${query.available}|${query.categories.join(',')}` };
      const filtered = locationFilter(index, mask, way, within);
      effective = filtered.effective;
      narrow(filtered.set);
    }
  }
  if (query.exclude.length) {
    subtractInto(base, docsSet(n, query.exclude.map((id) => idDocs(index, id))));
    narrowed = true;
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
  return { base, narrowed, selections, matched, effective, mask, located };
}

/**
 * Whether a query asks for locations and nothing else (no search, no other filter): answered from
 * what the index keeps (location-only.ts).
 */
export function locationsAlone(index: ShopIndex, query: ListingQuery, search: SearchHits | null): boolean {
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

/** The locations where the result is in stock (within the asked ones, when asked), with those above them. */
export function locationsInStock(index: ShopIndex, matched: Bitset, mask: Uint8Array | null, offered: Offered | null): number[] {
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
  return locations;
}
