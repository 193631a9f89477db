import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyBytes, objectMembers } from './item-spans';

const decoder = new TextDecoder();
const KEYS = ['id', 'available', 'categories', 'locations'];

/** The wanted members of the object in `text`, parsed from the spans objectMembers gives. */
function members(text: string, keys = KEYS): Record<string, unknown> | false {
  const bytes = new TextEncoder().encode(text);
  const out = new Int32Array(2 * keys.length);
  const start = bytes.findIndex((byte) => byte !== 0x20 && byte !== 0x0a);
  if (!objectMembers(bytes, start, keys.map(keyBytes), out)) return false;
  const found: Record<string, unknown> = {};
  keys.forEach((key, k) => {
    if (out[2 * k] >= 0) found[key] = JSON.parse(decoder.decode(bytes.subarray(out[2 * k], out[2 * k + 1])));
  });
  return found;
}

describe('objectMembers', () => {
  it('finds the wanted members as JSON.parse reads them, whatever the other values and spacing', () => {
    const key = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 5 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.jsonValue()), { maxLength: 8 }), fc.constantFrom(undefined, 0, 2, '\t'), (entries, indent) => {
        const object = Object.fromEntries(entries);
        const text = JSON.stringify(object, null, indent);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        expect(members(text)).toEqual(Object.fromEntries(KEYS.filter((k) => Object.hasOwn(parsed, k)).map((k) => [k, parsed[k]])));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads keys as JSON.parse does: escapes decoded, the last duplicate wins', () => {
    expect(members('{"\\u0069d": "a\\"}b", "id": 7, "categories": ["x"], "idx": 1}')).toEqual({ id: 7, categories: ['x'] });
    expect(members('{"i\\u0064": "é😀", "locations": [{"location": "s1"}]}')).toEqual({ id: 'é😀', locations: [{ location: 's1' }] });
    expect(members(' { "available" : 0 , "id" : "p" } ')).toEqual({ available: 0, id: 'p' });
    expect(members('{}')).toEqual({});
    expect(members('[1]')).toBe(false);
    expect(members('"id"')).toBe(false);
  });
});
