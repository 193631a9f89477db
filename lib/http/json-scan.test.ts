import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastScan, JsonSyntaxError, scanJson } from './json-scan';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What JSON.parse says of the same bytes: the value, or that it throws. */
function parsed(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

const KEYS = ['id', 'available', 'categories', 'é'];

/**
 * Checks scanJson against JSON.parse on `bytes`: the same verdict, and members, elements and
 * elements' KEYS members that parse to the same values.
 */
function agrees(bytes: Uint8Array): void {
  const expected = parsed(bytes);
  let members: ReturnType<typeof scanJson>;
  try {
    members = scanJson(bytes, KEYS);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect(expected.ok, `scanJson refused valid JSON: ${decoder.decode(bytes)} (${(error as Error).message})`).toBe(false);
    expect(fastScan(bytes, KEYS)).toBeUndefined();
    return;
  }
  expect(expected.ok, `scanJson accepted invalid JSON: ${decoder.decode(bytes)}`).toBe(true);
  if (!expected.ok) return;
  const value = expected.value;
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject) {
    expect(members).toBeNull();
    return;
  }
  expect(members).not.toBeNull();
  // The fast path reads every object these tests make (none is nested 200 deep), the same way.
  expect(fastScan(bytes, KEYS), `the fast path gave up on ${decoder.decode(bytes)}`).toEqual(members);
  const object = value as Record<string, unknown>;
  expect(new Set(members!.keys())).toEqual(new Set(Object.keys(object)));
  for (const [key, member] of members!) {
    const text = (start: number, end: number) => decoder.decode(bytes.subarray(start, end));
    expect(JSON.parse(text(member.start, member.end))).toEqual(object[key]);
    if (Array.isArray(object[key])) {
      const elements = member.elements!;
      expect(elements.length).toBe(2 * (object[key] as unknown[]).length);
      (object[key] as unknown[]).forEach((element, e) => {
        expect(JSON.parse(text(elements[2 * e], elements[2 * e + 1]))).toEqual(element);
        const isElementObject = typeof element === 'object' && element !== null && !Array.isArray(element);
        KEYS.forEach((wanted, k) => {
          const at = (e * KEYS.length + k) * 2;
          // None at all when no element is an object.
          const [start, end] = member.elementMembers ? [member.elementMembers[at], member.elementMembers[at + 1]] : [-1, -1];
          if (isElementObject && Object.hasOwn(element, wanted)) expect(JSON.parse(text(start, end))).toEqual((element as Record<string, unknown>)[wanted]);
          else expect([start, end]).toEqual([-1, -1]);
        });
      });
    } else {
      expect(member.elements).toBeUndefined();
      expect(member.elementMembers).toBeUndefined();
    }
  }
}

// Pieces JSON is made of, and bytes that break it: put together at random, they make mostly
// invalid texts that are close to valid ones.
const PIECES = ['{', '}', '[', ']', ',', ':', ' ', '\n', '\t', '"', '"a"', '"k"', '1', '-', '0', '.5', 'e', 'E+', '2', 'true', 'tru', 'null', 'false', '\\', '\\u00e9', '\\x', '\u0001', 'é', '\u{1f600}', '\\"'];

describe('scanJson', () => {
  it('agrees with JSON.parse on generated JSON values, formatted or not', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        agrees(encoder.encode(JSON.stringify(value, null, pretty ? 2 : undefined)));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with JSON.parse on import-like objects', () => {
    const member = fc.oneof(fc.array(fc.jsonValue(), { maxLength: 6 }), fc.jsonValue());
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), member, { maxKeys: 5 }), fc.boolean(), (object, pretty) => {
        agrees(encoder.encode(JSON.stringify(object, null, pretty ? 1 : undefined)));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the members of elements as JSON.parse reads them', () => {
    const element = fc.oneof(
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 3 })), fc.jsonValue()), { maxLength: 6 }).map((entries) => Object.fromEntries(entries)),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 5 }), fc.constantFrom(undefined, 0, 2, '\t'), (items, indent) => {
        agrees(encoder.encode(JSON.stringify({ shop_id: 's', items, other: [{ id: 1 }] }, null, indent)));
      }),
      { numRuns: 3000 },
    );
    // Escaped keys are decoded and the last of a repeated key counts; deeper keys do not count.
    const text = '{"items": [{"\\u0069d": "a\\"}b", "id": 7, "x": {"id": 8}, "\\u00e9": [1]}, {"available": 0}, [3]]}';
    const members = scanJson(encoder.encode(text), KEYS)!.get('items')!;
    const value = (e: number, k: number) => {
      const at = (e * KEYS.length + k) * 2;
      return members.elementMembers![at] < 0 ? undefined : JSON.parse(text.slice(members.elementMembers![at], members.elementMembers![at + 1]));
    };
    expect([value(0, 0), value(0, 1), value(0, 3), value(1, 0), value(1, 1), value(2, 0)]).toEqual([7, undefined, [1], undefined, 0, undefined]);
    expect(scanJson(encoder.encode('{"items": ["a", 1, [{"id": 2}]]}'), KEYS)!.get('items')!.elementMembers).toBeUndefined();
  });

  it('agrees with JSON.parse on near-JSON texts, valid or not', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }), (pieces) => {
        agrees(encoder.encode(pieces.join('')));
      }),
      { numRuns: 20000 },
    );
  });

  it('agrees with JSON.parse when one byte of a valid text is changed, dropped or cut off', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 4 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('change', 'drop', 'cut'), (object, at, byte, how) => {
        const bytes = encoder.encode(JSON.stringify(object));
        const k = at % bytes.length;
        if (how === 'change') bytes[k] = byte;
        const mutated = how === 'drop' ? new Uint8Array([...bytes.subarray(0, k), ...bytes.subarray(k + 1)]) : how === 'cut' ? bytes.subarray(0, k) : bytes;
        agrees(mutated);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the last of a repeated key, unescapes keys and reads deep nesting without recursion', () => {
    const members = scanJson(encoder.encode('{"items":[1],"\\u0069tems":[2,3],"x":{}}'))!;
    expect([...members.keys()].sort()).toEqual(['items', 'x']);
    expect(Array.from(members.get('items')!.elements!)).toEqual([27, 28, 29, 30]);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(scanJson(encoder.encode(deep))).toBeNull();
    // Past the fast path's depth, the exact way answers.
    const deepText = `{"a":${'['.repeat(1000)}${']'.repeat(1000)},"items":[{"id":1}]}`;
    const deepMember = encoder.encode(deepText);
    expect(fastScan(deepMember, ['id'])).toBeUndefined();
    const at = deepText.indexOf('1}');
    expect(Array.from(scanJson(deepMember, ['id'])!.get('items')!.elementMembers!)).toEqual([at, at + 1]);
  });

  it('names the fault and its byte offset', () => {
    const fault = (text: string) => {
      try {
        scanJson(encoder.encode(text));
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(fault('{"a":')).toBe('Unexpected end of JSON at byte 5');
    expect(fault('{"a":1,}')).toBe("Unexpected character '}' at byte 7");
    expect(fault('{"a":"x\ny"}')).toBe('Bad control character 0x0a in string at byte 7');
    expect(fault('{"a":"\\q"}')).toBe('Bad escape in string at byte 6');
    expect(fault('{"a":"open')).toBe('Unterminated string at byte 5');
    expect(fault('\ufeff{}')).toBe('Unexpected byte 0xef at byte 0');
  });
});
