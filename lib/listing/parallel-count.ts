import { Worker } from 'node:worker_threads';
import { log } from '@/lib/runtime/log';
import { bitCount } from './bitset';
import { countRanks, KERNEL_SOURCE, type CountTask } from './count-kernel';

// Counting a large result on two threads. The index keeps what counting reads in shared memory;
// one counting worker per process counts the upper half of the set's ranks (split where a group
// starts) while the calling thread counts the lower half, then its counts are added in and its
// representatives marked. A query stays synchronous: the calling thread waits on an Atomics cell
// for the worker's half (measured on these machines: two threads halve a count; the handoff costs
// ~0.1 ms). Whenever the worker is not ready (starting, not yet holding the index or the order),
// the calling thread counts alone.

/** What the worker needs of an index: its arrays, and where it leaves its half's results. */
export type Shared = {
  id: number;
  postOffsets: Int32Array;
  postings: Uint16Array | Int32Array;
  groupOfRank: Int32Array;
  groupOrder: Int32Array;
  valueDim: Int32Array;
  ranks: Uint32Array;
  out: Int32Array; // the worker's counts
  reps: Uint32Array; // the worker's representatives, by document
  positions: Uint32Array; // and by position in the kept order
};

// The control cells, shared with the worker.
const STATE = 0; // IDLE, TASK (posted), DONE
const INDEX_LOADED = 1; // the id of the index the worker holds
const POSITIONS_LOADED = 2; // the id of the kept order positions it holds
const FROM_WORD = 3;
const COLLAPSE = 4;
const COUNTS = 5; // 1: count values (out), 0: pick only
const PICK = 6;
const PICKED = 7; // the worker's representatives picked
const VALUES_LOADED = 8; // the id of the sort keys it holds
const BY_VALUES = 9; // 1: pick by the sort keys (then the id), 0: by position in the kept order
const SIGN = 10; // the keys' direction: 1 ascending, -1 descending
const IDLE = 0;
const TASK = 1;
const DONE = 2;

/** The worker's program: the kernel from its source, and a loop waiting for tasks. */
function workerSource(): string {
  return `
const { parentPort, workerData } = require('node:worker_threads');
${KERNEL_SOURCE}
const control = workerData.control;
let shared = null;
let positionOfRank = null;
let keys = null;
parentPort.on('message', (message) => {
  if (message.type === 'index') {
    shared = message.shared;
    Atomics.store(control, ${INDEX_LOADED}, shared.id);
  } else if (message.type === 'positions') {
    positionOfRank = message.positionOfRank;
    Atomics.store(control, ${POSITIONS_LOADED}, message.id);
  } else {
    keys = { values: message.values, idRank: message.idRank };
    Atomics.store(control, ${VALUES_LOADED}, message.id);
  }
  Atomics.notify(control, ${INDEX_LOADED});
});
(async () => {
  for (;;) {
    const state = Atomics.load(control, ${STATE});
    if (state !== ${TASK}) {
      const waiting = Atomics.waitAsync(control, ${STATE}, state);
      if (waiting.async) await waiting.value;
      continue;
    }
    const counts = control[${COUNTS}] === 1;
    const pick = control[${PICK}] === 1;
    const byValues = pick && control[${BY_VALUES}] === 1;
    if (counts) shared.out.fill(0);
    if (pick) {
      shared.reps.fill(0);
      shared.positions.fill(0);
    }
    const picked = countRanks({
      ranks: shared.ranks, fromWord: control[${FROM_WORD}], toWord: shared.ranks.length,
      postOffsets: shared.postOffsets, postings: shared.postings, groupOfRank: shared.groupOfRank, groupOrder: shared.groupOrder,
      collapse: control[${COLLAPSE}] === 1,
      out: counts ? shared.out : null, stamp: counts ? new Int32Array(shared.out.length).fill(-1) : null, valueDim: shared.valueDim,
      pick, positionOfRank: pick && !byValues ? positionOfRank : null,
      values: byValues ? keys.values : null, sign: control[${SIGN}], idRank: byValues ? keys.idRank : null,
      reps: pick ? shared.reps : null, positions: pick && !byValues ? shared.positions : null,
    });
    Atomics.store(control, ${PICKED}, picked);
    Atomics.store(control, ${STATE}, ${DONE});
    Atomics.notify(control, ${STATE});
  }
})();
`;
}

