import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BytesTable } from './bytes-table';

describe('BytesTable', () => {
  it('finds what a Map of the decoded strings finds, each key read from anywhere in a buffer', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.nat(40)), { maxLength: 3_000 }), (steps) => {
        const table = new BytesTable();
        const reference = new Map<string, number>();
        for (const [key, padding] of steps) {
          // The key sits after `padding` bytes of something else, as a field sits in a row.
          const bytes = Buffer.concat([Buffer.alloc(padding, 0x41), Buffer.from(key), Buffer.from('\t')]);
          const found = table.get(bytes, padding, bytes.length - 1);
          expect(found).toBe(reference.get(key) ?? -1);
          if (found < 0) {
            table.set(bytes, padding, bytes.length - 1, reference.size);
            reference.set(key, reference.size);
          }
        }
        for (const [key, value] of reference) expect(table.get(Buffer.from(key), 0, Buffer.byteLength(key))).toBe(value);
      }),
      { numRuns: 200 },
    );
  });

  it('tells apart keys that share a prefix, differ by length, or are empty', () => {
    const table = new BytesTable();
    const keys = ['', 'a', 'ab', 'abc', 'b', 'ba', 'ä', 'a\u0000'];
    keys.forEach((key, value) => table.set(Buffer.from(key), 0, Buffer.byteLength(key), value));
    keys.forEach((key, value) => expect(table.get(Buffer.from(key), 0, Buffer.byteLength(key))).toBe(value));
    expect(table.get(Buffer.from('abcd'), 0, 4)).toBe(-1);
    expect(() => table.set(Buffer.from('x'), 0, 1, -1)).toThrow('non-negative');
  });
});
