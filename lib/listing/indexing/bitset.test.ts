import { describe, expect, it } from 'vitest';
import { addRange, cardinality, emptySet, has } from './bitset';

describe('addRange', () => {
  it('adds exactly the documents of the range, across word boundaries', () => {
    for (const [from, to] of [
      [0, 0],
      [0, 100],
      [3, 31],
      [31, 33],
      [5, 96],
      [32, 64],
      [64, 65],
    ]) {
      const set = emptySet(100);
      addRange(set, from, to);
      expect(cardinality(set)).toBe(to - from);
      for (let doc = 0; doc < 100; doc++) expect(has(set, doc)).toBe(doc >= from && doc < to);
    }
  });
});
