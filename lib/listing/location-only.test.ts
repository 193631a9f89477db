import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { ShopIndex } from './build-index';
import { offeredByRank, type Offered } from './location-only';

it('sorts offered documents by rank, each beside its place, whatever the number of radix passes', () => {
  fc.assert(
    fc.property(
      // Up to 3 passes of 11 bits (n up to 2^22), and n = 1.
      fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 2048 }), fc.integer({ min: 2049, max: 1 << 22 })),
      fc.integer(),
      fc.integer({ min: 0, max: 400 }),
      (n, seed, wanted) => {
        let state = seed >>> 0 || 1;
        const random = (below: number) => Math.floor(((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * below);
        // A random rank per document (only the offered documents' ranks are read), documents ascending.
        const docSet = new Set<number>();
        for (let i = 0; i < Math.min(wanted, n); i++) docSet.add(random(n));
        const docs = Int32Array.from([...docSet].sort((a, b) => a - b));
        const rankOf = new Map<number, number>();
        const usedRanks = new Set<number>();
        for (const doc of docs) {
          let rank = random(n);
          while (usedRanks.has(rank)) rank = (rank + 1) % n;
          usedRanks.add(rank);
          rankOf.set(doc, rank);
        }
        const groupRank = { length: n, ...Object.fromEntries(rankOf) } as unknown as Int32Array;
        const offered: Offered = { docs, offers: new Int32Array(docs.length), keys: new Float64Array(docs.length) };
        const { ranks, slots } = offeredByRank({ n, groupRank } as ShopIndex, offered);
        const expected = [...docs].map((doc, slot) => [rankOf.get(doc)!, slot]).sort((a, b) => a[0] - b[0]);
        expect(Array.from(ranks)).toEqual(expected.map(([rank]) => rank));
        expect(Array.from(slots)).toEqual(expected.map(([, slot]) => slot));
      },
    ),
    { numRuns: 300 },
  );
});
