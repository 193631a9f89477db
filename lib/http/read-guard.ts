import { AppError } from './errors';

// CONTRACT §3: storefront reads (listing, collections, init, images) are limited per client
// address, apart from the shops' write limit. Kept in this process's memory: the guard must cost
// nothing next to a listing answer, and each web node guards its own share of the traffic. A
// sliding minute is approximated by two fixed ones (the previous minute weighted by how much of it
// still overlaps the window).

const WINDOW_MS = 60_000;
type Counter = { start: number; current: number; previous: number };
const KEY = Symbol.for('vitrine.read-guard');
type Holder = { [KEY]?: Map<string, Counter> };

function counters(): Map<string, Counter> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
}

export function guardRead(address: string, perMinute: number, now = Date.now()): void {
  const all = counters();
  let counter = all.get(address);
  const windowStart = now - (now % WINDOW_MS);
  if (!counter || counter.start < windowStart - WINDOW_MS) counter = { start: windowStart, current: 0, previous: 0 };
  else if (counter.start < windowStart) counter = { start: windowStart, current: 0, previous: counter.current };
  const overlap = 1 - (now - windowStart) / WINDOW_MS;
  const used = counter.current + counter.previous * overlap;
  if (used >= perMinute) {
    all.set(address, counter);
    // Enough of the previous minute slides out, or the next minute starts.
    const seconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    throw new AppError('RATE_LIMITED', `Too many requests from this address: at most ${perMinute} reads a minute`, { retryAfterSeconds: seconds });
  }
  counter.current++;
  all.set(address, counter);
  if (all.size > 200_000) all.delete(all.keys().next().value!);
}
