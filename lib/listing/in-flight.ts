import { AppError } from '@/lib/http/errors';
import { processWide } from '@/lib/process-wide';

// Storefront reads (listings, collections) this process is answering at once, and when each began.
// A read is refused at once with 503 and Retry-After, rather than queued, when the process is
// overloaded: when `maxInFlight` reads run (each holds the index version it began with and its
// answer: an open-loop storefront outrunning the server once queued hundreds of them, for minutes
// and gigabytes), or when at least BUSY run and the oldest of them began `shedAfterMs` ago or more
// (the reads wait that long behind each other). A burst that the serving thread works off within
// that time is answered, late, not refused: under 20 shops importing, a count limit of 64 alone
// refused 1 % to 14 % of a storefront's reads over transient stalls of a few hundred ms. One set
// per process (lib/process-wide.ts): each route bundle loads this module.

export type ReadLimits = { maxInFlight: number; shedAfterMs: number };

/** Below this many reads at once, none is refused for its wait: one slow read is not overload. */
export const BUSY = 16;

const RUNNING = processWide<Map<symbol, number>>('listing-in-flight');

function running(): Map<symbol, number> {
  return RUNNING.getOrMake(() => new Map());
}

function overloaded(reads: Map<symbol, number>, limits: ReadLimits): boolean {
  if (limits.maxInFlight > 0 && reads.size >= limits.maxInFlight) return true;
  if (limits.shedAfterMs <= 0 || reads.size < BUSY) return false;
  // Reads are kept in the order they began: the first is the oldest still running.
  const oldest = reads.values().next().value!;
  return performance.now() - oldest >= limits.shedAfterMs;
}

/** Runs a read, or refuses it with 503 when the process is overloaded (0 in a limit: none of that kind). */
export async function withReadSlot<T>(limits: ReadLimits, read: () => Promise<T>): Promise<T> {
  const reads = running();
  if (overloaded(reads, limits)) throw new AppError('UNAVAILABLE', 'Too many listing requests at once; retry in a moment', { retryAfterSeconds: 1 });
  const slot = Symbol('read');
  reads.set(slot, performance.now());
  try {
    return await read();
  } finally {
    reads.delete(slot);
  }
}
