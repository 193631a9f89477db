import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { log } from '@/lib/runtime/log';
import { ThreadHolder, type WorkerThread } from '@/lib/runtime/worker-thread';
import { bitCount } from '../indexing';
import { countRanks, KERNEL_SOURCE, PLANES, type CountTask } from './count-kernel';
import { processWide } from '@/lib/process-wide';

// Counting a large result on two threads. The index keeps what counting reads in shared memory;
// the set's ranks are cut into chunks of about as many members (each starting where a group
// starts), and one counting worker per process takes chunks while the calling thread takes
// others, each the next one left; then the worker's counts are added in and its representatives
// marked. A query stays synchronous. The calling thread never waits for the worker to start: a
// worker woken late (on these machines it sometimes is, by ~10 ms) finds the chunks taken, and
// the call waits at most for the chunk the worker is on (measured: two threads halve a count;
// the handoff costs ~0.1 ms). Whenever the worker is not ready (starting, not yet holding the
// index or the order), the calling thread counts alone.

/**
 * Postings other than the index's, laid out by rank as its are (a location query's new values,
 * whose markers mean presence), in shared memory.
 */
export type OtherPostings = { id: number; postOffsets: Int32Array; postings: Uint16Array | Int32Array };

/** What the worker needs of an index: its arrays, and where it leaves its half's results. */
export type Shared = {
  id: number;
  postOffsets: Int32Array;
  postings: Uint16Array | Int32Array;
  groupOfRank: Int32Array;
  groupOrder: Int32Array;
  valueDim: Int32Array;
  paramDims: Uint32Array | null; // ShopIndex.paramDims when in shared memory
  firstParamDim: number;
  ranks: Uint32Array;
  out: Int32Array; // the worker's counts
  reps: Uint32Array; // the worker's representatives, by document
  positions: Uint32Array; // and by position in the kept order
};

// The control cells, shared with the worker.
const STATE = 0; // IDLE, TASK (posted), RUNNING (the worker took it), DONE
const INDEX_LOADED = 1; // the id of the index the worker holds
const POSITIONS_LOADED = 2; // the id of the kept order positions it holds
const CHUNKS = 3; // how many chunks the task has (their bounds from BOUNDS on)
const COLLAPSE = 4;
const COUNTS = 5; // 1: count values (out), 0: pick only
const PICK = 6;
const PICKED = 7; // the worker's representatives picked
const VALUES_LOADED = 8; // the id of the sort keys it holds
const BY_VALUES = 9; // 1: pick by the sort keys (then the id), 0: by position in the kept order
const SIGN = 10; // the keys' direction: 1 ascending, -1 descending
const POSTINGS_LOADED = 11; // the id of the other postings it holds
const BY_OTHER_POSTINGS = 12; // 1: count the other postings (presence markers, no excess)
const NEXT_CHUNK = 13; // the next chunk to take
const TAKEN = 14; // how many chunks the worker took
const BY_DIMS = 15; // 1: a group with several documents is counted by its param dimensions (CountTask.multi)
const BY_RANK = 16; // with BY_VALUES, 1: the sort keys held are by rank (CountTask.valuesByRank)
const BOUNDS = 17; // chunk c is words BOUNDS[c] .. BOUNDS[c + 1]
/** Chunks per task: the most the calling thread waits for is the one the worker is on. */
export const CHUNKS_PER_TASK = 16;
const IDLE = 0;
const TASK = 1;
const DONE = 2;
const RUNNING = 3;

/**
 * The worker's program: the kernel from its source, and a loop waiting for tasks. It blocks on the
 * state cell (Atomics.wait wakes it at once; an event loop's wake-up, promise and garbage collector
 * took ~10 ms now and then) and takes the arrays it is sent off its port synchronously when woken.
 * Nothing is allocated per task, so it never collects garbage while the calling thread waits.
 */
