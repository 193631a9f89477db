import { log } from '@/lib/runtime/log';
import { TimeSlice, yieldToEventLoop } from '@/lib/runtime/turns';
import { ThreadHolder, type WorkerThread } from '@/lib/runtime/worker-thread';
import { peekKnownStates } from './known-states';
import { type BatchParts, PreparedBatch } from '@/lib/catalog/prepared-batch';
import type { PrepareTask, SharedSlots } from './prepare-worker';
import type { SentItems } from '@/lib/catalog/sent-items';
import { processWide } from '@/lib/process-wide';

// Preparing an import's items (PreparedBatch) is most of what the applier's thread does for
// new products, and none of it depends on the catalog. So the next import's items are prepared
// while the one before is stored: on a thread of their own (prepare-worker.ts), else on this one
// in short turns of the event loop.

// `arenaInSlot`: the arena is that many bytes at the start of the task's slot.
type Answer = { parts?: BatchParts; arenaInSlot?: number; error?: string };
// The memory shared with the thread, and the slots no task and no batch holds.
type Slots = { slots: SharedSlots; free: number[] };
type Preparer = WorkerThread<PrepareTask, Answer, Slots>;

// Memory shared with the thread, in slots: each holds a task's body (copied in) and the arena the
// thread writes its fields into, which the applier reads where it is until it releases the batch.
// Without them each task allocated its arena (~1.6 times the body) and a copy of the body, and
// every such megabyte counts towards V8's next collection of the whole heap: at ~4 imports a
// second, one every ~0.4 s (docs/benchmarks-history.md). Enough slots for the imports read ahead, the one
// being applied and one more; a task finding none (or a body too large) goes without.
const SLOTS = 4;
const SLOT_BODY_BYTES = 10 << 20;
const SLOT_ARENA_BYTES = 16 << 20;

// Next.js loads a module once per route bundle and the process entry loads its own copy: one
// thread per process (lib/process-wide.ts).
const PREPARER = new ThreadHolder<PrepareTask, Answer, Slots>(
  processWide<Preparer | null>('prepare-worker'),
  () => {
    const slots: SharedSlots = {
      bodies: Array.from({ length: SLOTS }, () => new SharedArrayBuffer(SLOT_BODY_BYTES)),
      arenas: Array.from({ length: SLOTS }, () => new SharedArrayBuffer(SLOT_ARENA_BYTES)),
    };
    return { code: { module: new URL('./prepare-worker.ts', import.meta.url) }, workerData: slots, own: { slots, free: Array.from({ length: SLOTS }, (_, slot) => slot) } };
  },
  { name: 'the thread preparing items', otherwise: "they are prepared on the applier's thread" },
);
let useWorker = true;

/** Whether items are prepared on a thread of their own (tests compare both ways). */
export function setPrepareOnWorker(on: boolean): void {
  useWorker = on;
}

function preparer(): Preparer | null {
  return useWorker ? PREPARER.thread() : null;
}

/** How many of the running thread's slots no task or batch holds (undefined: no thread running). */
export function freeSlots(): number | undefined {
  return PREPARER.running()?.own.free.length;
}

/**
 * Starts the preparing thread if it is not running (loading its code takes ~0.4 s). True once it
 * has loaded, false if there is none or it failed.
 */
export function startPreparing(): Promise<boolean> {
  return preparer()?.ready ?? Promise.resolve(false);
}

/** Items being prepared ahead: `take` gives the batch once (undefined: none); `done` settles when preparing has stopped. */
export type PreparedAhead = { take: () => Promise<PreparedBatch | undefined>; done: Promise<void> };

// Fewer items than this are prepared on the applier's thread: a round trip to the preparing
// thread would cost more than it frees (~15 µs an item).
const OWN_THREAD_MIN = 500;

/**
 * Prepares `positions` of items read from a body on the preparing thread now, when it has loaded
 * its code; undefined when it cannot (or for a few items). For an import that was not read ahead
 * (the applier keeps up with intake): the applier waits for the batch, its thread free meanwhile
 * for the next request's intake. (Prepared on the applier's thread, the items held that intake
 * up, and the next import then came too late to be read ahead in turn.)
 */
export function prepareOnThread(items: SentItems, positions: number[]): Promise<PreparedBatch | undefined> | undefined {
  const helper = items.source && positions.length >= OWN_THREAD_MIN ? preparer() : null;
  if (!helper?.loaded || !items.source) return undefined;
  const { body, spans } = items.source;
  return prepareOnWorker(helper, body, spans, Int32Array.from(positions), Math.ceil(body.length * 1.6));
}

/**
 * Prepares `positions` of the body on the preparing thread; undefined when it cannot, or has not
 * answered within a time far beyond what it takes (~30 µs an item): the applier must never wait
 * on it for ever.
 */
