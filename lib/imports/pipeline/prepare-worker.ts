// The thread that prepares imports' items ahead (prepare-ahead.ts): each task is a body's bytes,
// where its items are, and which to prepare; the answer is the PreparedBatch's parts. The body
// and the arena are in a slot of the memory shared with the applier's thread when the task names
// one (nothing allocated or moved for them); otherwise the body is moved here and the arena moved
// back, not copied. Its source is loaded through tsx's `tsImport` (prepare-ahead.ts starts it).

import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '@/lib/runtime/thread-priority';
import { readSettings } from '@/lib/runtime/settings';
import { PreparedBatch } from '@/lib/catalog/prepared-batch';

// PREPARE_THREAD_NICE lowers this thread's priority (a Linux nice value; 0, the default: the same
// as the others). Session 32 ran it at nice 10, giving way to the applier. Since intake's scan
// runs on a thread of its own at nice 10 (scan-thread.ts), that one gives way, and this
// one, which the applier waits for when it falls behind, runs as the applier does (a first load of
// 300,000 products, one run each, the scan thread at nice 15: 24,728 items/s at nice 10, 25,250
// at 5, 27,110 at 0; docs/benchmarks-history.md, session 33).
lowerThisThread(readSettings().prepareThreadNice);

/** The memory shared with the applier's thread (`workerData`): per slot, room for a body and for an arena. */
export type SharedSlots = { bodies: SharedArrayBuffer[]; arenas: SharedArrayBuffer[] };

// `slot` >= 0: the body is the first `bodyLength` bytes of that slot's, and the arena is written
// there while it fits. Otherwise `body` holds the body.
export type PrepareTask = { slot: number; body?: Uint8Array; bodyLength: number; spans: Int32Array; positions: Int32Array; bytes: number };

const slots = (workerData as SharedSlots | undefined) ?? { bodies: [], arenas: [] };

parentPort?.on('message', ({ id, task: { slot, body, bodyLength, spans, positions, bytes } }: { id: number; task: PrepareTask }) => {
  try {
    const bodyBytes = slot >= 0 ? Buffer.from(slots.bodies[slot], 0, bodyLength) : Buffer.from(body!.buffer, body!.byteOffset, body!.byteLength);
    const batch = new PreparedBatch(bytes, undefined, slot >= 0 ? Buffer.from(slots.arenas[slot]) : undefined);
    for (const position of positions) batch.prepareSent(position, bodyBytes, spans[2 * position], spans[2 * position + 1]);
    const inSlot = slot >= 0 && batch.wroteIn(slots.arenas[slot]);
    const parts = batch.parts();
    const moved = [parts.numbers.buffer as ArrayBuffer, parts.lengths.buffer as ArrayBuffer];
    if (inSlot) {
      // The applier reads it where it is: only its length goes.
      parentPort!.postMessage({ id, parts: { ...parts, arena: new Uint8Array(0) }, arenaInSlot: parts.arena.byteLength }, moved);
      return;
    }
    // A buffer of its own (larger than Node's pool of small buffers) is moved whole; a small one is copied.
    const own = parts.arena.byteOffset === 0 && parts.arena.buffer.byteLength > Buffer.poolSize;
    const arena = own ? parts.arena : new Uint8Array(parts.arena);
    parentPort!.postMessage({ id, parts: { ...parts, arena } }, [arena.buffer as ArrayBuffer, ...moved]);
  } catch (error) {
    parentPort!.postMessage({ id, error: String((error as Error)?.stack ?? error) });
  }
});
