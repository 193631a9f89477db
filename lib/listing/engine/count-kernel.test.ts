import fc from 'fast-check';
import { expect, it } from 'vitest';
import { countRanks, newMulti, PLANES, presenceFromExcess, type CountTask } from './count-kernel';

const FIRST_PARAM = 2;

/**
 * A made-up index as the build lays one out: groups of 1–5 consecutive ranks, each rank's values
 * (0–12, distinct) with a param dimension's excess markers (one per value past its first), and
 * its param dimensions (ShopIndex.paramDims).
 */
function layout(n: number, dims: number, seed: number) {
  let state = seed >>> 0 || 1;
  const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const perDim = 6;
  const valueCount = dims * perDim;
  const valueDim = Int32Array.from({ length: valueCount }, (_, value) => Math.floor(value / perDim));
  const groupOfRank = new Int32Array(n);
  const paramDims = new Uint32Array(2 * n);
  for (let rank = 0, group = 0; rank < n; group++) for (let size = 1 + Math.floor(random() * 5); size > 0 && rank < n; size--) groupOfRank[rank++] = group;
  const lists = Array.from({ length: n }, (_, rank) => {
    const values = [...new Set(Array.from({ length: Math.floor(random() * 13) }, () => Math.floor(random() * valueCount)))];
    const seen = new Set<number>();
    const list: number[] = [];
    for (const value of values) {
      const dim = valueDim[value];
      list.push(value);
      if (dim < FIRST_PARAM) continue;
      if (seen.has(dim)) list.push(valueCount + dim);
      seen.add(dim);
      paramDims[2 * rank + ((dim - FIRST_PARAM) >>> 5)] |= 1 << ((dim - FIRST_PARAM) & 31);
    }
    return list;
  });
  const postOffsets = new Int32Array(n + 1);
  lists.forEach((list, rank) => (postOffsets[rank + 1] = postOffsets[rank] + list.length));
  const postings = new Uint16Array(postOffsets[n]);
  lists.forEach((list, rank) => postings.set(list, postOffsets[rank]));
  const dimValues = Int32Array.from({ length: dims + 1 }, (_, dim) => dim * perDim);
  return { valueDim, groupOfRank, paramDims, postOffsets, postings, dimValues, random };
}

it('counts a group with several documents in the set the same by its param dimensions as value by value', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 6000 }), fc.oneof(fc.constantFrom(FIRST_PARAM + 32, FIRST_PARAM + 33, FIRST_PARAM + 64), fc.integer({ min: FIRST_PARAM + 1, max: FIRST_PARAM + 64 })), fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }), (n, dims, seed, density) => {
      const made = layout(n, dims, seed);
      const ranks = new Uint32Array((n + 31) >>> 5);
      for (let rank = 0; rank < n; rank++) if (made.random() < density) ranks[rank >>> 5] |= 1 << (rank & 31);
      const task = (byDims: boolean): CountTask => ({
        ranks: ranks.slice(),
        fromWord: 0,
        toWord: ranks.length,
        postOffsets: made.postOffsets,
        postings: made.postings,
        groupOfRank: made.groupOfRank,
        groupOrder: Int32Array.from({ length: n }, (_, rank) => rank),
        collapse: true,
        out: new Int32Array(made.valueDim.length + dims),
        stamp: new Int32Array(made.valueDim.length + dims).fill(-1),
        valueDim: made.valueDim,
        multi: byDims ? newMulti(made.valueDim.length) : null,
        planes: byDims ? new Int32Array(PLANES) : null,
        paramDims: byDims ? made.paramDims : null,
        firstParamDim: FIRST_PARAM,
        pick: false,
        positionOfRank: null,
        values: null,
        valuesByRank: null,
        sign: 1,
        idRank: null,
        reps: null,
        positions: null,
      });
      const byValue = task(false);
      const byDimensions = task(true);
      countRanks(byValue);
      countRanks(byDimensions);
      presenceFromExcess(byValue.out!, made.dimValues, FIRST_PARAM);
      presenceFromExcess(byDimensions.out!, made.dimValues, FIRST_PARAM);
      expect(Array.from(byDimensions.out!)).toEqual(Array.from(byValue.out!));
      // Left as found: the next call starts from zero.
      expect(byDimensions.multi!.every((number, at) => at % 2 === 1 || number === 0)).toBe(true); // counts
      expect(byDimensions.planes!.every((bits) => bits === 0)).toBe(true);
    }),
    { numRuns: 200 },
  );
});
