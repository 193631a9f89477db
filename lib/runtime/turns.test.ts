import { describe, expect, it } from 'vitest';
import { TimeSlice, yieldToEventLoop } from './turns';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('TimeSlice', () => {
  it('is due once its milliseconds have passed, checking the clock every `every` calls', () => {
    const slice = new TimeSlice(5, 4);
    for (let call = 0; call < 40; call++) expect(slice.due()).toBe(false);
    spin(6);
    // The clock is read on the fourth call after the last reading only.
    expect([slice.due(), slice.due(), slice.due(), slice.due()]).toEqual([false, false, false, true]);
    // A new turn began at that call.
    for (let call = 0; call < 8; call++) expect(slice.due()).toBe(false);
  });
});

describe('yieldToEventLoop', () => {
  it('lets I/O callbacks and timers that are due run first', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('queued before'));
    await yieldToEventLoop();
    order.push('after the turn');
    expect(order).toEqual(['queued before', 'after the turn']);
  });
});
