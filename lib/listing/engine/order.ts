import { type ShopIndex, sortInTurns } from '../indexing';
import { type SortKey } from '../query';
import { countPass } from './facet-counts';
import { locationBase, baseCounts as locationBaseCounts, representatives } from './location-only';
import { priceStatsOfSet } from './price-stats';
import { Effective, SearchHits, Shown } from './types';
import { nextMark, workOf } from './work';

// Order: the comparator of a sort key, and each location-independent order kept with the index
// (made before a swap for the orders the previous index was asked for).

export function sortValues(index: ShopIndex, key: SortKey, effective: Effective, search: SearchHits | null): Float64Array {
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

export function orderedWalk(index: ShopIndex, key: SortKey, dir: 'asc' | 'desc'): Walk {
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
export function unfilteredShown(index: ShopIndex, key: SortKey, dir: 'asc' | 'desc'): Shown {
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

export function baseValues(index: ShopIndex, key: SortKey): Float64Array {
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

/** Whether products' keys in this order depend on the locations (their offers' prices). */
export function locationKeyed(key: SortKey): boolean {
  return key === 'price' || key === 'discount';
}
