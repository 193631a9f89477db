import { log } from './log';

// Watches the event loop of the process that serves requests: a timer due every TICK_MS that
// comes late by more than STALL_MS means every request waited that long. Each such stall is
// logged (with what was measured since the last report), so a benchmark or an operator sees the
// longest one; `longestStallMs` keeps the worst since start.
const TICK_MS = 10;
const STALL_MS = 50;

let longest = 0;

export function watchEventLoop(): () => void {
  let expected = performance.now() + TICK_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - expected;
    expected = now + TICK_MS;
    if (late > longest) longest = late;
    // With the monotonic clock's µs (what a CPU profile's timestamps count), to find what ran.
    if (late > STALL_MS) log(`event loop stalled ${late.toFixed(0)} ms (until ${process.hrtime.bigint() / 1000n} µs)`, undefined, 'warn');
  }, TICK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The longest delay of the event loop seen since watchEventLoop started, in ms. */
export function longestStallMs(): number {
  return longest;
}
