// Sorting a million documents takes ~0.5 s; done in one call it would hold the event loop (and every
// query of the process) that long while an index is built. This sorts in slices and merges them,
// giving the event loop a turn after each slice sorted and every ~130,000 elements merged (each
// a few tens of milliseconds with the comparators of the index).

const SLICE = 1 << 15;
const TURN = 1 << 17;

/** Merges from[lo..mid) and from[mid..hi) into to[lo..hi), pausing every TURN elements. */
async function merge(from: Int32Array, to: Int32Array, lo: number, mid: number, hi: number, compare: (a: number, b: number) => number, pause: () => Promise<void>): Promise<void> {
  let i = lo;
  let j = mid;
  let k = lo;
  while (k < hi) {
    const stop = Math.min(hi, k + TURN);
    while (k < stop) to[k++] = j >= hi || (i < mid && compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
    await pause();
  }
}

/** Sorts `items` in place by `compare` (a total order), awaiting `pause()` between slices. */
export async function sortInTurns(items: Int32Array, compare: (a: number, b: number) => number, pause: () => Promise<void>): Promise<void> {
  const n = items.length;
  if (n <= SLICE) {
    items.sort(compare);
    return;
  }
  for (let start = 0; start < n; start += SLICE) {
    items.subarray(start, Math.min(n, start + SLICE)).sort(compare);
    await pause();
  }
  let from: Int32Array = items;
  let to: Int32Array = new Int32Array(n);
  for (let width = SLICE; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) await merge(from, to, lo, Math.min(n, lo + width), Math.min(n, lo + 2 * width), compare, pause);
    [from, to] = [to, from];
  }
  if (from !== items) items.set(from);
}

/**
 * Sorts `items` stably by `keys[item]` ascending (finite numbers; -0 counts as 0): a radix sort
 * on the keys' bits, four passes of 16 bits, a turn for the event loop after each. Items in id
 * order come out by (key, id). ~10× faster than sortInTurns with a comparator over 1,000,000.
 */
export async function sortByKeyInTurns(items: Int32Array, keys: Float64Array, pause: () => Promise<void>): Promise<void> {
  const n = items.length;
  // Each item's key as two 32-bit halves whose unsigned order is the numbers' order.
  const bits = new Float64Array(1);
  const halves = new Uint32Array(bits.buffer);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const [low, high] = little ? [0, 1] : [1, 0];
  const keyLow = new Uint32Array(n);
  const keyHigh = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const item = items[i];
    bits[0] = keys[item] + 0; // -0 + 0 is 0
    const negative = halves[high] >>> 31 === 1;
    keyLow[i] = negative ? ~halves[low] >>> 0 : halves[low];
    keyHigh[i] = negative ? ~halves[high] >>> 0 : (halves[high] ^ 0x80000000) >>> 0;
  }
  let from: Int32Array = items;
  let to: Int32Array = new Int32Array(n);
  let fromLow = keyLow;
  let fromHigh = keyHigh;
  let toLow = new Uint32Array(n);
  let toHigh = new Uint32Array(n);
  const counts = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const digitOf = (i: number) => (pass === 0 ? fromLow[i] & 0xffff : pass === 1 ? fromLow[i] >>> 16 : pass === 2 ? fromHigh[i] & 0xffff : fromHigh[i] >>> 16);
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[digitOf(i) + 1]++;
    if (counts[digitOf(0) + 1] === n) continue; // every item has the same digit: nothing moves
    for (let d = 0; d < 65536; d++) counts[d + 1] += counts[d];
    for (let i = 0; i < n; i++) {
      const at = counts[digitOf(i)]++;
      to[at] = from[i];
      toLow[at] = fromLow[i];
      toHigh[at] = fromHigh[i];
    }
    [from, to] = [to, from];
    [fromLow, toLow] = [toLow, fromLow];
    [fromHigh, toHigh] = [toHigh, fromHigh];
    await pause();
  }
  if (from !== items) items.set(from);
}

/**
 * The two sorted lists merged into one (`before(x, y)`: x goes first; ties take `a`'s first),
 * pausing every TURN elements.
 */
export async function mergeSortedInTurns(a: Int32Array, b: Int32Array, before: (x: number, y: number) => boolean, pause: () => Promise<void>): Promise<Int32Array> {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; ) {
    const stop = Math.min(out.length, k + TURN);
    while (k < stop) out[k++] = j >= b.length || (i < a.length && !before(b[j], a[i])) ? a[i++] : b[j++];
    await pause();
  }
  return out;
}
