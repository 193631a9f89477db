import { cardinality, emptySet, intersectInto, type Bitset } from './bitset';
import { FIRST_PARAM_DIM, type ShopIndex } from './build-index';
import { countRanks, presenceFromExcess } from './count-kernel';
import { priceStatsOfSetAnd, sortPrices, type PriceStats } from './price-stats';

// A location-only query (locations, and no other filter or facet selection) answered from what is
// kept per index instead of counting its whole result. Its result is the products without offers
// (in every location's result, priced as in the base catalog) plus those with an offer in the
// locations asked for. So:
// - its facet counts are the counts of those without offers (kept) plus, for each group an offered
//   product of the result belongs to, the values that product brings which the group's products
//   without offers do not have (its "new values", kept per offered product): counting reads only
//   the offered products of the result (~100,000 of ~700,000 documents for a city of the
//   benchmark's million-product catalog) instead of all;
// - each group's representative is the kept one among its products without offers, unless one of
//   its offered products in the result comes first in the query's order;
// - its size and price statistics follow from those replacements.

/** What is kept per index and stock rule (`available`). */
export type LocationBase = {
  available: boolean;
  withoutOffers: Bitset; // the documents without offers (in stock, with `available`)
  size: number; // how many
  // Per collapse: the facet counts (values, then presence markers) of `withoutOffers`.
  counts: Map<boolean, Int32Array>;
  // Per rank (group order), an offered document's values that no document of its group in
  // `withoutOffers` has, and a presence marker per param dimension none of them has a value of:
  // newValues[newOffsets[r] .. newOffsets[r + 1]).
  newOffsets: Int32Array;
  newValues: Uint16Array | Int32Array;
  // Per order (`key:dir`): each group's representative among `withoutOffers`.
  representatives: Map<string, Representatives>;
  groupCount: number;
};

/**
 * Per group, three numbers side by side: its representative (-1: none), that one's key and id
 * rank. A query reads them in group order (`offeredByRank`), so front to back.
 */
type Representatives = { packed: Float64Array; set: Bitset; total: number };

/**
 * The location base of an index for a stock rule, made on first use and kept with the index (an
 * availability patch drops it with the counts).
 */
export function locationBase(index: ShopIndex, available: boolean): LocationBase {
  const cacheKey = `location-base:${available}`;
  let base = index.cache.get(cacheKey) as LocationBase | undefined;
  if (!base) {
    const withoutOffers = index.withoutOffers.slice();
    if (available) intersectInto(withoutOffers, index.available);
    const { newOffsets, newValues } = newValuesOf(index, withoutOffers);
    base = {
      available,
      withoutOffers,
      size: cardinality(withoutOffers),
      counts: new Map(),
      newOffsets,
      newValues,
      representatives: new Map(),
      groupCount: index.n === 0 ? 0 : index.groupOfRank[index.n - 1] + 1,
    };
    index.cache.set(cacheKey, base);
  }
  return base;
}

/**
 * Per offered document (by rank), its values that its group's documents in `withoutOffers` lack,
 * and a presence marker per param dimension they have no value of (the index's excess markers
 * are left out).
 */
