import { cardinality, emptySet, intersectInto, type Bitset, FIRST_PARAM_DIM, type ShopIndex } from '../indexing';
import type { Buffers } from './buffers';
import { presenceFromExcess, type CountTask } from './count-kernel';
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
 * Per group, side by side: its representative (-1: none) and that one's key and id rank
 * (`byKey`), or for an order the locations do not change, its position in the kept order
 * (`byPosition`, two whole numbers a group: a third of the bytes to read). A query reads them in
 * group order (its offered documents' rank order), so front to back.
 */
type Representatives = { byKey: Float64Array | null; byPosition: Int32Array | null; set: Bitset; total: number };

/**
 * The location base of an index for a stock rule, made on first use and kept with the index (an
 * availability patch drops it with the counts).
 */
export function locationBase(index: ShopIndex, available: boolean): LocationBase {
  let base = index.memo.locationBases.get(available);
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
    index.memo.locationBases.set(available, base);
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
  const newOffsets = new Int32Array(new SharedArrayBuffer(4 * (n + 1))); // shared, as the index's postings, to count on two threads
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
  const kept = postings instanceof Uint16Array ? new Uint16Array(new SharedArrayBuffer(2 * at)) : new Int32Array(new SharedArrayBuffer(4 * at));
  kept.set(newValues.subarray(0, at));
  return { newOffsets, newValues: kept };
}

/**
 * The documents of a location-only result with an offer in the locations asked for (in stock, with
 * `available`), by rank (ascending: a group's side by side), beside each its document, the offer
 * that prices it and, in an order by the offers' prices or discounts, its key (null in the others:
 * the documents' keys are the base ones).
 */
export type Offered = { ranks: Int32Array; docs: Int32Array; offers: Int32Array; keys: Float64Array | null };

/**
 * The facet counts (values, then presence markers) of the location-only result made of
 * `base.withoutOffers` and the offered documents at `offeredRanks`, started: the returned function
 * finishes and gives them. `ranks`: an all-clear buffer of the index's rank bits, left clear once
 * finished. `countOver(set, collapse, out)`: the engine's counting pass; `start(task)`: the engine's
 * way of starting a counting task, giving the function that finishes it (another thread may count
 * in the meantime).
 */
export function locationCounts(
  index: ShopIndex,
  base: LocationBase,
  offeredRanks: Int32Array,
  collapse: boolean,
  ranks: Uint32Array,
  countOver: (set: Bitset, collapse: boolean, out: Int32Array) => void,
  start: (task: CountTask, documents: number) => () => void,
): () => Int32Array {
  const kept = baseCounts(index, base, collapse, countOver);
  for (let i = 0; i < offeredRanks.length; i++) ranks[offeredRanks[i] >>> 5] |= 1 << (offeredRanks[i] & 31);
  // Collapsing: a group's new values and presence markers, once per group however many of its
  // offered documents are in the result, added to the kept counts. Otherwise every value and
  // excess marker of each offered document, counted apart and turned into presence, then added.
  const out = collapse ? kept.slice() : new Int32Array(kept.length);
  const finish = start({
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
    // New values' markers mean presence; without collapse, every document counts alone (which
    // reads no dimension).
    valueDim: collapse ? null : index.valueDim,
    multi: null,
    planes: null,
    paramDims: null,
    firstParamDim: FIRST_PARAM_DIM,
    pick: false,
    positionOfRank: null,
    values: null,
    valuesByRank: null,
    sign: 1,
    idRank: null,
    reps: null,
    positions: null,
  }, offeredRanks.length);
  return () => {
    finish();
    if (!collapse) {
      presenceFromExcess(out, index.dimValues, FIRST_PARAM_DIM);
      for (let i = 0; i < out.length; i++) out[i] += kept[i];
    }
    return out;
  };
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
 * document by the base keys `values`), kept per order (`byPosition`: with its position in `order`
 * instead of its key).
 */
export function representatives(index: ShopIndex, base: LocationBase, orderKey: string, order: Int32Array, values: Float64Array, byPosition: boolean): Representatives {
  let kept = base.representatives.get(orderKey);
  if (!kept) {
    const byKey = byPosition ? null : new Float64Array(3 * base.groupCount).fill(-1);
    const positions = byPosition ? new Int32Array(2 * base.groupCount).fill(-1) : null;
    const set = emptySet(index.n);
    const { groupOf, idRank } = index;
    const withoutOffers = base.withoutOffers;
    let total = 0;
    for (let k = 0; k < order.length; k++) {
      const doc = order[k];
      if ((withoutOffers[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      const group = groupOf[doc];
      if (positions) {
        if (positions[2 * group] >= 0) continue;
        positions[2 * group] = doc;
        positions[2 * group + 1] = k;
      } else {
        if (byKey![3 * group] >= 0) continue;
        byKey![3 * group] = doc;
        byKey![3 * group + 1] = values[doc];
        byKey![3 * group + 2] = idRank[doc];
      }
      set[doc >>> 5] |= 1 << (doc & 31);
      total++;
    }
    kept = { byKey, byPosition: positions, set, total };
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
  kept: Bitset; // not to be changed (it may be the base's own set, or a buffer of the query's)
  added: Int32Array;
  addedKeys: Float64Array | null; // null: the order's keys are the base ones
  stats: PriceStats | null;
};

/** The query's order: by key (`sign` 1 ascending, -1 descending), products without one last, ties by id. */
export type KeyOrder = { values: Float64Array; sign: number; idRank: Int32Array };

/** Whether document x (key xKey) comes before document y (key yKey). */
export function before(order: KeyOrder, xKey: number, x: number, yKey: number, y: number): boolean {
  // Id ranks (scattered) are read only on a tie.
  const byKeys = compareKeys(order.sign, xKey, yKey);
  return byKeys === 0 ? order.idRank[x] < order.idRank[y] : byKeys < 0;
}

/** -1 when key x comes first in the order of `sign`, 1 when y does, 0 on a tie (missing keys last). */
function compareKeys(sign: number, x: number, y: number): number {
  if (x === y) return 0;
  if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
  if (Number.isNaN(y)) return -1;
  return (sign > 0 ? x < y : x > y) ? -1 : 1;
}

/**
 * The result's products in the query's order (`keyOrder`: base keys in `values`, which the
 * documents without offers have; `offered.keys` for the offered ones). `walk`: the kept order of
 * every document by base keys, and each rank's position in it; `byPosition`: the query's order is
 * that one (its keys do not depend on the locations), so positions compare documents. Without
 * `collapse`, every document is its own product.
 */
export function locationShown(
  index: ShopIndex,
  base: LocationBase,
  offered: Offered,
  collapse: boolean,
  orderKey: string,
  walk: { order: Int32Array; positionOfRank: Int32Array },
  keyOrder: KeyOrder,
  byPosition: boolean,
  buffers: Buffers,
): LocationShown {
  const { ranks, docs, offers, keys } = offered;
  const { offerPrice } = index;
  const count = docs.length;
  // The offered documents that stand for their groups, with their keys and prices.
  let added = buffers.int32('added', count);
  let addedKeys = keys && buffers.float64('added keys', count);
  let prices = buffers.float64('added prices', count);
  let taken = 0;
  let kept: Bitset;
  let keptCount: number;
  if (!collapse) {
    kept = base.withoutOffers;
    keptCount = base.size;
    added.set(docs);
    if (keys) addedKeys!.set(keys);
    for (let i = 0; i < count; i++) prices[i] = offerPrice[offers[i]];
    taken = count;
  } else {
    const reps = representatives(index, base, orderKey, walk.order, keyOrder.values, byPosition);
    const { byKey, byPosition: repPositions } = reps;
    kept = buffers.copy('kept representatives', reps.set);
    keptCount = reps.total;
    // Group by group (a group's offered documents are side by side, and the kept representatives
    // are read front to back): its best offered document, then against the kept one. By keys,
    // id ranks are read only on a tie (they are scattered).
    const { groupOfRank, idRank } = index;
    const { positionOfRank } = walk;
    const { sign } = keyOrder;
    if (!byPosition && !keys) throw new Error('an order by the offers needs their keys');
    for (let i = 0; i < count; ) {
      const group = groupOfRank[ranks[i]];
      let was: number;
      let best = i++;
      if (repPositions) {
        let bestPosition = positionOfRank[ranks[best]];
        for (; i < count && groupOfRank[ranks[i]] === group; i++) {
          const position = positionOfRank[ranks[i]];
          if (position < bestPosition) {
            best = i;
            bestPosition = position;
          }
        }
        was = repPositions[2 * group];
        if (was >= 0 && repPositions[2 * group + 1] < bestPosition) continue;
      } else {
        for (; i < count && groupOfRank[ranks[i]] === group; i++) {
          const order = compareKeys(sign, keys![i], keys![best]);
          if (order < 0 || (order === 0 && idRank[docs[i]] < idRank[docs[best]])) best = i;
        }
        const at = 3 * group;
        was = byKey![at];
        if (was >= 0) {
          const order = compareKeys(sign, keys![best], byKey![at + 1]);
          if (order > 0 || (order === 0 && idRank[docs[best]] > byKey![at + 2])) continue;
        }
      }
      if (was >= 0) {
        kept[was >>> 5] &= ~(1 << (was & 31));
        keptCount--;
      }
      added[taken] = docs[best];
      if (keys) addedKeys![taken] = keys[best];
      prices[taken++] = offerPrice[offers[best]];
    }
    added = added.subarray(0, taken);
    addedKeys = addedKeys && addedKeys.subarray(0, taken);
    prices = prices.subarray(0, taken);
  }
  const stats = priceStatsOfSetAnd(index.price, kept, keptCount, sortPrices(prices, buffers), buffers);
  return { total: keptCount + taken, kept, added, addedKeys, stats };
}
