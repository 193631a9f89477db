import { AppError } from './errors';
import { processWide } from '@/lib/process-wide';

// CONTRACT §3: storefront reads (listing, collections, init, images) are limited per client
// address, apart from the shops' write limit. Kept in this process's memory: the guard must cost
// nothing next to a listing answer, and each web node guards its own share of the traffic.
//
// The sliding minute is kept as 2-second buckets, the current one and the 30 before it. A read
// counts until its bucket leaves, 60 to 62 s after it was made, so no minute ever holds more than
// the limit. (Two fixed minutes, the previous weighted by its overlap, let a burst straddling a
// minute's start through: with a limit of 3, four reads in 100 ms passed.)

const WINDOW_MS = 60_000;
const BUCKET_MS = 2_000;
const BUCKETS = WINDOW_MS / BUCKET_MS + 1;
const MAX_ADDRESSES = 200_000;

/** `counts[s % BUCKETS]` holds the reads of bucket `s`, for `s` in `(slot - BUCKETS, slot]`. */
type Counter = { slot: number; counts: Uint32Array };
const COUNTERS = processWide<Map<string, Counter>>('read-guard');

function counters(): Map<string, Counter> {
  return COUNTERS.getOrMake(() => new Map());
}

function counterAt(all: Map<string, Counter>, address: string, slot: number): Counter {
  const counter = all.get(address);
  if (!counter) return { slot, counts: new Uint32Array(BUCKETS) };
  if (slot - counter.slot >= BUCKETS) counter.counts.fill(0);
  else for (let s = counter.slot + 1; s <= slot; s++) counter.counts[s % BUCKETS] = 0;
  // A clock that steps back counts into the newest bucket kept.
  counter.slot = Math.max(counter.slot, slot);
  return counter;
}

/** Seconds until enough of the oldest buckets leave for one more read to fit. */
function secondsUntilRoom(counter: Counter, used: number, perMinute: number, now: number): number {
  let left = used;
  let bucket = counter.slot - BUCKETS + 1;
  for (; bucket < counter.slot; bucket++) {
    left -= counter.counts[bucket % BUCKETS];
    if (left < perMinute) break;
  }
  return Math.max(1, Math.ceil(((bucket + BUCKETS) * BUCKET_MS - now) / 1000));
}

export function guardRead(address: string, perMinute: number, now = Date.now()): void {
  const all = counters();
  const counter = counterAt(all, address, Math.floor(now / BUCKET_MS));
  let used = 0;
  for (const count of counter.counts) used += count;
  if (used >= perMinute) {
    all.set(address, counter);
    const seconds = secondsUntilRoom(counter, used, perMinute, now);
    throw new AppError('RATE_LIMITED', `Too many requests from this address: at most ${perMinute} reads a minute`, { retryAfterSeconds: seconds });
  }
  counter.counts[counter.slot % BUCKETS]++;
  // Re-inserted so the map's first key is the address least recently seen, dropped past the cap.
  all.delete(address);
  all.set(address, counter);
  if (all.size > MAX_ADDRESSES) all.delete(all.keys().next().value!);
}
