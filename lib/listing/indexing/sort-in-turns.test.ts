import { describe, expect, it } from 'vitest';
import { mergeSortedInTurns, sortByKeyInTurns, sortInTurns } from './sort-in-turns';

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

describe('sortByKeyInTurns', () => {
  it('orders by key, then keeps the given order of ties, as a comparator sort would', async () => {
    const special = [0, -0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1e-300, -1e-300, 1e300, -1e300, Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53, 123.45];
    for (const n of [0, 1, 7, 1000, 100_003]) {
      const keys = Float64Array.from({ length: n }, (_, i) => (i % 3 === 0 ? special[i % special.length] : ((i * 7919) % 1009) / 7 - 50)); // ties and signs
      const items = Int32Array.from({ length: n }, (_, i) => (i * 104729) % n);
      const rank = new Int32Array(n);
      items.forEach((item, position) => (rank[item] = position));
      const expected = Array.from(items).sort((a, b) => keys[a] - keys[b] || rank[a] - rank[b]);
      let pauses = 0;
      await sortByKeyInTurns(items, keys, async () => {
        pauses++;
      });
      expect(Array.from(items)).toEqual(expected);
      if (n > 1000) expect(pauses).toBeGreaterThan(0);
    }
  });
});

describe('mergeSortedInTurns', () => {
  it('merges two sorted lists, the first list first on ties, pausing in large merges', async () => {
    for (const [m, k] of [[0, 0], [3, 0], [0, 5], [200_000, 150_001]]) {
      const keys = Float64Array.from({ length: m + k }, (_, i) => (i * 7919) % 997); // many ties
      const before = (x: number, y: number) => keys[x] < keys[y];
      const byKey = (x: number, y: number) => keys[x] - keys[y];
      const a = Int32Array.from({ length: m }, (_, i) => i).sort(byKey);
      const b = Int32Array.from({ length: k }, (_, i) => m + i).sort(byKey);
      let pauses = 0;
      const merged = await mergeSortedInTurns(a, b, before, async () => {
        pauses++;
      });
      // A stable sort of a's then b's elements by key.
      expect(Array.from(merged)).toEqual([...a, ...b].sort(byKey));
      if (m + k > 300_000) expect(pauses).toBeGreaterThan(2);
    }
  });
});
