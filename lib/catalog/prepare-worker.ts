// The thread that prepares imports' items ahead (prepare-ahead.ts): each task is a body's bytes,
// where its items are, and which to prepare; the answer is the PreparedBatch's parts, its arena
// moved, not copied. Its source is loaded through tsx's `tsImport` (prepare-ahead.ts starts it).

import { parentPort } from 'node:worker_threads';
import { PreparedBatch } from './prepared-batch';

export type PrepareTask = { id: number; body: Uint8Array; spans: Int32Array; positions: Int32Array; bytes: number };

parentPort?.on('message', ({ id, body, spans, positions, bytes }: PrepareTask) => {
  try {
    const bodyBytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const batch = new PreparedBatch(bytes);
    for (const position of positions) batch.prepareSent(position, bodyBytes, spans[2 * position], spans[2 * position + 1]);
    const parts = batch.parts();
    // A buffer of its own (larger than Node's pool of small buffers) is moved whole; a small one is copied.
    const own = parts.arena.byteOffset === 0 && parts.arena.buffer.byteLength > Buffer.poolSize;
    const arena = own ? parts.arena : new Uint8Array(parts.arena);
    parentPort!.postMessage({ id, parts: { ...parts, arena } }, [arena.buffer as ArrayBuffer, parts.numbers.buffer as ArrayBuffer, parts.lengths.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({ id, error: String((error as Error)?.stack ?? error) });
  }
});
