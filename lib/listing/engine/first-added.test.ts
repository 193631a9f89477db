import fc from 'fast-check';
import { expect, it } from 'vitest';
import { firstAdded } from './page';
import { before, type KeyOrder } from './location-only';

it('gives the first offered products of a location query in order, as a full sort would', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(Number.NaN)), { maxLength: 300 }),
      fc.integer({ min: 0, max: 320 }),
      fc.constantFrom(1, -1),
      fc.integer(),
      (keyList, want, sign, seed) => {
        const n = keyList.length;
        // Documents 0..n-1 in a shuffled id order (ties of keys break on it).
        let state = seed >>> 0 || 1;
        const idRank = Int32Array.from({ length: n }, (_, doc) => doc);
        for (let i = n - 1; i > 0; i--) {
          const j = (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) % (i + 1);
          [idRank[i], idRank[j]] = [idRank[j], idRank[i]];
        }
        const order: KeyOrder = { values: new Float64Array(n), sign, idRank };
        const keys = Float64Array.from(keyList);
        const added = Int32Array.from({ length: n }, (_, doc) => doc);
        const expected = Array.from(added.keys())
          .sort((a, b) => (before(order, keys[a], added[a], keys[b], added[b]) ? -1 : before(order, keys[b], added[b], keys[a], added[a]) ? 1 : 0))
          .slice(0, want);
        expect(Array.from(firstAdded(order, keys, added, want))).toEqual(expected);
      },
    ),
    { numRuns: 1000 },
  );
});
