import fc from 'fast-check';
import { expect, it } from 'vitest';
import { bitCount } from '../indexing';
import { countRanks, newMulti, PLANES, type CountTask } from './count-kernel';
import { chunkBounds, countInParallel, finishInParallel, sharedFor, startInParallel, workerChunksOfLastCall } from './parallel-count';

const shared = <T extends Int32Array | Uint32Array | Uint16Array | Float64Array>(make: (buffer: SharedArrayBuffer) => T, bytes: number) => make(new SharedArrayBuffer(bytes));

const FIRST_PARAM = 1;

/** A made-up index in shared memory: groups of 1–4 consecutive ranks, 0–8 values per rank. */
function layout(n: number, seed: number) {
  let state = seed >>> 0 || 1;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const valueCount = 300;
  const dims = 5;
  const groupOfRank = shared((b) => new Int32Array(b), 4 * n);
  for (let rank = 0, group = 0; rank < n; group++) for (let size = 1 + Math.floor(random() * 4); size > 0 && rank < n; size--) groupOfRank[rank++] = group;
  const groupOrder = shared((b) => new Int32Array(b), 4 * n);
  for (let rank = 0; rank < n; rank++) groupOrder[rank] = rank;
  const lists = Array.from({ length: n }, () => [...new Set(Array.from({ length: Math.floor(random() * 9) }, () => Math.floor(random() * (valueCount + dims))))]);
  const postOffsets = shared((b) => new Int32Array(b), 4 * (n + 1));
  lists.forEach((list, rank) => (postOffsets[rank + 1] = postOffsets[rank] + list.length));
  const postings = shared((b) => new Uint16Array(b), 2 * Math.max(1, postOffsets[n]));
  lists.forEach((list, rank) => postings.set(list, postOffsets[rank]));
  const positionOfRank = shared((b) => new Int32Array(b), 4 * n);
  const order = Array.from({ length: n }, (_, rank) => rank).sort(() => random() - 0.5);
  order.forEach((rank, position) => (positionOfRank[rank] = position));
  // Sort keys by document (ties and missing ones among them) and the id ranks that break ties.
  const keys = shared((b) => new Float64Array(b), 8 * n);
  for (let doc = 0; doc < n; doc++) keys[doc] = random() < 0.1 ? NaN : Math.floor(random() * 50);
  const idRank = shared((b) => new Int32Array(b), 4 * n);
  Array.from({ length: n }, (_, doc) => doc)
    .sort(() => random() - 0.5)
    .forEach((doc, rank) => (idRank[doc] = rank));
  const valueDim = Int32Array.from({ length: valueCount }, (_, value) => value % dims);
  // Each rank's param dimensions (from FIRST_PARAM on), as ShopIndex.paramDims.
  const paramDims = shared((b) => new Uint32Array(b), 8 * n);
  lists.forEach((list, rank) => list.forEach((value) => value < valueCount && valueDim[value] >= FIRST_PARAM && (paramDims[2 * rank] |= 1 << (valueDim[value] - FIRST_PARAM))));
  const index = { postOffsets, postings, groupOfRank, groupOrder, valueDim, paramDims, n, valueKey: new Array<string>(valueCount), dims: new Array<unknown>(dims) };
  // The same keys by rank (CountTask.valuesByRank).
  const keysByRank = shared((b) => new Float64Array(b), 8 * n);
  for (let rank = 0; rank < n; rank++) keysByRank[rank] = keys[groupOrder[rank]];
  return { index, positionOfRank, keys, keysByRank, idRank, random, outLength: valueCount + dims };
}

/**
 * A counting task over every word of `ranks` of a made-up index, picking representatives (by
 * position, or by key and id) or not; with `byDims`, a group by its param dimensions (CountTask.multi).
 */
function countTask(made: ReturnType<typeof layout>, ranks: Uint32Array, collapse: boolean, pick: 'none' | 'position' | 'key' | 'rank' = 'none', sign = 1, byDims = false): CountTask {
  const { index, positionOfRank, keys, keysByRank, idRank, outLength } = made;
  return {
    ranks,
    fromWord: 0,
    toWord: ranks.length,
    postOffsets: index.postOffsets,
    postings: index.postings,
    groupOfRank: index.groupOfRank,
    groupOrder: index.groupOrder,
    collapse,
    out: new Int32Array(outLength),
    stamp: new Int32Array(outLength).fill(-1),
    valueDim: index.valueDim,
    multi: byDims ? newMulti(index.valueDim.length) : null,
    planes: byDims ? new Int32Array(PLANES) : null,
    paramDims: byDims ? index.paramDims : null,
    firstParamDim: FIRST_PARAM,
    pick: pick !== 'none',
    positionOfRank: pick === 'position' ? positionOfRank : null,
    values: pick === 'key' ? keys : null,
    valuesByRank: pick === 'rank' ? keysByRank : null,
    sign,
    idRank: pick === 'key' || pick === 'rank' ? idRank : null,
    reps: pick !== 'none' ? new Uint32Array(ranks.length) : null,
    positions: pick !== 'none' ? new Uint32Array(ranks.length) : null,
  };
}

