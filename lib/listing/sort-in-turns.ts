// Sorting a million documents takes ~0.5 s; done in one call it would hold the event loop (and every
// query of the process) that long while an index is built. This sorts in slices and merges them,
// giving the event loop a turn after each slice sorted and every ~130,000 elements merged (each
// a few tens of milliseconds with the comparators of the index).

const SLICE = 1 << 15;
const TURN = 1 << 17;

function merge(from: Int32Array, to: Int32Array, lo: number, mid: number, hi: number, compare: (a: number, b: number) => number): void {
  let i = lo;
  let j = mid;
  let k = lo;
  while (i < mid && j < hi) to[k++] = compare(from[i], from[j]) <= 0 ? from[i++] : from[j++];
  while (i < mid) to[k++] = from[i++];
  while (j < hi) to[k++] = from[j++];
}

/** Sorts `items` in place by `compare` (a total order), awaiting `pause()` between slices. */
export async function sortInTurns(items: Int32Array, compare: (a: number, b: number) => number, pause: () => Promise<void>): Promise<void> {
  const n = items.length;
  let since = 0;
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
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      merge(from, to, lo, mid, hi, compare);
      since += hi - lo;
      if (since >= TURN) {
        since = 0;
        await pause();
      }
    }
    [from, to] = [to, from];
  }
  if (from !== items) items.set(from);
}
