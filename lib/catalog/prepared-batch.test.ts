import { describe, expect, it } from 'vitest';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { facetTokenList } from '@/lib/catalog/facet-tokens';
import { BinaryRows } from './copy-rows';
import { PreparedBatch } from './prepared-batch';
import { validateAndPrepare, writeFields } from './prepared-items';

const leaves = leafCategories(syntheticCategories());
const locations = syntheticLocations();

/** What the batch should hold for an item: its fields (offers among them) as writeFields writes them, its tokens' texts. */
function expected(raw: unknown, position: number, text?: string) {
  const valid = validateAndPrepare(raw, position, () => text);
  if (!valid.ok) return { problem: valid.problem };
  const fields = new BinaryRows(64);
  writeFields(fields, valid.prepared.fields);
  return { id: valid.item.id, available: valid.prepared.available, fields: fields.take().toString('hex'), tokens: facetTokenList(valid.prepared.facets) };
}

function held(batch: PreparedBatch, position: number) {
  const entry = batch.entry(position)!;
  if (!entry.ok) return { problem: entry.problem };
  return {
    id: entry.id,
    available: entry.available,
    fields: batch.fields(entry).toString('hex'),
    tokens: entry.facets?.map((number) => batch.token(number)) ?? null,
  };
}

describe('PreparedBatch', () => {
  it('holds for each item its fields (offers among them) and facet tokens as the item alone gives them, through growth', () => {
    const batch = new PreparedBatch(1024);
    const sent = Array.from({ length: 300 }, (_, n) => syntheticItem(n, leaves, locations));
    // Prepared out of order, as items skipped ahead are prepared when reached.
    const order = sent.map((_, position) => position).sort((a, b) => (a * 37) % 300 - (b * 37) % 300);
    for (const position of order) {
      const text = JSON.stringify(sent[position]);
      batch.prepare(position, JSON.parse(text), () => text);
    }
    for (let position = 0; position < sent.length; position++) {
      const text = JSON.stringify(sent[position]);
      expect(held(batch, position)).toEqual(expected(JSON.parse(text), position, text));
    }
    expect(sent.some((item) => Array.isArray(item.locations) && item.locations.length > 0)).toBe(true);
  });

  it('numbers the tokens of its items densely, the same token the same number', () => {
    const batch = new PreparedBatch();
    const a = { id: 'a', name: 'A', price: 1, url: 'https://s.example/a', picture: 'https://s.example/a.jpg', categories: ['c1', 'c2'], brand: 'Acme' };
    const b = { ...a, id: 'b', categories: ['c2'], brand: 'Other' };
    const first = batch.prepare(0, a);
    const second = batch.prepare(1, b);
    expect(first.ok && first.facets).toEqual([0, 1, 2]);
    expect(second.ok && second.facets).toEqual([1, 3]);
    expect([0, 1, 2, 3].map((n) => batch.token(n))).toEqual(['cc1', 'cc2', 'bAcme', 'bOther']);
  });

  it('holds a rejected item with the reason validation gives', () => {
    const batch = new PreparedBatch();
    const raw = { id: 'x', name: 'X', price: -5, url: 'https://s.example/x', picture: 'https://s.example/x.jpg', categories: [] };
    const entry = batch.prepare(4, raw);
    expect(entry.ok).toBe(false);
    expect(held(batch, 4)).toEqual(expected(raw, 4));
    expect(batch.entry(3)).toBeUndefined();
  });

  it('holds null facets for an item with a token PostgreSQL cannot store', () => {
    const batch = new PreparedBatch();
    const entry = batch.prepare(0, { id: 'n', name: 'N', price: 1, url: 'https://s.example/n', picture: 'https://s.example/n.jpg', categories: ['c'], brand: 'A\u0000' });
    expect(entry.ok).toBe(true);
    expect(entry.ok && entry.facets).toBeNull();
  });

  it('crosses to another thread whole: parts give back the same entries, fields and tokens', () => {
    const made = new PreparedBatch(256);
    const sent: unknown[] = Array.from({ length: 60 }, (_, n) => syntheticItem(n, leaves, locations));
    sent[7] = { id: 'bad', price: 'x' };
    sent[9] = { id: 'nul', name: 'N', price: 1, url: 'https://s.example/n', picture: 'https://s.example/n.jpg', categories: ['c'], brand: 'A\u0000' };
    // Some positions left out, as items guessed unchanged are; the rest in no particular order,
    // one of them twice (the last counts).
    made.prepare(11, { id: 'first', price: 'x' });
    for (let position = sent.length - 1; position >= 0; position -= 2) if (position % 5 !== 3) made.prepare(position, JSON.parse(JSON.stringify(sent[position])));
    for (let position = 0; position < sent.length; position++) {
      if (position % 5 === 3) continue;
      const text = JSON.stringify(sent[position]);
      made.prepare(position, JSON.parse(text), () => text);
    }
    expect(held(made, 11)).toEqual(expected(sent[11], 11));
    const before = sent.map((_, position) => (made.entry(position) ? held(made, position) : undefined));
    const crossed = PreparedBatch.fromParts(structuredClone(made.parts()));
    expect(crossed.madeHere).toBe(false);
    expect(sent.map((_, position) => (crossed.entry(position) ? held(crossed, position) : undefined))).toEqual(before);
    expect(before[7]).toHaveProperty('problem');
    expect(before[3]).toBeUndefined();
    for (const position of [-1, 1.5, sent.length, 1e6]) expect(crossed.entry(position), String(position)).toBeUndefined();
    expect(before[9]).toMatchObject({ tokens: null });
    // Prepared after crossing: its tokens number on from the crossed ones, the same token the same number.
    const text = JSON.stringify(sent[3]);
    crossed.prepare(3, JSON.parse(text), () => text);
    expect(held(crossed, 3)).toEqual(expected(JSON.parse(text), 3, text));
    // The crossed entries read the same after it.
    expect(sent.map((_, position) => (position !== 3 && crossed.entry(position) ? held(crossed, position) : undefined))).toEqual(before);
    const numbers = (crossed.entry(3) as { facets: number[] }).facets;
    const known = (crossed.entry(0) as { facets: number[] }).facets;
    const shared = known.filter((number) => numbers.some((other) => crossed.token(other) === crossed.token(number)));
    // The synthetic items share categories' ancestors and params: some tokens are the same.
    expect(shared.length).toBeGreaterThan(0);
    for (const number of shared) expect(numbers.filter((other) => crossed.token(other) === crossed.token(number))).toEqual([number]);
  });
});
