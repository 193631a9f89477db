// The thread that prepares imports' items ahead (prepare-ahead.ts): each task is a body's bytes,
// where its items are, and which to prepare; the answer is the PreparedBatch's parts. The body
// and the arena are in a slot of the memory shared with the applier's thread when the task names
// one (nothing allocated or moved for them); otherwise the body is moved here and the arena moved
// back, not copied. Its source is loaded through tsx's `tsImport` (prepare-ahead.ts starts it).

import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { PreparedBatch } from './prepared-batch';

// This thread runs at a lower priority (nice 10 unless PREPARE_THREAD_NICE says otherwise; 0 as
// the others). It prepares imports ahead of the one being applied, and keeps ahead with time to
// spare, while the applier's thread and PostgreSQL are an import's critical path, and during a
// load every core is busy: given way to, first loads came out ~4 % faster in six pairs
// (docs/benchmarks.md, session 32). On Linux a thread's id is a pid to setpriority; elsewhere
// the thread runs as the others do.
const nice = Number(process.env.PREPARE_THREAD_NICE ?? 10);
if (nice > 0) {
  try {
    os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), nice);
  } catch {
    // No /proc/thread-self, or the value refused: the thread keeps its priority.
  }
}

/** The memory shared with the applier's thread (`workerData`): per slot, room for a body and for an arena. */
export type SharedSlots = { bodies: SharedArrayBuffer[]; arenas: SharedArrayBuffer[] };

// `slot` >= 0: the body is the first `bodyLength` bytes of that slot's, and the arena is written
// there while it fits. Otherwise `body` holds the body.
export type PrepareTask = { id: number; slot: number; body?: Uint8Array; bodyLength: number; spans: Int32Array; positions: Int32Array; bytes: number };

const slots = (workerData as SharedSlots | undefined) ?? { bodies: [], arenas: [] };

parentPort?.on('message', ({ id, slot, body, bodyLength, spans, positions, bytes }: PrepareTask) => {
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