function workerSource(): string {
  return `
const { workerData, receiveMessageOnPort } = require('node:worker_threads');
${KERNEL_SOURCE}
const { control, port } = workerData;
let shared = null;
let positionOfRank = null;
let keys = null;
let other = null;
let stamp = null;
let multi = null;
const planes = new Int32Array(${PLANES});
const task = {
  ranks: null, fromWord: 0, toWord: 0, postOffsets: null, postings: null, groupOfRank: null, groupOrder: null,
  collapse: false, out: null, stamp: null, valueDim: null, multi: null, planes, paramDims: null, firstParamDim: 0,
  pick: false, positionOfRank: null, values: null, valuesByRank: null, sign: 1, idRank: null, reps: null, positions: null,
};
function takeMessages() {
  for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
    const message = received.message;
    if (message.type === 'postings') {
      other = message.postings;
      Atomics.store(control, ${POSTINGS_LOADED}, other.id);
    } else if (message.type === 'index') {
      shared = message.shared;
      stamp = new Int32Array(shared.out.length);
      multi = new Int32Array(2 * shared.valueDim.length);
      Atomics.store(control, ${INDEX_LOADED}, shared.id);
    } else if (message.type === 'positions') {
      positionOfRank = message.positionOfRank;
      Atomics.store(control, ${POSITIONS_LOADED}, message.id);
    } else {
      keys = { values: message.values, idRank: message.idRank };
      Atomics.store(control, ${VALUES_LOADED}, message.id);
    }
    Atomics.notify(control, ${INDEX_LOADED});
  }
}
for (;;) {
  takeMessages();
  const state = Atomics.load(control, ${STATE});
  if (state !== ${TASK}) {
    Atomics.wait(control, ${STATE}, state, 1000);
    continue;
  }
  // Taken back by the calling thread (it did every chunk): nothing to do.
  if (Atomics.compareExchange(control, ${STATE}, ${TASK}, ${RUNNING}) !== ${TASK}) continue;
  const counts = control[${COUNTS}] === 1;
  const pick = control[${PICK}] === 1;
  const byValues = pick && control[${BY_VALUES}] === 1;
  const byOther = control[${BY_OTHER_POSTINGS}] === 1;
  if (counts) {
    shared.out.fill(0);
    stamp.fill(-1);
  }
  if (pick) {
    shared.reps.fill(0);
    shared.positions.fill(0);
  }
  task.ranks = shared.ranks;
  task.postOffsets = byOther ? other.postOffsets : shared.postOffsets;
  task.postings = byOther ? other.postings : shared.postings;
  task.groupOfRank = shared.groupOfRank;
  task.groupOrder = shared.groupOrder;
  task.collapse = control[${COLLAPSE}] === 1;
  task.out = counts ? shared.out : null;
  task.stamp = counts ? stamp : null;
  task.valueDim = byOther ? null : shared.valueDim;
  const byDims = control[${BY_DIMS}] === 1;
  if (byDims) clearMulti(multi);
  task.multi = byDims ? multi : null;
  task.paramDims = byDims ? shared.paramDims : null;
  task.firstParamDim = shared.firstParamDim;
  task.pick = pick;
  task.positionOfRank = pick && !byValues ? positionOfRank : null;
  const byRank = byValues && control[${BY_RANK}] === 1;
  task.values = byValues && !byRank ? keys.values : null;
  task.valuesByRank = byRank ? keys.values : null;
  task.sign = control[${SIGN}];
  task.idRank = byValues ? keys.idRank : null;
  task.reps = pick ? shared.reps : null;
  task.positions = pick && !byValues ? shared.positions : null;
  const chunks = control[${CHUNKS}];
  let picked = 0;
  let taken = 0;
  for (let chunk = Atomics.add(control, ${NEXT_CHUNK}, 1); chunk < chunks; chunk = Atomics.add(control, ${NEXT_CHUNK}, 1)) {
    task.fromWord = control[${BOUNDS} + chunk];
    task.toWord = control[${BOUNDS} + chunk + 1];
    picked += countRanks(task);
    taken++;
  }
  Atomics.store(control, ${PICKED}, picked);
  Atomics.store(control, ${TAKEN}, taken);
  Atomics.store(control, ${STATE}, ${DONE});
  Atomics.notify(control, ${STATE});
}
`;
}

// The thread takes no tasks through its holder (it answers through shared memory): the holder
// starts it, keeps it process-wide and starts another after it stopped; its control cells and
// port are its `own`. `busy`: a task is started and not yet finished (another waits for it: it
// counts on one thread).
type CounterState = { control: Int32Array; port: MessagePort; used: boolean; busy: boolean };
type Counter = WorkerThread<never, never, CounterState>;

const COUNTER = new ThreadHolder<never, never, CounterState>(
  processWide<Counter | null>('counting-worker'),
  () => {
    const control = new Int32Array(new SharedArrayBuffer(4 * (BOUNDS + CHUNKS_PER_TASK + 1)));
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    return { code: { source: workerSource() }, workerData: { control, port: port2 }, transferList: [port2], own: { control, port: port1, used: false, busy: false } };
  },
  { name: 'the counting worker', otherwise: 'counting goes on in one thread' },
);

