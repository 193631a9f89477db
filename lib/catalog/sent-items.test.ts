import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJson } from '@/lib/http/json-scan';
import { bodyItems, listedItems, makeDigests, SUMMARY_KEYS } from './sent-items';

// What a summary reads, of every kind a body can hold: plain and escaped strings, numbers,
// literals, lists of strings and of offers, and values of the wrong shape.
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a\\b', 'x"y', ' c ', 'é', '\u{1f600}', 'p1'));
const offer = fc.oneof(fc.record({ location: fc.oneof(text, fc.integer()), price: fc.double({ noNaN: true, noDefaultInfinity: true }) }, { requiredKeys: [] }), fc.jsonValue());
const item = fc.record(
  {
    id: fc.oneof(text, fc.integer(), fc.jsonValue()),
    available: fc.oneof(fc.boolean(), fc.constant(null), fc.integer(), fc.jsonValue()),
    categories: fc.oneof(fc.array(text, { maxLength: 4 }), fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }), fc.jsonValue()),
    locations: fc.oneof(fc.array(offer, { maxLength: 4 }), fc.constant(null), fc.jsonValue()),
    name: text,
  },
  { requiredKeys: [] },
);

describe('bodyItems', () => {
  it('reads ids and summaries from the bytes as JSON.parse gives them', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(item, fc.jsonValue()), { maxLength: 6 }), fc.constantFrom(undefined, 1, '\t'), (items, indent) => {
        const body = Buffer.from(JSON.stringify({ shop_id: 's', items }, null, indent));
        const member = scanJson(body, SUMMARY_KEYS)!.get('items')!;
        const sent = bodyItems(body, member.elements!, member.elementMembers);
        const listed = listedItems(JSON.parse(body.toString()).items as unknown[]);
        expect(sent.count).toBe(listed.count);
        for (let position = 0; position < sent.count; position++) {
          expect(sent.id(position)).toEqual(listed.id(position));
          const summary = sent.summary(position);
          const expected = listed.summary(position);
          expect(summary.available).toEqual(expected.available);
          expect(summary.categories).toEqual(expected.categories);
          // A summary's offers are read for their locations only.
          const locations = (offers: unknown) => (Array.isArray(offers) ? offers.map((o) => (typeof o === 'object' && o !== null ? (o as { location?: unknown }).location : o)) : offers);
          expect(locations(summary.locations)).toEqual(locations(expected.locations));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('digests each item by its bytes as sent, made in turns or when asked for', async () => {
    const items = Array.from({ length: 3000 }, (_, n) => ({ id: `p${n % 1500}`, name: 'a' }));
    const body = Buffer.from(JSON.stringify({ shop_id: 's', items: [...items, { id: 'p0', name: 'a' }, { id: 'p0', name: 'b' }, { name: 'a', id: 'p0' }] }));
    const member = scanJson(body, SUMMARY_KEYS)!.get('items')!;
    const asked = bodyItems(body, member.elements!, member.elementMembers);
    const made = bodyItems(body, member.elements!, member.elementMembers);
    await makeDigests(made);
    for (let position = 0; position < asked.count; position++) expect(made.digest(position)).toBe(asked.digest(position));
    // The same bytes, the same digest; other bytes (other values, or the same in another order), another.
    expect(made.digest(1500)).toBe(made.digest(0));
    expect(made.digest(3000)).toBe(made.digest(0));
    expect(made.digest(3001)).not.toBe(made.digest(0));
    expect(made.digest(3002)).not.toBe(made.digest(0));
    expect(made.digest(0)).toMatch(/^2:[A-Za-z0-9+/]{22}$/);
  });
});