function newValuesOf(index: ShopIndex, withoutOffers: Bitset): { newOffsets: Int32Array; newValues: Uint16Array | Int32Array } {
  const { n, groupOrder, groupOfRank, postOffsets, postings, valueDim } = index;
  const valueCount = index.valueKey.length;
  const offered = (doc: number) => (index.withoutOffers[doc >>> 5] & (1 << (doc & 31))) === 0;
  let size = 0;
  for (let rank = 0; rank < n; rank++) if (offered(groupOrder[rank])) size += 2 * (postOffsets[rank + 1] - postOffsets[rank]);
  const newValues = postings instanceof Uint16Array ? new Uint16Array(size) : new Int32Array(size);
  const newOffsets = new Int32Array(n + 1);
  // Values, then dimensions at valueCount + dim: the group's in `withoutOffers`.
  const stamp = new Int32Array(valueCount + index.dims.length).fill(-1);
  const marked = new Int32Array(index.dims.length).fill(-1); // the rank a dimension's marker was written for
  let at = 0;
  for (let start = 0; start < n; ) {
    const group = groupOfRank[start];
    let end = start + 1;
    while (end < n && groupOfRank[end] === group) end++;
    for (let rank = start; rank < end; rank++) {
      const doc = groupOrder[rank];
      if ((withoutOffers[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      for (let p = postOffsets[rank]; p < postOffsets[rank + 1]; p++) {
        const value = postings[p];
        if (value >= valueCount) continue;
        stamp[value] = group;
        stamp[valueCount + valueDim[value]] = group;
      }
    }
    for (let rank = start; rank < end; rank++) {
      if (offered(groupOrder[rank])) {
        for (let p = postOffsets[rank]; p < postOffsets[rank + 1]; p++) {
          const value = postings[p];
          if (value >= valueCount) continue;
          if (stamp[value] !== group) newValues[at++] = value;
          const dim = valueDim[value];
          if (dim >= FIRST_PARAM_DIM && stamp[valueCount + dim] !== group && marked[dim] !== rank) {
            marked[dim] = rank;
            newValues[at++] = valueCount + dim;
          }
        }
      }
      newOffsets[rank + 1] = at;
    }
    start = end;
  }
  return { newOffsets, newValues: newValues.slice(0, at) };
}

/**
 * The documents of a location-only result with an offer in the locations asked for (in stock, with
 * `available`), in document order, beside the offer that prices each one and its value of the
 * query's sort key.
 */
export type Offered = { docs: Int32Array; offers: Int32Array; keys: Float64Array };

/** `offered`'s documents by rank (group order): their ranks, ascending, and beside each its place in `offered`. */
export type ByRank = { ranks: Int32Array; slots: Int32Array };

/** Sorts `offered`'s documents by rank (a radix sort, 11 bits a pass). */
export function offeredByRank(index: ShopIndex, offered: Offered): ByRank {
  const { groupRank } = index;
  const { docs } = offered;
  const count = docs.length;
  let ranks = new Int32Array(count);
  let slots = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    ranks[i] = groupRank[docs[i]];
    slots[i] = i;
  }
  let otherRanks = new Int32Array(count);
  let otherSlots = new Int32Array(count);
  const starts = new Int32Array(2048);
  const bits = 32 - Math.clz32(Math.max(1, index.n - 1));
  for (let shift = 0; shift < bits; shift += 11) {
    starts.fill(0);
    for (let i = 0; i < count; i++) starts[(ranks[i] >>> shift) & 2047]++;
    for (let bucket = 0, sum = 0; bucket < 2048; bucket++) {
      const size = starts[bucket];
      starts[bucket] = sum;
      sum += size;
    }
    for (let i = 0; i < count; i++) {
      const at = starts[(ranks[i] >>> shift) & 2047]++;
      otherRanks[at] = ranks[i];
      otherSlots[at] = slots[i];
    }
    [ranks, otherRanks] = [otherRanks, ranks];
    [slots, otherSlots] = [otherSlots, slots];
  }
  return { ranks, slots };
}

/**
 * The facet counts (values, then presence markers) of the location-only result made of
 * `base.withoutOffers` and the offered documents at `offeredRanks`. `ranks`: an all-clear buffer
 * of the index's rank bits, left clear. `countOver(set, collapse, out)`: the engine's counting pass.
 */
export function locationCounts(
  index: ShopIndex,
  base: LocationBase,
  offeredRanks: Int32Array,
  collapse: boolean,
  ranks: Uint32Array,
  countOver: (set: Bitset, collapse: boolean, out: Int32Array) => void,
): Int32Array {
  const kept = baseCounts(index, base, collapse, countOver);
  for (let i = 0; i < offeredRanks.length; i++) ranks[offeredRanks[i] >>> 5] |= 1 << (offeredRanks[i] & 31);
  // Collapsing: a group's new values and presence markers, once per group however many of its
  // offered documents are in the result, added to the kept counts. Otherwise every value and
  // excess marker of each offered document, counted apart and turned into presence, then added.
  const out = collapse ? kept.slice() : new Int32Array(kept.length);
  countRanks({
    ranks,
    fromWord: 0,
    toWord: ranks.length,
    postOffsets: collapse ? base.newOffsets : index.postOffsets,
    postings: collapse ? base.newValues : index.postings,
    groupOfRank: index.groupOfRank,
    groupOrder: index.groupOrder,
    collapse,
    out,
    stamp: collapse ? new Int32Array(out.length).fill(-1) : null,
    valueDim: null,
    pick: false,
    positionOfRank: null,
    values: null,
    sign: 1,
    idRank: null,
    reps: null,
    positions: null,
  });
  if (!collapse) {
    presenceFromExcess(out, index.dimValues, FIRST_PARAM_DIM);
    for (let i = 0; i < out.length; i++) out[i] += kept[i];
  }
  return out;
}

/** The facet counts of `base.withoutOffers`, kept. */
export function baseCounts(index: ShopIndex, base: LocationBase, collapse: boolean, countOver: (set: Bitset, collapse: boolean, out: Int32Array) => void): Int32Array {
  let kept = base.counts.get(collapse);
  if (!kept) {
    kept = new Int32Array(index.valueKey.length + index.dims.length);
    countOver(base.withoutOffers, collapse, kept);
    base.counts.set(collapse, kept);
  }
  return kept;
}

/**
 * Each group's first document of `base.withoutOffers` along `order` (a kept order of every
 * document by the base keys `values`), kept per order.
 */
export function representatives(index: ShopIndex, base: LocationBase, orderKey: string, order: Int32Array, values: Float64Array): Representatives {
  let kept = base.representatives.get(orderKey);
  if (!kept) {
    const packed = new Float64Array(3 * base.groupCount);
    for (let group = 0; group < base.groupCount; group++) packed[3 * group] = -1;
    const set = emptySet(index.n);
    const { groupOf, idRank } = index;
    const withoutOffers = base.withoutOffers;
    let total = 0;
    for (let k = 0; k < order.length; k++) {
      const doc = order[k];
      const at = 3 * groupOf[doc];
      if ((withoutOffers[doc >>> 5] & (1 << (doc & 31))) === 0 || packed[at] >= 0) continue;
      packed[at] = doc;
      packed[at + 1] = values[doc];
      packed[at + 2] = idRank[doc];
      set[doc >>> 5] |= 1 << (doc & 31);
      total++;
    }
    kept = { packed, set, total };
    base.representatives.set(orderKey, kept);
  }
  return kept;
}

/**
 * A location-only result's products: the kept representatives of the groups no offered document
 * changes (`kept`, documents without offers: their keys and prices are the base ones), and the
 * offered documents that stand for their groups (`added`, in no particular order, with their keys
 * in `addedKeys`); the result's size and price statistics.
 */
export type LocationShown = {
  total: number;
  kept: Bitset; // not to be changed (it may be the base's own set)
  added: Int32Array;
  addedKeys: Float64Array;
  stats: PriceStats | null;
};

/** The query's order: by key (`sign` 1 ascending, -1 descending), products without one last, ties by id. */
export type KeyOrder = { values: Float64Array; sign: number; idRank: Int32Array };

/** Whether document x (key xKey) comes before document y (key yKey). */
export function before(order: KeyOrder, xKey: number, x: number, yKey: number, y: number): boolean {
  return rankedBefore(order.sign, xKey, order.idRank[x], yKey, order.idRank[y]);
}

/** -1 when key x comes first in the order of `sign`, 1 when y does, 0 on a tie (missing keys last). */
function compareKeys(sign: number, x: number, y: number): number {
  if (x === y) return 0;
  if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
  if (Number.isNaN(y)) return -1;
  return (sign > 0 ? x < y : x > y) ? -1 : 1;
}

/** The same, by keys and id ranks. */
function rankedBefore(sign: number, xKey: number, xRank: number, yKey: number, yRank: number): boolean {
  if (xKey !== yKey) {
    if (Number.isNaN(xKey)) return Number.isNaN(yKey) && xRank < yRank;
    if (Number.isNaN(yKey)) return true;
    return sign > 0 ? xKey < yKey : xKey > yKey;
  }
  return xRank < yRank;
}

/**
 * The result's products in the query's order (`keyOrder`: base keys in `values`, which the
 * documents without offers have; `offered.keys` for the offered ones). `order`: the kept order of
 * every document by base keys. Without `collapse`, every document is its own product.
 */
export function locationShown(
  index: ShopIndex,
  base: LocationBase,
  offered: Offered,
  byRank: ByRank,
  collapse: boolean,
  orderKey: string,
  order: Int32Array,
  keyOrder: KeyOrder,
): LocationShown {
  const { docs, offers, keys } = offered;
  const { offerPrice } = index;
  let kept: Bitset;
  let keptCount: number;
  let slots: Int32Array; // the offered documents that stand for their groups (places in `offered`)
  if (!collapse) {
    kept = base.withoutOffers;
    keptCount = base.size;
    slots = new Int32Array(docs.length);
    for (let i = 0; i < slots.length; i++) slots[i] = i;
  } else {
    const reps = representatives(index, base, orderKey, order, keyOrder.values);
    const { packed } = reps;
    kept = reps.set.slice();
    keptCount = reps.total;
    // Group by group (a group's offered documents are side by side in rank order, and the kept
    // representatives are read front to back): its best offered document, then against the kept one.
    const { groupOfRank, idRank } = index;
    const { sign } = keyOrder;
    // Id ranks are read only on a tie of keys (they are scattered). The winners are marked by
    // their places in `offered` and read back in that order (document order: their offers' prices
    // are then read front to back).
    const { ranks, slots: rankSlots } = byRank;
    const winners = emptySet(docs.length);
    let count = 0;
    for (let i = 0; i < ranks.length; ) {
      const group = groupOfRank[ranks[i]];
      let best = rankSlots[i++];
      for (; i < ranks.length && groupOfRank[ranks[i]] === group; i++) {
        const slot = rankSlots[i];
        const order = compareKeys(sign, keys[slot], keys[best]);
        if (order < 0 || (order === 0 && idRank[docs[slot]] < idRank[docs[best]])) best = slot;
      }
      const at = 3 * group;
      const was = packed[at];
      if (was >= 0) {
        const order = compareKeys(sign, keys[best], packed[at + 1]);
        if (order > 0 || (order === 0 && idRank[docs[best]] > packed[at + 2])) continue;
        kept[was >>> 5] &= ~(1 << (was & 31));
        keptCount--;
      }
      winners[best >>> 5] |= 1 << (best & 31);
      count++;
    }
    slots = new Int32Array(count);
    count = 0;
    for (let w = 0; w < winners.length; w++) {
      let bits = winners[w];
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        slots[count++] = (w << 5) + 31 - Math.clz32(low);
      }
    }
  }
  const added = new Int32Array(slots.length);
  const addedKeys = new Float64Array(slots.length);
  const prices = new Float64Array(slots.length);
  for (let i = 0; i < slots.length; i++) {
    added[i] = docs[slots[i]];
    addedKeys[i] = keys[slots[i]];
    prices[i] = offerPrice[offers[slots[i]]];
  }
  const stats = priceStatsOfSetAnd(index.price, kept, keptCount, sortPrices(prices));
  return { total: keptCount + added.length, kept, added, addedKeys, stats };
}
