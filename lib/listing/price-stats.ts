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

  const ranges: PriceBucket[] = [];
  let step = roundStep((range.max - range.min) / 5);
  let start = Math.floor(range.min / step) * step;
  while (Math.floor((max - start) / step) + 1 > 5) {
    step = roundStep(step + 1);
    start = Math.floor(range.min / step) * step;
  }
  const buckets = Math.min(5, Math.floor((max - start) / step) + 1);
  const counts = new Array<number>(buckets).fill(0);
  for (let i = 0; i < length; i++) counts[Math.min(buckets - 1, Math.floor((prices[i] - start) / step))]++;
  for (let b = 0; b < buckets; b++) {
    if (counts[b] === 0) continue;
    const from = start + b * step;
    const bucket = {} as PriceBucket;
    if (from > 0) bucket.from = from;
    if (b < buckets - 1) bucket.to = from + step;
    bucket.count = counts[b];
    ranges.push(bucket);
  }

  const middle = length >>> 1;
  const median = length % 2 === 1 ? select(prices, length, middle) : (select(prices, length, middle - 1) + select(prices, length, middle)) / 2;
  return { range, median: Math.floor(median), ranges };
}
