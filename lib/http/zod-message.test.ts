import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { describeZodError, formatPath } from './zod-message';

describe('formatPath', () => {
  it('writes object keys with dots and indexes with brackets', () => {
    expect(formatPath(['items', 3, 'locations', 0, 'price'])).toBe('items[3].locations[0].price');
    expect(formatPath([])).toBe('');
  });
});

describe('describeZodError', () => {
  it('prefixes generic messages with their path and leaves sentences alone', () => {
    const schema = z.object({ price: z.number().positive('price must be greater than 0'), tags: z.array(z.string()) });
    const result = schema.safeParse({ price: -1, tags: [1] });
    expect(result.success).toBe(false);
    const message = describeZodError(result.error!);
    expect(message).toContain('price must be greater than 0');
    expect(message).toMatch(/tags\[0\]: /);
  });

  it("names a record's value by its key when its message is about the record's field", () => {
    const schema = z.object({ offers: z.array(z.object({ counts: z.record(z.string(), z.number({ error: 'offers[].counts must be numbers' })) })) });
    const result = schema.safeParse({ offers: [{ counts: { a: 1 } }, { counts: { store: 'x' } }] });
    expect(describeZodError(result.error!)).toBe('offers[1].counts.store must be numbers');
  });

  it('keeps at most five problems', () => {
    const schema = z.object(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, z.string()])));
    const result = schema.safeParse({});
    expect(describeZodError(result.error!).split('; ')).toHaveLength(5);
  });
});
