import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeSlice, yieldToEventLoop } from './turns';

describe('TimeSlice', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is due once its milliseconds have passed, checking the clock every `every` calls', () => {
    // A stubbed clock: real time would let a pre-empted test see the 5 ms pass early.
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const slice = new TimeSlice(5, 4);
    now += 4;
    for (let call = 0; call < 40; call++) expect(slice.due()).toBe(false);
    now += 1;
    // The clock is read on the fourth call after the last reading only.
    expect([slice.due(), slice.due(), slice.due(), slice.due()]).toEqual([false, false, false, true]);
    // A new turn began at that call.
    now += 4;
    for (let call = 0; call < 8; call++) expect(slice.due()).toBe(false);
    now += 1;
    expect([slice.due(), slice.due(), slice.due(), slice.due()]).toEqual([false, false, false, true]);
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
