import { AppError } from '@/lib/http/errors';
import { processWide } from '@/lib/process-wide';

// Storefront reads (listings, collections) this process is answering at once. Past the limit a
// read is refused at once with 503 and Retry-After instead of queued: an open-loop storefront
// outrunning the server (a load and a rebuild taking the serving thread) queued hundreds of them,
// each holding the index version it began with, for minutes and gigabytes. One count per process
// (lib/process-wide.ts): each route bundle loads this module.

const COUNTER = processWide<{ count: number }>('listing-in-flight');

function counter(): { count: number } {
  return COUNTER.getOrMake(() => ({ count: 0 }));
}

/** Runs a read, or refuses it with 503 when `limit` reads are already running (0: no limit). */
export async function withReadSlot<T>(limit: number, read: () => Promise<T>): Promise<T> {
  const running = counter();
  if (limit > 0 && running.count >= limit) throw new AppError('UNAVAILABLE', 'Too many listing requests at once; retry in a moment', { retryAfterSeconds: 1 });
  running.count++;
  try {
    return await read();
  } finally {
    running.count--;
  }
}
