import { describe, expect, it } from 'vitest';
import { handOver, takeOver } from './handoff';

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
    expect(takeOver(10)?.raw.length).toBe(10 * 1024 * 1024);
    expect(handOver(15, mib(10))).toBe(true);
    for (const id of [11, 12, 13, 15]) expect(takeOver(id)?.raw.length).toBe(10 * 1024 * 1024);
    expect(handOver(16, mib(49))).toBe(false);
  });

  it('lets go of a body nobody took within a minute', () => {
    const body = { raw: Buffer.alloc(40 * 1024 * 1024), members: new Map() };
    expect(handOver(30, body, 0)).toBe(true);
    expect(handOver(31, body, 30_000)).toBe(false);
    expect(handOver(32, body, 61_000)).toBe(true);
    expect(takeOver(30)).toBeUndefined();
    expect(takeOver(32)?.raw.length).toBe(40 * 1024 * 1024);
  });
});
