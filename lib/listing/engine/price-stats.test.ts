import fc from 'fast-check';
import { expect, it } from 'vitest';
import { add, emptySet } from '../indexing';
import { Buffers } from './buffers';
import { priceStats, priceStatsOfSet, priceStatsOfSetAnd, sortPrices } from './price-stats';

const price = fc.oneof(
  fc.integer({ min: 1, max: 2_000 }),
  fc.integer({ min: 1, max: 10_000_000 }).map((cents) => cents / 100),
  fc.constantFrom(0.01, 0.3, 99.99, 100, 1e9, 123456789.12),
);

it('gives from a set of documents with ascending prices exactly what priceStats gives from their prices', () => {
  fc.assert(
    fc.property(fc.array(price, { minLength: 1, maxLength: 300 }), fc.array(fc.boolean(), { minLength: 300, maxLength: 300 }), (unsorted, chosen) => {
      const prices = Float64Array.from(unsorted).sort();
      const set = emptySet(prices.length);
      const members: number[] = [];
      prices.forEach((value, doc) => {
        if (chosen[doc]) {
          add(set, doc);
          members.push(value);
        }
      });
      expect(priceStatsOfSet(prices, set, members.length)).toEqual(priceStats(Float64Array.from(members), members.length));
    }),
    { numRuns: 2000 },
  );
});

it('gives from a set of documents and a sorted list of further prices what priceStats gives from all of them', () => {
  fc.assert(
    fc.property(
      fc.array(price, { maxLength: 200 }),
      fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
      fc.array(price, { maxLength: 120 }),
      (unsorted, chosen, further) => {
        const prices = Float64Array.from(unsorted).sort();
        const set = emptySet(prices.length);
        const all: number[] = [...further];
        let count = 0;
        prices.forEach((value, doc) => {
          if (chosen[doc]) {
            add(set, doc);
            all.push(value);
            count++;
          }
        });
        const expected = all.length ? priceStats(Float64Array.from(all), all.length) : null;
        expect(priceStatsOfSetAnd(prices, set, count, Float64Array.from(further).sort())).toEqual(expected);
      },
    ),
    { numRuns: 3000 },
  );
});

it('buckets prices on the bounds exactly as priceStats does', () => {
  const prices = Float64Array.from([100, 200, 200, 300, 400, 500, 500.5, 999.99]);
  const set = emptySet(prices.length);
  for (let doc = 0; doc < prices.length; doc++) add(set, doc);
  const stats = priceStatsOfSet(prices, set, prices.length);
  expect(stats).toEqual(priceStats(prices.slice(), prices.length));
  expect(stats!.ranges.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(prices.length);
});

it('sorts prices by their bits exactly as a typed array sorts them', () => {
  const value = fc.oneof(price, fc.double({ min: 0, max: 1e300, noNaN: true }), fc.constantFrom(0, Number.MIN_VALUE, 2.5e-320, 1, 1 + Number.EPSILON, 2 ** 32, 2 ** 53 + 2));
  fc.assert(
    fc.property(fc.array(value, { maxLength: 1200, size: 'max' }), fc.boolean(), (values, negative) => {
      const prices = Float64Array.from(negative ? [...values, -1, -0] : values);
      const expected = prices.slice().sort();
      expect(sortPrices(prices)).toEqual(expected);
      expect(Array.from(prices, (p) => Object.is(p, -0))).toEqual(Array.from(expected, (p) => Object.is(p, -0)));
    }),
    { numRuns: 500 },
  );
});

it('sorts prices in whole cents by their cents exactly as a typed array sorts them', () => {
  const cents = fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 1, 4095, 4096, 0xffffff, 0x1000000, 0xffffffff));
  fc.assert(
    fc.property(fc.array(cents, { minLength: 256, maxLength: 1500 }), fc.constantFrom(null, 0.1 + 0.2, 2 ** 32 / 100 + 0.01, 1 / 3), (whole, odd) => {
      // `odd` is not a whole number of cents below 2^32 cents: with it, the prices go by their bits.
      const prices = Float64Array.from(odd === null ? whole.map((c) => c / 100) : [...whole.map((c) => c / 100), odd]);
      const expected = prices.slice().sort();
      expect(sortPrices(prices)).toEqual(expected);
    }),
    { numRuns: 300 },
  );
});

it('sorts and counts the same with work arrays kept from earlier calls', () => {
  const buffers = new Buffers();
  const cents = fc.integer({ min: 0, max: 10_000_000 }).map((c) => c / 100);
  const list = fc.array(fc.oneof(cents, fc.double({ min: 0, max: 1e9, noNaN: true })), { minLength: 200, maxLength: 900 });
  fc.assert(
    fc.property(fc.array(list, { minLength: 2, maxLength: 4 }), fc.array(fc.boolean(), { minLength: 900, maxLength: 900 }), (lists, chosen) => {
      for (const values of lists) {
        const prices = Float64Array.from(values);
        expect(sortPrices(prices.slice(), buffers)).toEqual(prices.slice().sort());
        const sorted = prices.slice().sort();
        const set = emptySet(sorted.length);
        sorted.forEach((_, doc) => chosen[doc] && add(set, doc));
        const count = chosen.slice(0, sorted.length).filter(Boolean).length;
        expect(priceStatsOfSetAnd(sorted, set, count, sorted.slice(0, 50), buffers)).toEqual(priceStatsOfSetAnd(sorted, set, count, sorted.slice(0, 50)));
      }
    }),
    { numRuns: 200 },
  );
});
