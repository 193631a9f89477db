import { type Bitset, type ShopIndex, emptySet } from '../indexing';
import { Buffers } from './buffers';
import { clearMulti } from './count-kernel';
import { type Shared } from './parallel-count';

// What a query works in: buffers of the catalog's size kept with the index, and the
// least-recently-used maps the memo keeps per filter set.

/** Sets of at least this many documents are counted on two threads (a handoff costs ~0.1 ms). */
export const PARALLEL_FROM = 20_000;

/**
 * Buffers of the size of the catalog that every query needs, kept with the index instead of being
 * allocated per query (at a million products they would otherwise make ~5 MB of garbage a query
 * and frequent full collections). Queries run synchronously, one at a time, so one set is enough.
 */
// `ranks` in shared memory (the counting worker reads it); `prices`: made when a query with
// locations first needs it (8 MB at a million products); `buffers`: the rest, each made when a
// query first needs it; `parallelFrom`: the query's.
export type Work = {
  ranks: Bitset;
  buffers: Buffers;
  repSet: Bitset;
  positions: Bitset;
  prices: Float64Array | null;
  groupStamp: Int32Array;
  mark: number;
  shared?: Shared | null;
  parallelFrom: number;
  paramDims: boolean; // count a group with several documents in a set by its param dimensions (CountTask.multi)
};

export function workOf(index: ShopIndex): Work {
  let work = index.memo.work;
  if (!work) {
    work = {
      ranks: new Uint32Array(new SharedArrayBuffer(4 * ((index.n + 31) >>> 5))),
      buffers: new Buffers(),
      repSet: emptySet(index.n),
      positions: emptySet(index.n),
      prices: null,
      groupStamp: new Int32Array(index.n),
      mark: 0,
      parallelFrom: PARALLEL_FROM,
      paramDims: true,
    };
    index.memo.work = work;
  }
  return work;
}

/** CountTask.multi for a counting pass (cleared). */
export function multiFor(work: Work, valueCount: number): Int32Array {
  const multi = work.buffers.int32('multi', 2 * valueCount);
  clearMulti(multi);
  return multi;
}

/** A new mark for `groupStamp`: a group is taken in this query when its stamp equals it. */
export function nextMark(work: Work): number {
  if (work.mark === 0x7fffffff) {
    work.groupStamp.fill(0);
    work.mark = 0;
  }
  return ++work.mark;
}

export function recall<T>(kept: Map<string, T>, key: string): T | undefined {
  const hit = kept.get(key);
  if (hit !== undefined) {
    kept.delete(key); // most recently used last
    kept.set(key, hit);
  }
  return hit;
}

export function keep<T>(kept: Map<string, T>, key: string, value: T, most: number): void {
  kept.set(key, value);
  while (kept.size > most) kept.delete(kept.keys().next().value!);
}