type Counter = { worker: Worker; control: Int32Array; broken: boolean; used: boolean };

const KEY = Symbol.for('vitrine.counting-worker');
type Holder = { [KEY]?: Counter | null };

function counter(): Counter | null {
  const holder = globalThis as Holder;
  if (holder[KEY] === undefined) {
    try {
      const control = new Int32Array(new SharedArrayBuffer(16 * 4));
      const worker = new Worker(workerSource(), { eval: true, workerData: { control } });
      worker.unref();
      const started: Counter = { worker, control, broken: false, used: false };
      worker.on('error', (error) => {
        started.broken = true;
        log(`the counting worker failed (counting goes on in one thread): ${String(error)}`);
      });
      worker.on('exit', () => (started.broken = true));
      holder[KEY] = started;
    } catch (error) {
      log(`no counting worker (counting goes on in one thread): ${String(error)}`);
      holder[KEY] = null;
    }
  }
  const current = holder[KEY];
  return current && !current.broken ? current : null;
}

const ids = new WeakMap<ArrayBufferLike, number>();
let lastId = 0;
const idOf = (buffer: ArrayBufferLike) => ids.get(buffer) ?? (ids.set(buffer, ++lastId), lastId);
// Sort keys go with the ids that break their ties: one id per pair (the keys' values change from
// query to query, not their memory).
const keyIds = new WeakMap<ArrayBufferLike, { idRank: ArrayBufferLike; id: number }>();
function keysIdOf(values: ArrayBufferLike, idRank: ArrayBufferLike): number {
  const known = keyIds.get(values);
  if (known && known.idRank === idRank) return known.id;
  keyIds.set(values, { idRank, id: ++lastId });
  return lastId;
}

/** Whether the worker holds these (sending them once and waiting a little for it). */
function loaded(state: Counter, cell: number, id: number, send: () => void): boolean {
  if (Atomics.load(state.control, cell) === id) return true;
  send();
  // The worker takes messages while it waits for tasks: a few milliseconds at most.
  const deadline = performance.now() + 50;
  while (Atomics.load(state.control, cell) !== id && performance.now() < deadline) Atomics.wait(state.control, INDEX_LOADED, Atomics.load(state.control, INDEX_LOADED), 5);
  return Atomics.load(state.control, cell) === id;
}

/**
 * Runs `task` (over all of its ranks' words) on two threads; returns the representatives picked,
 * or null when it could not (the task is then untouched). `shared`: the index's shared arrays
 * (null: not in shared memory).
 */
