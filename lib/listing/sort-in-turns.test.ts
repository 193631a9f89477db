import { describe, expect, it } from 'vitest';
import { sortInTurns } from './sort-in-turns';

describe('sortInTurns', () => {
  it('sorts like Array.prototype.sort, pausing between slices of large arrays', async () => {
    for (const n of [0, 1, 7, 32768, 32769, 100_003, 300_000]) {
      const keys = Float64Array.from({ length: n }, (_, i) => ((i * 7919) % 1009) / 7); // many ties
      const compare = (a: number, b: number) => keys[a] - keys[b] || a - b;
      const items = Int32Array.from({ length: n }, (_, i) => (i * 104729) % n);
      const expected = Array.from(items).sort(compare);
      let pauses = 0;
      await sortInTurns(items, compare, async () => {
        pauses++;
      });
      expect(Array.from(items)).toEqual(expected);
      if (n >= 300_000) expect(pauses).toBeGreaterThan(2);
    }
  });
});
