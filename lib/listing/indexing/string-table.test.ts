import fc from 'fast-check';
import { expect, it } from 'vitest';
import { StringTable } from './string-table';

it('finds every string it was given, with its number, and no other', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 300 }), fc.array(fc.string({ maxLength: 12 }), { maxLength: 50 }), (keys, others) => {
      const table = new StringTable(keys.map((key, i) => [key, i * 7]));
      expect(table.size).toBe(keys.length);
      keys.forEach((key, i) => expect(table.get(key)).toBe(i * 7));
      for (const other of others) if (!keys.includes(other)) expect(table.get(other)).toBeUndefined();
      expect([...table.entries()]).toEqual(keys.map((key, i) => [key, i * 7]));
    }),
    { numRuns: 500 },
  );
});

it('tells strings apart that are prefixes of one another or hash alike', () => {
  const table = new StringTable([['g1', 1], ['g10', 10], ['g', 0], ['', 99]]);
  expect([table.get('g1'), table.get('g10'), table.get('g'), table.get(''), table.get('g100')]).toEqual([1, 10, 0, 99, undefined]);
});
