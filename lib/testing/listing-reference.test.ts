import { expect, it } from 'vitest';
import { referencePriceStats, referenceWords } from './listing-reference';

// The reference's own statistics and folding, on cases worked out by hand from the spec's words.

it('folds words as decisions "Search" says, with the table for letters that are not accented ones', () => {
  expect(referenceWords('Straße STRAẞE strasse')).toEqual(['straße', 'straße', 'strasse']);
  expect(referenceWords('İSTANBUL ılık')).toEqual(['istanbul', 'ılık']);
  expect(referenceWords('Ёлка, ЙОГУРТ')).toEqual(['елка', 'иогурт']);
  expect(referenceWords('ΟΔΟΣ οδος Δρόμος')).toEqual(['οδοσ', 'οδοσ', 'δρομοσ']);
  expect(referenceWords('cre\u0300me brûlée \u0301x')).toEqual(['creme', 'brulee', 'x']);
  expect(referenceWords('RX-1 😀 𝒜b')).toEqual(['rx', '1', '𝒜b']);
  expect(referenceWords(' -- ')).toEqual([]);
});

it('computes range, median and buckets as spec 2.10 and CONTRACT §4 say', () => {
  expect(referencePriceStats([])).toBeNull();
  expect(referencePriceStats([5.5])).toEqual({ range: { min: 5, max: 6 }, median: 5, ranges: [{ from: 5, count: 1 }] });
  // Spread 245: a step of 50 would need 6 buckets; 100 needs 3, the middle one empty.
  expect(referencePriceStats([250, 5, 99.99, 10])).toEqual({ range: { min: 5, max: 250 }, median: 54, ranges: [{ to: 100, count: 3 }, { from: 200, count: 1 }] });
  // A price on a bound belongs to the bucket above it; 2.5 is no step (bounds are Integers), 25 is.
  expect(referencePriceStats([20, 19.999999999999996, 1])).toEqual({ range: { min: 1, max: 20 }, median: 19, ranges: [{ to: 5, count: 1 }, { from: 15, to: 20, count: 1 }, { from: 20, count: 1 }] });
  expect(referencePriceStats([3, 4, 6, 7])).toEqual({ range: { min: 3, max: 7 }, median: 5, ranges: [{ from: 3, to: 4, count: 1 }, { from: 4, to: 5, count: 1 }, { from: 6, to: 7, count: 1 }, { from: 7, count: 1 }] });
  expect(referencePriceStats([10, 110])).toEqual({ range: { min: 10, max: 110 }, median: 60, ranges: [{ to: 25, count: 1 }, { from: 100, count: 1 }] });
});
