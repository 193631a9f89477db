import { describe, expect, it } from 'vitest';
import { layOut, type LayoutTask } from './layout-kernel';
import { layOutAside } from './layout-worker';

/**
 * A task of `n` documents in random groups, each load with a few tokens drawn from `numbers`
 * token numbers: brands (with variants), their pictures, and multi-valued tokens (as a category's
 * ancestors) that share values, so values repeat within a document.
 */
function task(n: number, seed: number): LayoutTask {
  let state = seed;
  const random = (below: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % below;
  };
  const numbers = 40;
  const valueCount = 30;
  const dimCount = 4;
  const numberFrom = new Int32Array(numbers + 1);
  const values: number[] = [];
  const numberVariant = new Int32Array(numbers).fill(-1);
  const numberRole = new Uint8Array(numbers);
  let variants = 0;
  for (let k = 0; k < numbers; k++) {
    if (k % 10 === 9) numberRole[k] = 2; // a picture: no values
    else {
      const count = 1 + random(3);
      for (let i = 0; i < count; i++) values.push(random(valueCount));
      if (k % 5 === 0) {
        numberRole[k] = 1;
        numberVariant[k] = variants++;
      }
    }
    numberFrom[k + 1] = values.length;
  }
  const loadFrom = new Int32Array(n);
  const loadTo = new Int32Array(n);
  const tokens: number[] = [];
  for (let load = 0; load < n; load++) {
    loadFrom[load] = tokens.length;
    for (let i = random(6); i > 0; i--) tokens.push(random(numbers));
    loadTo[load] = tokens.length;
  }
  const perm = Int32Array.from({ length: n }, (_, doc) => doc);
  for (let i = n - 1; i > 0; i--) {
    const j = random(i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const groupOrder = new Int32Array(new SharedArrayBuffer(4 * n));
  groupOrder.set(perm.slice().reverse());
  return {
    n,
    perm,
    groupOrder,
    loadFrom,
    loadTo,
    loadNumbers: Uint16Array.from(tokens),
    loadPrice: Float64Array.from({ length: n }, () => 1 + random(5)), // ties on price
    loadIdRank: Int32Array.from(perm),
    numberFrom,
    numberValues: Int32Array.from(values),
    numberVariant,
    numberRole,
    variantCount: variants,
    perToken: 6,
    valueDim: Int32Array.from({ length: valueCount }, (_, value) => value % dimCount),
    valueCount,
    dimCount,
    firstParamDim: 1,
    narrow: true,
    postOffsets: new Int32Array(new SharedArrayBuffer(4 * (n + 1))),
  };
}

const plain = (result: object) => Object.fromEntries(Object.entries(result).map(([key, value]) => [key, Array.from(value as Int32Array)]));

describe('layOutAside', () => {
  it('lays out on the worker exactly what this thread lays out, shared offsets included', async () => {
    for (const seed of [1, 2, 3]) {
      const here = task(5_000, seed);
      const expected = plain(layOut(here));
      const expectedOffsets = Array.from(here.postOffsets);
      const aside = task(5_000, seed);
      const numbers = aside.loadNumbers.buffer as ArrayBuffer;
      const result = await layOutAside(aside, [numbers]);
      expect(numbers.byteLength, 'the tokens were moved, not copied').toBe(0);
      expect(plain(result)).toEqual(expected);
      expect(Array.from(aside.postOffsets)).toEqual(expectedOffsets);
      expect(result.postings.buffer).toBeInstanceOf(SharedArrayBuffer);
      // Something was laid out: values repeat within documents, and pictures and variants were picked.
      expect(expectedOffsets[5_000]).toBeGreaterThan(5_000);
      expect(Math.max(...expected.pictureLoad)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...expected.variantLoad)).toBeGreaterThanOrEqual(0);
    }
  });

  it('gives every task its own answer when several wait', async () => {
    const sizes: [number, number][] = [[3_000, 7], [4_000, 8], [2_000, 9]];
    const expected = sizes.map(([n, seed]) => plain(layOut(task(n, seed))));
    const results = await Promise.all(sizes.map(([n, seed]) => layOutAside(task(n, seed), [])));
    expect(results.map(plain)).toEqual(expected);
  });
});