function prepareOnWorker(helper: Preparer, body: Buffer, spans: Int32Array, positions: Int32Array, bytes: number): Promise<PreparedBatch | undefined> {
  const { slots, free } = helper.own;
  const slot = body.length <= SLOT_BODY_BYTES && bytes <= SLOT_ARENA_BYTES ? (free.pop() ?? -1) : -1;
  let task: PrepareTask;
  let moved: ArrayBuffer[] = [];
  if (slot >= 0) {
    body.copy(Buffer.from(slots.bodies[slot]));
    task = { slot, bodyLength: body.length, spans, positions, bytes };
  } else {
    // Its own copy of the body, moved to the thread: the applier still reads this one.
    const copy = new Uint8Array(body);
    task = { slot, body: copy, bodyLength: body.length, spans, positions, bytes };
    moved = [copy.buffer];
  }
  return new Promise((settle) => {
    // Who waits for the batch: none once it has waited too long. The thread has the slot until it
    // answers (the answer then frees it).
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      log(`preparing ${positions.length} items ahead took too long (the applier prepares them)`, undefined, 'warn');
      settle(undefined);
    }, 10_000 + positions.length);
    timer.unref();
    const done = (batch: PreparedBatch | undefined) => {
      if (!waiting) return;
      waiting = false;
      clearTimeout(timer);
      settle(batch);
    };
    helper.send(task, {
      answered: ({ parts, arenaInSlot, error }) => {
        if (error !== undefined) log(`preparing items ahead failed (the applier prepares them): ${error}`, undefined, 'warn');
        const giveBack = () => free.push(slot);
        if (!parts || !waiting || arenaInSlot === undefined) {
          // The slot's memory is not read: free again (nothing waits, or the arena is elsewhere).
          if (slot >= 0) giveBack();
          done(parts ? PreparedBatch.fromParts(parts) : undefined);
          return;
        }
        done(PreparedBatch.fromParts({ ...parts, arena: Buffer.from(slots.arenas[slot], 0, arenaInSlot) }, giveBack));
      },
      // A thread that failed writes no more: its slots are of no use to another one.
      stopped: () => done(undefined),
    }, moved);
  });
}

/**
 * Starts preparing the items of a shop's next import while the import before it is applied.
 * Skipped: items whose digest is the one this process knows stored for their id (sent
 * unchanged: nothing to prepare). That is only a guess (the states may be as of another
 * version): an item skipped but needed is prepared when reached, one prepared but not needed
 * costs only the work. The applier takes the batch (`take`, once), which stops the preparing on
 * this thread, or waits for the preparing thread's answer. `bytes`: the body's size, to size the
 * batch's buffer. `done` settles when it has stopped.
 */
export function prepareAhead(shopId: string, items: SentItems, bytes: number): PreparedAhead {
  // The fields take ~1.34 times the items' text in the benchmark's catalog (data is the text; offers and
  // the other columns add to it): room enough that the buffer seldom grows (copying it all).
  const size = Math.ceil(bytes * 1.6);
  const unchanged = (position: number): boolean => {
    const states = peekKnownStates(shopId);
    const id = items.id(position);
    if (states === undefined || id === undefined) return false;
    const entry = states.find(id);
    return entry >= 0 && states.sameDigest(entry, items.digest(position));
  };
  let taken = false;
  let answer: Promise<PreparedBatch | undefined> | undefined;
  const helper = items.source ? preparer() : null;
  if (helper && items.source) {
    const { body, spans } = items.source;
    const take = () => {
      if (taken) return Promise.resolve(undefined);
      taken = true;
      return answer ?? Promise.resolve(undefined);
    };
    const done = (async () => {
      const wanted: number[] = [];
      const slice = new TimeSlice(1, 16);
      // A new id is found out without its digest: for a first load this takes ~1 ms, and the
      // thread starts at once.
      for (let position = 0; position < items.count && !taken; position++) {
        if (!unchanged(position)) wanted.push(position);
        if (slice.due()) await yieldToEventLoop();
      }
      if (!taken && wanted.length > 0) answer = prepareOnWorker(helper, body, spans, Int32Array.from(wanted), size);
      // The digests meanwhile: wanted in any case, and made once (makeDigests then finds them made).
      for (let position = 0; position < items.count && !taken; position++) {
        items.digest(position);
        if (slice.due()) await yieldToEventLoop();
      }
      await answer;
    })();
    return { take, done };
  }
  const batch = new PreparedBatch(size);
  let stopped = false;
  const take = () => {
    if (taken) return Promise.resolve(undefined);
    taken = stopped = true;
    return Promise.resolve(batch);
  };
  const done = (async () => {
    // Short turns: the import being applied, and intake, come first.
    const slice = new TimeSlice(1, 4);
    for (let position = 0; position < items.count && !stopped; position++) {
      items.digest(position);
      if (!unchanged(position)) batch.prepareFrom(items, position);
      if (slice.due()) await yieldToEventLoop();
    }
  })().catch(() => {
    // The applier prepares the rest itself, and meets the same failure if it is the item's.
    stopped = true;
  });
  return { take, done };
}
