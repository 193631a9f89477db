import type { Bitset } from './bitset';

// price_range, price_median and price_ranges of a result (CONTRACT §4), from its products' prices.

export type PriceBucket = { from?: number; to?: number; count: number };
export type PriceStats = { range: { min: number; max: number }; median: number; ranges: PriceBucket[] };

const STEPS = [1, 2, 2.5, 5];

/** The smallest "round" step (1, 2, 2.5 or 5 × 10^k, whole numbers only) of at least `raw`. */
export function roundStep(raw: number): number {
  if (raw <= 1) return 1;
  let magnitude = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const step of STEPS) {
      const candidate = step * magnitude;
      if (candidate >= raw && Number.isInteger(candidate)) return candidate;
    }
    magnitude *= 10;
  }
}

/** The k-th smallest (0-based) of values[0..length), rearranging them (Hoare's selection). */
function select(values: Float64Array, length: number, k: number): number {
  let lo = 0;
  let hi = length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k];
  }
  return values[k];
}

/** The buckets' geometry for prices from `min` to `max`: at most 5, on a round step. */
function bucketPlan(rangeMin: number, rangeMax: number, max: number): { start: number; step: number; buckets: number } {
  let step = roundStep((rangeMax - rangeMin) / 5);
  let start = Math.floor(rangeMin / step) * step;
  while (Math.floor((max - start) / step) + 1 > 5) {
    step = roundStep(step + 1);
    start = Math.floor(rangeMin / step) * step;
  }
  return { start, step, buckets: Math.min(5, Math.floor((max - start) / step) + 1) };
}

/** The non-empty buckets: the last open above (no `to`), the first without `from` when it starts at 0. */
function bucketsOf(start: number, step: number, counts: number[]): PriceBucket[] {
  const ranges: PriceBucket[] = [];
  for (let b = 0; b < counts.length; b++) {
    if (counts[b] === 0) continue;
    const from = start + b * step;
    const bucket = {} as PriceBucket;
    if (from > 0) bucket.from = from;
    if (b < counts.length - 1) bucket.to = from + step;
    bucket.count = counts[b];
    ranges.push(bucket);
  }
  return ranges;
}

/**
 * `prices[0..length)` may be rearranged. Buckets: at most 5, bounds on a round step, the last open
 * above (no `to`), the first without `from` when it starts at 0; empty ones are left out, so the
 * counts sum to the number of prices.
 */
export function priceStats(prices: Float64Array, length: number): PriceStats | null {
  if (length === 0) return null;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < length; i++) {
    const price = prices[i];
    if (price < min) min = price;
    if (price > max) max = price;
  }
  const range = { min: Math.floor(min), max: Math.ceil(max) };
  const { start, step, buckets } = bucketPlan(range.min, range.max, max);
  const counts = new Array<number>(buckets).fill(0);
  for (let i = 0; i < length; i++) counts[Math.min(buckets - 1, Math.floor((prices[i] - start) / step))]++;
  const middle = length >>> 1;
  const median = length % 2 === 1 ? select(prices, length, middle) : (select(prices, length, middle - 1) + select(prices, length, middle)) / 2;
  return { range, median: Math.floor(median), ranges: bucketsOf(start, step, counts) };
}

/**
 * The same statistics over the documents of `set` (`count` of them), when `prices` (by document)
 * ascend with the document number, as an index's base prices do: the first and last document give
 * the range, the middle ones the median, and a binary search each bucket's first document, so no
 * document is visited one by one.
 */
export function priceStatsOfSet(prices: Float64Array, set: Bitset, count: number): PriceStats | null {
  if (count === 0) return null;
  const min = prices[nthMember(set, 0)];
  const max = prices[nthMember(set, count - 1)];
  const range = { min: Math.floor(min), max: Math.ceil(max) };
  const { start, step, buckets } = bucketPlan(range.min, range.max, max);
  // The first document of each bucket, by the very expression priceStats buckets with (it grows with the price).
  const counts = new Array<number>(buckets).fill(0);
  let before = 0;
  for (let b = 1; b < buckets; b++) {
    let lo = 0;
    let hi = prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Math.floor((prices[mid] - start) / step) < b) lo = mid + 1;
      else hi = mid;
    }
    const below = membersBelow(set, lo);
    counts[b - 1] = below - before;
    before = below;
  }
  counts[buckets - 1] = count - before;
  const middle = count >>> 1;
  const median = count % 2 === 1 ? prices[nthMember(set, middle)] : (prices[nthMember(set, middle - 1)] + prices[nthMember(set, middle)]) / 2;
  return { range, median: Math.floor(median), ranges: bucketsOf(start, step, counts) };
}

function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Members of `set` below document `doc`. */
function membersBelow(set: Bitset, doc: number): number {
  let count = 0;
  const whole = doc >>> 5;
  for (let w = 0; w < whole; w++) count += popcount(set[w]);
  if (doc & 31) count += popcount(set[whole] & ((1 << (doc & 31)) - 1));
  return count;
}

/** The k-th (0-based) member of `set`, which has more than k. */
function nthMember(set: Bitset, k: number): number {
  let left = k;
  for (let w = 0; w < set.length; w++) {
    const count = popcount(set[w]);
    if (left >= count) {
      left -= count;
      continue;
    }
    let bits = set[w];
    for (; left > 0; left--) bits &= bits - 1;
    return (w << 5) + 31 - Math.clz32(bits & -bits);
  }
  throw new Error(`the set has no member ${k}`);
}