const ids = new WeakMap<ArrayBufferLike, number>();
let lastId = 0;
const idOf = (buffer: ArrayBufferLike) => ids.get(buffer) ?? (ids.set(buffer, ++lastId), lastId);

/** Other postings to count on two threads, or null when they are not in shared memory. */
export function otherPostings(postOffsets: Int32Array, postings: Uint16Array | Int32Array): OtherPostings | null {
  if (!(postOffsets.buffer instanceof SharedArrayBuffer) || !(postings.buffer instanceof SharedArrayBuffer)) return null;
  return { id: idOf(postings.buffer), postOffsets, postings };
}
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
function loaded(state: CounterState, cell: number, id: number, message: unknown): boolean {
  if (Atomics.load(state.control, cell) === id) return true;
  state.port.postMessage(message);
  Atomics.notify(state.control, STATE); // the worker takes its messages when woken
  // The worker takes messages while it waits for tasks: a few milliseconds at most.
  const deadline = performance.now() + 50;
  while (Atomics.load(state.control, cell) !== id && performance.now() < deadline) Atomics.wait(state.control, INDEX_LOADED, Atomics.load(state.control, INDEX_LOADED), 5);
  return Atomics.load(state.control, cell) === id;
}

let workerChunks = 0;

/** How many chunks the worker counted in the last call that counted on two threads (for tests). */
export function workerChunksOfLastCall(): number {
  return workerChunks;
}

/**
 * Runs `task` (over all of its ranks' words) on two threads; returns the representatives picked,
 * or null when it could not (the task is then untouched). `shared`: the index's shared arrays
 * (null: not in shared memory); `other`: the postings the task counts when not the index's.
 */
export function countInParallel(task: CountTask, shared: Shared | null, other: OtherPostings | null = null): number | null {
  const started = startInParallel(task, shared, other);
  return started && finishInParallel(started);
}

/** A task the worker may be counting chunks of (startInParallel's). */
export type Started = { thread: Counter; state: CounterState; task: CountTask; shared: Shared; bounds: Int32Array };

/**
 * Hands `task` to the worker (as countInParallel) and returns at once, so the calling thread can
 * do other work while the worker counts; finishInParallel then counts the chunks left and gives the
 * representatives picked. Until then the task's arrays, `shared` and the worker are the task's.
 * Null when it cannot (the task is then untouched).
 */
export function startInParallel(task: CountTask, shared: Shared | null, other: OtherPostings | null = null): Started | null {
  const thread = COUNTER.thread();
  const state = thread?.own;
  if (!thread || !state || state.busy || !shared || task.fromWord !== 0 || task.toWord !== task.ranks.length || task.ranks !== shared.ranks) return null;
  if (other ? task.postOffsets !== other.postOffsets || task.postings !== other.postings || task.valueDim !== null || task.pick : task.valueDim !== shared.valueDim) return null;
  if (task.multi && (task.paramDims !== shared.paramDims || task.firstParamDim !== shared.firstParamDim)) return null;
  // A pick compares by positions in a kept order or else by the sort keys and ids: the worker
  // reads them in shared memory (keys elsewhere: one thread).
  const inShared = (array: { buffer: ArrayBufferLike } | null): array is { buffer: SharedArrayBuffer } => array !== null && array.buffer instanceof SharedArrayBuffer;
  const { positionOfRank, idRank } = task;
  const byPosition = task.pick && inShared(positionOfRank);
  // Keys by rank when the task has them, else by document.
  const byRank = task.valuesByRank !== null;
  const values = task.valuesByRank ?? task.values;
  const byValues = task.pick && !byPosition && inShared(values) && inShared(idRank);
  if (task.pick && !byPosition && !byValues) return null;
  if (!loaded(state, INDEX_LOADED, shared.id, { type: 'index', shared })) return null;
  if (other && !loaded(state, POSTINGS_LOADED, other.id, { type: 'postings', postings: other })) return null;
  if (byPosition && positionOfRank) {
    const positionsId = idOf(positionOfRank.buffer);
    if (!loaded(state, POSITIONS_LOADED, positionsId, { type: 'positions', id: positionsId, positionOfRank })) return null;
  }
  if (byValues && values && idRank) {
    const valuesId = keysIdOf(values.buffer, idRank.buffer);
    if (!loaded(state, VALUES_LOADED, valuesId, { type: 'values', id: valuesId, values, idRank })) return null;
  }
  const bounds = chunkBounds(task.ranks, task.groupOfRank, CHUNKS_PER_TASK);
  const { control } = state;
  control.set(bounds, BOUNDS);
  control[CHUNKS] = CHUNKS_PER_TASK;
  control[NEXT_CHUNK] = 0;
  control[COLLAPSE] = task.collapse ? 1 : 0;
  control[COUNTS] = task.out ? 1 : 0;
  control[PICK] = task.pick ? 1 : 0;
  control[BY_VALUES] = byValues ? 1 : 0;
  control[SIGN] = task.sign;
  control[BY_OTHER_POSTINGS] = other ? 1 : 0;
  control[BY_DIMS] = task.multi ? 1 : 0;
  control[BY_RANK] = byRank ? 1 : 0;
  Atomics.store(control, STATE, TASK);
  Atomics.notify(control, STATE);
  state.busy = true;
  return { thread, state, task, shared, bounds };
}

