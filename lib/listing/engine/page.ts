import { type Bitset, type ShopIndex, add, cardinality, has } from '../indexing';
import { type SortKey } from '../query';
import { Buffers } from './buffers';
import { type KeyOrder, type LocationShown, type Offered, before } from './location-only';
import { Located, forEachDocument } from './match';
import { Walk, locationKeyed } from './order';
import { type PriceStats, priceStats, priceStatsOfSet } from './price-stats';
import { Effective } from './types';
import { Work, nextMark, workOf } from './work';

// Page: the first products of a result in its order (sorted directly when small, read off a kept
// order otherwise), one per group, with the result's price statistics.

/** Results up to this size are sorted directly; larger ones are read off the index's sorted order. */
export const SORT_DIRECTLY_BELOW = 4096;

/** Price statistics of the result's products (`count` of them, in `reps`). */
export function statsOf(index: ShopIndex, reps: Bitset, count: number, effective: Effective, work: Work): PriceStats | null {
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
export function firstInOrder(index: ShopIndex, set: Bitset, collapse: boolean, compare: (a: number, b: number) => number, want: number): Int32Array {
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
export function selectFirst(docs: Int32Array, k: number, compare: (a: number, b: number) => number): void {
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
export function firstPositions(order: Int32Array, positions: Bitset, want: number): Int32Array {
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
export function walkToPage(index: ShopIndex, walk: Walk, set: Bitset, collapse: boolean, want: number): Int32Array {
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
export function locationPage(index: ShopIndex, result: LocationShown, walk: Walk, byOffers: KeyOrder | null, want: number): Int32Array {
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

/** The offered documents of a location-only result (in stock, with `available`), their offers and sort keys. */
export function offeredOf(index: ShopIndex, located: Located, available: boolean, sortBy: SortKey, buffers: Buffers): Offered {
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
export function offerSlot(index: ShopIndex, offered: Offered, doc: number): number {
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
export function offerOfDocument(index: ShopIndex, offered: Offered, doc: number): number {
  const slot = offerSlot(index, offered, doc);
  return slot < 0 ? -1 : offered.offers[slot];
}

/** The price, oldprice, discount and location each page product is shown with: its offer's, when one priced it. */
export function pagePrices(index: ShopIndex, page: Int32Array, effective: Effective, offered: Offered | null) {
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
  return { pagePrice, pageOldprice, pageDiscount, pageLocation };
}
