import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { generatedItem as item } from '@/lib/testing/item-arbitraries';
import { checkItem } from './item-rules';
import { ItemInput } from './product-schema';

/** JSON with keys sorted: what jsonb keeps, whatever order the keys were set in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );
}

/** The fast path either declines or answers exactly as zod; it never accepts what zod refuses. */
function expectAgrees(input: unknown) {
  const checked = checkItem(input);
  const zod = ItemInput.safeParse(input);
  if (checked === undefined) return false;
  expect(zod.success, `zod refused what the fast path accepted: ${JSON.stringify(input)}`).toBe(true);
  expect(canonical(checked.item)).toBe(canonical(zod.data));
  // "Exact" lets the item's text as sent be stored for it: it must be the same JSON.
  if (checked.exact) expect(canonical(checked.item)).toBe(canonical(input));
  return true;
}

describe('checkItem', () => {
  it('accepts every item of the benchmark catalog, with zod’s output', () => {
    const leaves = leafCategories(syntheticCategories());
    const locations = syntheticLocations();
    for (let n = 0; n < 2000; n++) {
      const raw = JSON.parse(JSON.stringify(syntheticItem(n, leaves, locations))) as unknown;
      expect(expectAgrees(raw), `item ${n} went to zod`).toBe(true);
    }
  });

  it('agrees with zod on generated items, valid and not', () => {
    let taken = 0;
    fc.assert(
      fc.property(item, (input) => {
        if (expectAgrees(JSON.parse(JSON.stringify(input)))) taken++;
      }),
      { numRuns: 20_000 },
    );
    // The generator must reach the fast path often enough for the comparison to mean something
    // (over 40 seeds: least 949, median 1,019 of the 20,000).
    expect(taken).toBeGreaterThan(700);
  }, 60_000);

  it('declines what only zod can word: a missing name, a bad param, the __proto__ key', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'] };
    expect(checkItem(base)?.item).toEqual(base);
    expect(checkItem({ ...base, name: undefined })?.item).toBeUndefined();
    expect(checkItem({ ...base, params: [{ name: 'x' }] })?.item).toBeUndefined();
    expect(checkItem(JSON.parse('{"id":"a","name":"n","url":"u","picture":"p","price":1,"categories":[],"__proto__":{}}'))?.item).toBeUndefined();
  });

  it('says whether the output is the item as sent', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'], params: [{ name: 'x', value: ['y'] }], extra: { any: 1 } };
    expect(checkItem(base)?.exact).toBe(true);
    for (const changed of [{ id: 7 }, { name: ' n' }, { categories: [1] }, { available: 2 }, { merchant: 'm' }, { params: [{ name: 'x', value: 'y' }] }, { params: [{ name: 3, value: ['y'] }] }, { group_id: 5 }, { fashion: { colors: ['red'] } }]) {
      expect(checkItem({ ...base, ...changed })?.exact, JSON.stringify(changed)).toBe(false);
    }
    expect(checkItem({ ...base, fashion: { gender: 'f', sizes: [42] } })?.exact).toBe(true);
  });

  it('gives an item it takes unchanged back itself, and copies only the parts a check changes', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'], params: [{ name: 'x', value: ['y'] }, { name: 'z', value: ['w'] }] };
    expect(checkItem(base)?.item).toBe(base);
    const sent = structuredClone({ ...base, categories: ['1', 2], params: [base.params[0], { name: 'z', value: 'w' }], tail: true });
    const copy = structuredClone(sent);
    const checked = checkItem(sent)!;
    expect(checked.item).toEqual({ ...sent, categories: ['1', '2'], params: [base.params[0], { name: 'z', value: ['w'] }] });
    expect(Object.keys(checked.item)).toEqual(Object.keys(sent));
    // The input is left as sent; what no check changed is shared.
    expect(sent).toEqual(copy);
    expect(checked.item.params![0]).toBe(sent.params[0]);
  });
});