export function countInParallel(task: CountTask, shared: Shared | null): number | null {
  const state = counter();
  if (!state || !shared || task.fromWord !== 0 || task.toWord !== task.ranks.length || task.ranks !== shared.ranks || task.valueDim !== shared.valueDim) return null;
  // A pick compares by positions in a kept order or else by the sort keys and ids: the worker
  // reads them in shared memory (keys elsewhere: one thread).
  const inShared = (array: { buffer: ArrayBufferLike } | null): array is { buffer: SharedArrayBuffer } => array !== null && array.buffer instanceof SharedArrayBuffer;
  const { positionOfRank, values, idRank } = task;
  const byPosition = task.pick && inShared(positionOfRank);
  const byValues = task.pick && !byPosition && inShared(values) && inShared(idRank);
  if (task.pick && !byPosition && !byValues) return null;
  if (!loaded(state, INDEX_LOADED, shared.id, () => state.worker.postMessage({ type: 'index', shared }))) return null;
  if (byPosition && positionOfRank) {
    const positionsId = idOf(positionOfRank.buffer);
    if (!loaded(state, POSITIONS_LOADED, positionsId, () => state.worker.postMessage({ type: 'positions', id: positionsId, positionOfRank }))) return null;
  }
  if (byValues && values && idRank) {
    const valuesId = keysIdOf(values.buffer, idRank.buffer);
    if (!loaded(state, VALUES_LOADED, valuesId, () => state.worker.postMessage({ type: 'values', id: valuesId, values, idRank }))) return null;
  }
  const middle = splitWord(task.ranks, task.groupOfRank);
  const { control } = state;
  control[FROM_WORD] = middle;
  control[COLLAPSE] = task.collapse ? 1 : 0;
  control[COUNTS] = task.out ? 1 : 0;
  control[PICK] = task.pick ? 1 : 0;
  control[BY_VALUES] = byValues ? 1 : 0;
  control[SIGN] = task.sign;
  Atomics.store(control, STATE, TASK);
  Atomics.notify(control, STATE);
  let picked = countRanks({ ...task, toWord: middle });
  // The worker's half: it is counting now (a million documents take ~50 ms); a stuck worker is
  // given up, and this query fails.
  const deadline = performance.now() + 2_000;
  while (Atomics.load(control, STATE) === TASK) {
    if (performance.now() > deadline) {
      state.broken = true;
      void state.worker.terminate();
      throw new Error('the counting worker did not answer');
    }
    Atomics.wait(control, STATE, TASK, 100);
  }
  if (task.out) {
    const { out } = task;
    for (let i = 0; i < out.length; i++) out[i] += shared.out[i];
  }
  if (task.pick && task.reps) {
    for (let w = 0; w < shared.reps.length; w++) task.reps[w] |= shared.reps[w];
    if (task.positions) for (let w = 0; w < shared.positions.length; w++) task.positions[w] |= shared.positions[w];
    picked += Atomics.load(control, PICKED);
  }
  Atomics.store(control, STATE, IDLE);
  if (!state.used) {
    state.used = true;
    log('listing counts large results on two threads');
  }
  return picked;
}

/**
 * Where the worker's half of a set starts: the first word with half the set's members behind it (a
 * set is rarely spread evenly over the ranks), moved on to the first word whose first rank starts
 * a group (a group's documents are counted by one thread).
 */
export function splitWord(ranks: Uint32Array, groupOfRank: Int32Array): number {
  let members = 0;
  for (let w = 0; w < ranks.length; w++) members += bitCount(ranks[w]);
  let middle = 0;
  for (let behind = 0; middle < ranks.length && behind * 2 < members; middle++) behind += bitCount(ranks[middle]);
  while (middle < ranks.length && (middle << 5) < groupOfRank.length && groupOfRank[middle << 5] === groupOfRank[(middle << 5) - 1]) middle++;
  return middle;
}

/** The shared arrays an index's counting reads and the worker's result buffers; null unless the index keeps them in shared memory. */
export function sharedFor(
  index: { postOffsets: Int32Array; postings: Uint16Array | Int32Array; groupOfRank: Int32Array; groupOrder: Int32Array; valueDim: Int32Array; n: number; valueKey: string[]; dims: unknown[] },
  ranks: Uint32Array,
): Shared | null {
  const arrays = [index.postOffsets, index.postings, index.groupOfRank, index.groupOrder, ranks];
  if (!arrays.every((array) => array.buffer instanceof SharedArrayBuffer)) return null;
  const words = (index.n + 31) >>> 5;
  return {
    // Per set of work buffers (an availability patch's copy of an index shares its postings, not its ranks).
    id: idOf(ranks.buffer),
    postOffsets: index.postOffsets,
    postings: index.postings,
    groupOfRank: index.groupOfRank,
    groupOrder: index.groupOrder,
    valueDim: index.valueDim, // copied to the worker once, with the rest
    ranks,
    out: new Int32Array(new SharedArrayBuffer(4 * (index.valueKey.length + index.dims.length))),
    reps: new Uint32Array(new SharedArrayBuffer(4 * words)),
    positions: new Uint32Array(new SharedArrayBuffer(4 * words)),
  };
}
