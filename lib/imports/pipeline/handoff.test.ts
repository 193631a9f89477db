import { describe, expect, it } from 'vitest';
import { announceArrival, handOver, nextArrival, type TakenBody, takeOver } from './handoff';

const rawLength = (taken: TakenBody | undefined) => (taken && 'raw' in taken ? taken.raw.length : undefined);

describe('import body handoff', () => {
  it('gives a body to the applier once', () => {
    const body = { raw: Buffer.from('{"items":[]}'), members: new Map([['items', { start: 9, end: 11, elements: new Int32Array(0) }]]) };
    handOver(1, body);
    expect(takeOver(1)).toEqual(body);
    expect(takeOver(1)).toBeUndefined();
    expect(takeOver(2)).toBeUndefined();
  });

  it('keeps at most 48 MiB, keeping the older bodies (taken first) over a newer one', () => {
    const mib = (n: number) => ({ raw: Buffer.alloc(n * 1024 * 1024), members: new Map() });
    for (let id = 10; id < 14; id++) expect(handOver(id, mib(10))).toBe(true);
    expect(handOver(14, mib(10))).toBe(false);
    expect(takeOver(14)).toBeUndefined();
    expect(rawLength(takeOver(10))).toBe(10 * 1024 * 1024);
    expect(handOver(15, mib(10))).toBe(true);
    for (const id of [11, 12, 13, 15]) expect(rawLength(takeOver(id))).toBe(10 * 1024 * 1024);
    expect(handOver(16, mib(49))).toBe(false);
  });

  it('lets go of a body nobody took within a minute', () => {
    const body = { raw: Buffer.alloc(40 * 1024 * 1024), members: new Map() };
    expect(handOver(30, body, 0)).toBe(true);
    expect(handOver(31, body, 30_000)).toBe(false);
    expect(handOver(32, body, 61_000)).toBe(true);
    expect(takeOver(30)).toBeUndefined();
    expect(rawLength(takeOver(32))).toBe(40 * 1024 * 1024);
  });

  it('keeps a body past the limit as stored, with its scan, within a limit of its own', () => {
    const members = new Map([['items', { start: 0, end: 2, elements: new Int32Array(1000) }]]);
    const big = (n: number) => ({ raw: Buffer.alloc(n * 1024 * 1024), members });
    const stored = (n: number) => ({ body: Buffer.alloc(n * 1024 * 1024), encoding: 'br-parts' as const });
    expect(handOver(40, { ...big(40), stored: stored(7) })).toBe(true);
    // The raw bodies' limit is reached: kept as stored.
    expect(handOver(41, { ...big(40), stored: stored(7) })).toBe(true);
    expect(handOver(42, big(40))).toBe(false);
    const taken = takeOver(41);
    expect(taken && 'stored' in taken ? [taken.stored.body.length, taken.members] : undefined).toEqual([7 * 1024 * 1024, members]);
    // Stored forms up to 128 MiB, their scans counted.
    for (let id = 50; id < 54; id++) expect(handOver(id, { ...big(40), stored: stored(31) })).toBe(true);
    expect(handOver(54, { ...big(40), stored: stored(5) })).toBe(false);
    expect(rawLength(takeOver(40))).toBe(40 * 1024 * 1024);
    // Taking them gives their room back.
    for (let id = 50; id < 54; id++) expect(takeOver(id)).toHaveProperty('stored');
    expect(handOver(55, { ...big(10), stored: stored(100) })).toBe(true);
    expect(rawLength(takeOver(55))).toBe(10 * 1024 * 1024);
  });

  it("wakes whoever waits for the shop's next import, and only them; false once `until` settles", async () => {
    let applied!: () => void;
    const until = new Promise<void>((resolve) => (applied = resolve));
    const waiting = nextArrival('shop-a', until);
    const other = nextArrival('shop-b', until);
    announceArrival('shop-a');
    expect(await waiting).toBe(true);
    // Heard once: a new wait needs a new arrival.
    const again = nextArrival('shop-a', until);
    applied();
    expect([await again, await other]).toEqual([false, false]);
    // A failed apply ends the wait as well.
    expect(await nextArrival('shop-a', Promise.reject(new Error('apply failed')))).toBe(false);
  });
});