/** Counts what the worker has not taken of a started task, waits for the worker's chunks and adds them in. */
export function finishInParallel(started: Started): number {
  try {
    return finish(started);
  } finally {
    started.state.busy = false;
  }
}

function finish({ thread, state, task, shared, bounds }: Started): number {
  const { control } = state;
  let picked = 0;
  const mine = { ...task };
  for (let chunk = Atomics.add(control, NEXT_CHUNK, 1); chunk < CHUNKS_PER_TASK; chunk = Atomics.add(control, NEXT_CHUNK, 1)) {
    mine.fromWord = bounds[chunk];
    mine.toWord = bounds[chunk + 1];
    picked += countRanks(mine);
  }
  // Every chunk is taken. A worker that has not started is told not to; one that has finishes
  // its last chunk (a stuck worker is given up, and this query fails).
  workerChunks = 0;
  if (Atomics.compareExchange(control, STATE, TASK, IDLE) === TASK) return picked;
  const deadline = performance.now() + 2_000;
  while (Atomics.load(control, STATE) === RUNNING) {
    if (performance.now() > deadline) {
      const reason = new Error('the counting worker did not answer');
      thread.halt(reason);
      void thread.worker.terminate();
      throw reason;
    }
    Atomics.wait(control, STATE, RUNNING, 100);
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
  workerChunks = Atomics.load(control, TAKEN);
  Atomics.store(control, STATE, IDLE);
  if (!state.used) {
    state.used = true;
    log('listing counts large results on two threads');
  }
  return picked;
}

/**
 * Where each of `chunks` chunks of a set's rank words starts (and, last, where the last ends): the
 * first word with a chunk's share of the set's members behind it (a set is rarely spread evenly
 * over the ranks), moved on to the first word whose first rank starts a group (a group's documents
 * are counted by one thread).
 */
export function chunkBounds(ranks: Uint32Array, groupOfRank: Int32Array, chunks: number): Int32Array {
  const bounds = new Int32Array(chunks + 1);
  let members = 0;
  for (let w = 0; w < ranks.length; w++) members += bitCount(ranks[w]);
  let word = 0;
  let behind = 0;
  for (let chunk = 1; chunk < chunks; chunk++) {
    for (; word < ranks.length && behind * chunks < members * chunk; word++) behind += bitCount(ranks[word]);
    for (; word < ranks.length && (word << 5) < groupOfRank.length && groupOfRank[word << 5] === groupOfRank[(word << 5) - 1]; word++) behind += bitCount(ranks[word]);
    bounds[chunk] = word;
  }
  bounds[chunks] = ranks.length;
  return bounds;
}

/** The shared arrays an index's counting reads and the worker's result buffers; null unless the index keeps them in shared memory. */
export function sharedFor(
  index: { postOffsets: Int32Array; postings: Uint16Array | Int32Array; groupOfRank: Int32Array; groupOrder: Int32Array; valueDim: Int32Array; paramDims: Uint32Array | null; n: number; valueKey: string[]; dims: unknown[] },
  ranks: Uint32Array,
  firstParamDim: number,
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
    paramDims: index.paramDims?.buffer instanceof SharedArrayBuffer ? index.paramDims : null,
    firstParamDim,
    ranks,
    out: new Int32Array(new SharedArrayBuffer(4 * (index.valueKey.length + index.dims.length))),
    reps: new Uint32Array(new SharedArrayBuffer(4 * words)),
    positions: new Uint32Array(new SharedArrayBuffer(4 * words)),
  };
}
