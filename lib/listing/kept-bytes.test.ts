import { expect, it } from 'vitest';
import { keptBytes } from './index-memo';

it('counts typed arrays by their bytes, strings by two bytes a character, arrays by their slots', () => {
  expect(keptBytes(new Int32Array(10), 3)).toBe(40);
  expect(keptBytes('abcd', 3)).toBe(8);
  expect(keptBytes([1, 2, 3], 3)).toBe(48);
  expect(keptBytes(null, 3)).toBe(0);
  expect(keptBytes(42, 3)).toBe(0);
  expect(keptBytes(Promise.resolve(new Int32Array(10)), 3)).toBe(0);
});

it("walks maps' values and objects' own members down to the depth asked, and takes a value's own estimate", () => {
  const entry = { counts: new Int32Array(4), label: 'ab', inner: { deeper: new Float64Array(2) } };
  expect(keptBytes(entry, 1)).toBe(16 + 4);
  expect(keptBytes(entry, 2)).toBe(16 + 4 + 16);
  expect(keptBytes(new Map([['a', entry], ['b', entry]]), 2)).toBe(2 * (16 + 4));
  expect(keptBytes({ sized: { estimatedBytes: () => 1000, hidden: new Int32Array(100) } }, 3)).toBe(1000);
  class Kept {
    rows = new Uint8Array(7);
    size() {
      return 0;
    }
  }
  expect(keptBytes(new Kept(), 2)).toBe(7);
  expect(keptBytes(new Set([new Int32Array(10)]), 2)).toBe(0);
});
