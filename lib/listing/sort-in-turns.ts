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
