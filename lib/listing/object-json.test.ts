import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectJson, plainKeys } from './object-json';

describe('objectJson', () => {
  it('writes what JSON.stringify writes for the object given those members in that order', () => {
    // Keys that are array indexes, near misses ("01", "-1", 2^32 - 1) and repeats.
    const key = fc.oneof(fc.string(), fc.nat({ max: 50 }).map(String), fc.constantFrom('01', '-1', '1.5', '4294967294', '4294967295', '', '__proto__'));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.integer()), { maxLength: 20 }), (members) => {
        const object: Record<string, number> = {};
        // As Object.fromEntries makes members ("__proto__" is a member like any other).
        for (const [name, value] of members) Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
        const written = objectJson(members.map(([name]) => name), members.map(([, value]) => String(value)));
        expect(written).toBe(JSON.stringify(object));
        if (plainKeys(members.map(([name]) => name))) expect(Object.keys(object)).toEqual(members.map(([name]) => name));
      }),
      { numRuns: 2000 },
    );
  });
});
