import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arraySpans } from './item-spans';

const decoder = new TextDecoder();

function elements(text: string, field: string): unknown[] | undefined {
  const bytes = new TextEncoder().encode(text);
  const spans = arraySpans(bytes, field);
  if (!spans) return undefined;
  const out: unknown[] = [];
  for (let i = 0; i < spans.length; i += 2) out.push(JSON.parse(decoder.decode(bytes.subarray(spans[i], spans[i + 1]))));
  return out;
}

describe('arraySpans', () => {
  it('finds each element of the array, whatever the values and spacing', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue(), { maxLength: 6 }), fc.constantFrom(undefined, 0, 2, '\t'), (rest, items, indent) => {
        const body = { ...rest, items };
        const text = JSON.stringify(body, null, indent);
        expect(elements(text, 'items')).toEqual(JSON.parse(text).items);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads keys as JSON.parse does: escapes decoded, the last duplicate wins', () => {
    expect(elements('{"it\\u0065ms": [1, "a\\"]b", {"x": [2]}], "shop_id": "s"}', 'items')).toEqual([1, 'a"]b', { x: [2] }]);
    expect(elements('{"items": [1], "items": [2, 3]}', 'items')).toEqual([2, 3]);
    expect(elements('{"items": [1], "items": null}', 'items')).toBeUndefined();
    expect(elements('{"shop_id": "s"}', 'items')).toBeUndefined();
    expect(elements(' { "items" : [ ] } ', 'items')).toEqual([]);
    expect(elements('{"items": ["\\\\", "é😀", -1.5e3, true, null]}', 'items')).toEqual(['\\', 'é😀', -1500, true, null]);
  });
});
