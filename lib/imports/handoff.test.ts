import { describe, expect, it } from 'vitest';
import { handOver, takeOver } from './handoff';

describe('import body handoff', () => {
  it('gives a body to the applier once', () => {
    const body = { raw: Buffer.from('{"items":[]}'), json: { items: [] } };
    handOver(1, body);
    expect(takeOver(1)).toBe(body);
    expect(takeOver(1)).toBeUndefined();
    expect(takeOver(2)).toBeUndefined();
  });

  it('keeps at most 48 MiB, dropping the oldest bodies first', () => {
    const mib = (n: number) => ({ raw: Buffer.alloc(n * 1024 * 1024), json: {} });
    for (let id = 10; id < 14; id++) handOver(id, mib(10));
    handOver(14, mib(10));
    expect(takeOver(10)).toBeUndefined();
    for (let id = 11; id <= 14; id++) expect(takeOver(id)?.raw.length).toBe(10 * 1024 * 1024);
    handOver(16, mib(49));
    expect(takeOver(16)).toBeUndefined();
  });
});
