import { bitCount, type Bitset } from '../indexing';
import type { Buffers } from './buffers';

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
export function priceStatsOfSet(prices: Float64Array, set: Bitset, count: number, buffers?: Buffers): PriceStats | null {
  return priceStatsOfSetAnd(prices, set, count, new Float64Array(0), buffers);
}

/**
 * The same over the prices of `set` (as above) and of `more` (ascending) together: a location
 * query's result, whose products without offers keep their base prices while the others come with
 * their offers' prices.
 */
export function priceStatsOfSetAnd(prices: Float64Array, set: Bitset, count: number, more: Float64Array, buffers?: Buffers): PriceStats | null {
  const total = count + more.length;
  if (total === 0) return null;
  const members = new Members(set, buffers?.int32('members before', set.length + 1));
  const min = Math.min(count ? prices[members.nth(0)] : Infinity, more.length ? more[0] : Infinity);
  const max = Math.max(count ? prices[members.nth(count - 1)] : -Infinity, more.length ? more[more.length - 1] : -Infinity);
  const range = { min: Math.floor(min), max: Math.ceil(max) };
  const { start, step, buckets } = bucketPlan(range.min, range.max, max);
  // Each bucket's first price, on both sides, by the very expression priceStats buckets with (it
  // grows with the price): a binary search each.
  const firstOfBucket = (length: number, at: (i: number) => number, bucket: number) => {
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (Math.floor((at(mid) - start) / step) < bucket) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const counts = new Array<number>(buckets).fill(0);
  let before = 0;
  for (let b = 1; b < buckets; b++) {
    const below = members.below(firstOfBucket(prices.length, (doc) => prices[doc], b)) + firstOfBucket(more.length, (i) => more[i], b);
    counts[b - 1] = below - before;
    before = below;
  }
  counts[buckets - 1] = total - before;
  // The k-th smallest (0-based) of both: the first `taken` from the set, the rest from `more`.
  const kth = (k: number) => {
    let lo = Math.max(0, k + 1 - more.length);
    let hi = Math.min(k + 1, count);
    while (lo < hi) {
      const taken = (lo + hi) >>> 1;
      if (prices[members.nth(taken)] < more[k - taken]) lo = taken + 1;
      else hi = taken;
    }
    const rest = k + 1 - lo;
    return Math.max(lo > 0 ? prices[members.nth(lo - 1)] : -Infinity, rest > 0 ? more[rest - 1] : -Infinity);
  };
  const middle = total >>> 1;
  const median = total % 2 === 1 ? kth(middle) : (kth(middle - 1) + kth(middle)) / 2;
  return { range, median: Math.floor(median), ranges: bucketsOf(start, step, counts) };
}

/** A set's members by position: the members before each word summed once, then each look-up a binary search. */
class Members {
  private readonly before: Int32Array;

  /** `before`: where to keep the counts (the set's length + 1), else made. */
  constructor(
    private readonly set: Bitset,
    before?: Int32Array,
  ) {
    this.before = before ?? new Int32Array(set.length + 1);
    this.before[0] = 0;
    for (let w = 0; w < set.length; w++) this.before[w + 1] = this.before[w] + bitCount(set[w]);
  }

  /** Members below document `doc`. */
  below(doc: number): number {
    const whole = doc >>> 5;
    if (whole >= this.set.length) return this.before[this.set.length];
    return this.before[whole] + ((doc & 31) === 0 ? 0 : bitCount(this.set[whole] & ((1 << (doc & 31)) - 1)));
  }

  /** The k-th (0-based) member; the set has more than k. */
  nth(k: number): number {
    let lo = 0;
    let hi = this.set.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.before[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    let bits = this.set[lo];
    for (let left = k - this.before[lo]; left > 0; left--) bits &= bits - 1;
    return (lo << 5) + 31 - Math.clz32(bits & -bits);
  }
}

/**
 * `prices` in ascending order, in place (a typed array's own sort took 11 ms for 100,000 prices).
 * Prices in whole cents, as shops send them, are sorted as whole numbers of cents (two passes of
 * 12 bits below 167,772.16); other positive numbers (and zeros) by their bits, which order as the
 * numbers do (four passes of 16 bits). Anything else falls back to that sort.
 */
export function sortPrices(prices: Float64Array, buffers?: Buffers): Float64Array {
  for (let i = 0; i < prices.length; i++) {
    const price = prices[i];
    if (!(price >= 0) || (price === 0 && 1 / price < 0)) return prices.sort();
  }
  if (prices.length < 256) return prices.sort();
  // The radix sorts' work arrays: the buffers', else made.
  const work = (name: string, length: number) => buffers?.uint32(name, length) ?? new Uint32Array(length);
  return sortCents(prices, work) ?? sortBits(prices, work);
}

type WorkArrays = (name: string, length: number) => Uint32Array;

/**
 * Non-negative prices that are all whole numbers of cents below 2^32 cents, sorted by them (a
 * number of cents that gives the price back exactly stands for that price alone, and cents order
 * as prices do); null, untouched, when one is not.
 */
function sortCents(prices: Float64Array, work: WorkArrays): Float64Array | null {
  let from = work('sort from', prices.length);
  let max = 0;
  for (let i = 0; i < prices.length; i++) {
    const cents = Math.round(prices[i] * 100);
    if (cents > 0xffffffff || cents / 100 !== prices[i]) return null;
    from[i] = cents;
    if (cents > max) max = cents;
  }
  const bits = 32 - Math.clz32(max);
  const passes = Math.max(1, Math.ceil(bits / 12));
  const width = Math.ceil(bits / passes);
  const mask = (1 << width) - 1;
  let to = work('sort to', prices.length);
  const counts = new Int32Array(1 << width);
  for (let shift = 0; shift < passes * width; shift += width) {
    counts.fill(0);
    for (let i = 0; i < from.length; i++) counts[(from[i] >>> shift) & mask]++;
    for (let digit = 0, sum = 0; digit < counts.length; digit++) {
      const count = counts[digit];
      counts[digit] = sum;
      sum += count;
    }
    for (let i = 0; i < from.length; i++) to[counts[(from[i] >>> shift) & mask]++] = from[i];
    [from, to] = [to, from];
  }
  for (let i = 0; i < from.length; i++) prices[i] = from[i] / 100;
  return prices;
}

/** Non-negative prices (zeros are +0) sorted by their bits: four passes of 16 bits. */
function sortBits(prices: Float64Array, work: WorkArrays): Float64Array {
  const words = new Uint32Array(prices.buffer, prices.byteOffset, prices.length * 2); // low, high per price (little-endian)
  let from = work('sort from', words.length);
  from.set(words);
  let to = work('sort to', from.length);
  const counts = new Int32Array(1 << 16);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < prices.length; i++) counts[(from[2 * i + word] >>> shift) & 0xffff]++;
    let sum = 0;
    for (let digit = 0; digit < counts.length; digit++) {
      const count = counts[digit];
      counts[digit] = sum;
      sum += count;
    }
    for (let i = 0; i < prices.length; i++) {
      const at = 2 * counts[(from[2 * i + word] >>> shift) & 0xffff]++;
      to[at] = from[2 * i];
      to[at + 1] = from[2 * i + 1];
    }
    [from, to] = [to, from];
  }
  words.set(from);
  return prices;
}