it('cuts a set into chunks with their shares of its members behind them, each at the start of a group', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 4000 }), fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 20 }), (n, seed, density, chunks) => {
      const { index, random } = layout(n, seed);
      const ranks = new Uint32Array((n + 31) >>> 5);
      for (let rank = 0; rank < n; rank++) if (random() < density * density) ranks[rank >>> 5] |= 1 << (rank & 31);
      const bounds = chunkBounds(ranks, index.groupOfRank, chunks);
      const members = (from: number, to: number) => ranks.subarray(from, to).reduce((sum, word) => sum + bitCount(word), 0);
      const total = members(0, ranks.length);
      expect(bounds.length).toBe(chunks + 1);
      expect(bounds[0]).toBe(0);
      expect(bounds[chunks]).toBe(ranks.length);
      for (let chunk = 1; chunk < chunks; chunk++) {
        const bound = bounds[chunk];
        expect(bound).toBeGreaterThanOrEqual(bounds[chunk - 1]);
        expect(bound).toBeLessThanOrEqual(ranks.length);
        // At least its share behind it; the word before the first with that share had less (before the move to a group's start).
        expect(members(0, bound) * chunks).toBeGreaterThanOrEqual(total * chunk);
        const first = bound << 5;
        if (bound > 0 && bound < ranks.length && first < n) expect(index.groupOfRank[first]).not.toBe(index.groupOfRank[first - 1]);
      }
    }),
    { numRuns: 300 },
  );
});

it('counts and picks (by kept position, or by sort key and id) on two threads exactly as on one', async () => {
  let workerCounted = 0;
  // Again until the worker has taken part (it takes chunks as soon as it wakes; a late one may find none left).
  for (const deadline = Date.now() + 20_000; workerCounted === 0 && Date.now() < deadline; ) {
    for (const [n, density, collapse, pick, sign, byDims] of [
      [5000, 0.05, true, 'none', 1, false],
      [5000, 0.6, true, 'position', 1, false],
      [4000, 0.3, false, 'none', 1, false],
      [6000, 0.9, true, 'position', 1, true],
      [3000, 0.0, true, 'position', 1, true],
      [5000, 0.5, true, 'key', 1, true],
      [7000, 0.8, true, 'key', -1, false],
      [6000, 0.7, true, 'rank', 1, true],
      [5000, 0.4, true, 'rank', -1, false],
      [5000, 0.6, true, 'none', 1, true],
    ] as const) {
      const made = layout(n, n * 7 + Math.round(density * 100));
      const { index, random } = made;
      const words = (n + 31) >>> 5;
      const ranks = shared((b) => new Uint32Array(b), 4 * words);
      // Dense and sparse stretches: the halves' work differs.
      for (let rank = 0; rank < n; rank++) if (random() < (rank < n / 3 ? density : density / 4)) ranks[rank >>> 5] |= 1 << (rank & 31);
      const task = (ranksOfTask: Uint32Array) => countTask(made, ranksOfTask, collapse, pick, sign, byDims);
      const alone = task(ranks.slice());
      const pickedAlone = countRanks(alone);
      if (pick === 'rank') {
        // Keys by rank pick as the same keys by document do.
        const byDocument = countTask(made, ranks.slice(), collapse, 'key', sign, byDims);
        expect(countRanks(byDocument)).toBe(pickedAlone);
        expect(Array.from(byDocument.reps!)).toEqual(Array.from(alone.reps!));
      }
      const state = sharedFor(index, ranks, FIRST_PARAM);
      // The worker starts with the first call (a call it is not ready for answers null, untouched).
      let together: CountTask | null = null;
      let picked: number | null = null;
      for (const deadline = Date.now() + 10_000; picked === null && Date.now() < deadline; ) {
        together = task(ranks);
        picked = countInParallel(together, state);
        if (picked === null) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(picked, `n ${n} density ${density} pick ${pick} by dimensions ${byDims}`).toBe(pickedAlone);
      workerCounted += workerChunksOfLastCall();
      expect(Array.from(together!.out!)).toEqual(Array.from(alone.out!));
      if (pick !== 'none') {
        if (pick === 'key' || pick === 'rank') expect(pickedAlone).toBeGreaterThan(0);
        expect(Array.from(together!.reps!)).toEqual(Array.from(alone.reps!));
        expect(Array.from(together!.positions!)).toEqual(Array.from(alone.positions!));
      }
      expect(ranks.every((word) => word === 0)).toBe(true); // every chunk cleared
    }
  }
  expect(workerCounted).toBeGreaterThan(0);
});

it('gives the worker one task at a time: one started meanwhile is refused (it counts on one thread)', async () => {
  const n = 20_000;
  const made = layout(n, 99);
  const { index, random } = made;
  const words = (n + 31) >>> 5;
  const ranks = shared((b) => new Uint32Array(b), 4 * words);
  const pattern = new Uint32Array(words);
  for (let rank = 0; rank < n; rank++) if (random() < 0.5) pattern[rank >>> 5] |= 1 << (rank & 31);
  const task = () => countTask(made, ranks, true);
  const alone = { ...task(), ranks: pattern.slice() };
  countRanks(alone);
  const state = sharedFor(index, ranks, FIRST_PARAM);
  let first: ReturnType<typeof startInParallel> = null;
  let firstTask: CountTask | null = null;
  for (const deadline = Date.now() + 10_000; first === null && Date.now() < deadline; ) {
    ranks.set(pattern);
    firstTask = task();
    first = startInParallel(firstTask, state);
    if (first === null) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(first).not.toBeNull();
  expect(startInParallel(task(), state)).toBeNull(); // the worker is the first task's
  finishInParallel(first!);
  expect(Array.from(firstTask!.out!)).toEqual(Array.from(alone.out!));
  ranks.set(pattern);
  const again = task();
  expect(countInParallel(again, state)).not.toBeNull(); // free again
  expect(Array.from(again.out!)).toEqual(Array.from(alone.out!));
});
