import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ImportProblem } from '@/db/schema';
import { scanJson } from '@/lib/http/json-scan';
import { rejectedIdOf } from './import-outcome';
import { bodyIds, listedIds, type ListedIds } from './listed-ids';

function read(listed: ListedIds): { lines: string[]; distinct: number; rejected: ImportProblem[] } {
  const rejected: ImportProblem[] = [];
  const { copy, distinct } = listed.read((problem) => rejected.push(problem));
  const text = copy.toString('utf8');
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return { lines: text === '' ? [] : text.slice(0, -1).split('\n'), distinct, rejected };
}

/** The entries as a request body carries them (with `spacing` between tokens), read from its bytes. */
function fromBody(list: unknown[], spacing = ''): ListedIds {
  const body = Buffer.from(JSON.stringify({ shop_id: 's', items: list }, null, spacing));
  return bodyIds(body, scanJson(body)!.get('items')!.elements!);
}

describe('listed ids', () => {
  it('gives each id once, as a COPY line, in the order first listed', () => {
    const list = ['b', 'a', 'b', ' a ', 7, '7', 'é', 'tab\there', 'back\\slash', 'x'.repeat(64)];
    for (const listed of [listedIds(list), fromBody(list), fromBody(list, '  ')]) {
      const { lines, distinct, rejected } = read(listed);
      expect(lines).toEqual(['b', 'a', '7', 'é', 'tab\\there', 'back\\\\slash', 'x'.repeat(64)]);
      expect(distinct).toBe(7);
      expect(rejected).toEqual([]);
      expect(listed.count).toBe(10);
    }
  });

  it('rejects entries that are not ids, with their positions, and keeps the others', () => {
    const list = ['ok', '', '   ', null, { id: 'in-object' }, 'x'.repeat(65), 'nul\0', true, 'fine'];
    for (const listed of [listedIds(list), fromBody(list)]) {
      const { lines, distinct, rejected } = read(listed);
      expect(lines).toEqual(['ok', 'fine']);
      expect(distinct).toBe(2);
      expect(rejected.map((problem) => problem.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(rejected[0].message).toBe('items[1] must be a product id: id must not be empty');
      expect(rejected[3]).toMatchObject({ item_id: 'in-object', message: 'items[4] must be a product id: id must be a string or a number' });
      expect(rejected[4].message).toBe('items[5] must be a product id: id must be at most 64 characters');
    }
  });

  it('reads a body as the same entries parsed would be read (property)', () => {
    const piece = fc.constantFrom('a', 'B', '7', ' ', '\\', '"', '\t', '\n', 'é', '😀', '\u00a0', '\0', '-');
    const entry = fc.oneof(
      fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('')),
      fc.constantFrom('a', 'b', 'aa', ' a', 'a '),
      fc.integer({ min: -50, max: 50 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(null, true, false, [], {}, { id: 'a' }),
      fc.array(piece, { maxLength: 4 }).map((pieces) => ({ id: pieces.join('') })),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 40 }), (list) => {
        const fromBytes = read(fromBody(list));
        expect(fromBytes).toEqual(read(listedIds(list)));
        // What the applier sends PostgreSQL: kept ids and the ids of rejected entries, none with a NUL.
        expect(fromBytes.lines.join('')).not.toContain('\0');
        for (const problem of fromBytes.rejected) expect(rejectedIdOf(problem) ?? '').not.toContain('\0');
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses an id with a NUL, as a string or in an object, naming it; the applier lists none of them', () => {
    const list = ['a\0b', { id: 'c\0' }, '\0', ' d\0 ', 'ok'];
    for (const listed of [listedIds(list), fromBody(list)]) {
      const { lines, rejected } = read(listed);
      expect(lines).toEqual(['ok']);
      expect(rejected).toEqual([
        { item_id: 'a\0b', position: 0, message: 'items[0] must be a product id: id must not contain NUL characters' },
        { item_id: 'c\0', position: 1, message: 'items[1] must be a product id: id must be a string or a number' },
        { item_id: '\0', position: 2, message: 'items[2] must be a product id: id must not contain NUL characters' },
        { item_id: ' d\0 ', position: 3, message: 'items[3] must be a product id: id must not contain NUL characters' },
      ]);
      expect(rejected.map(rejectedIdOf)).toEqual([undefined, undefined, undefined, undefined]);
    }
  });

  it('keeps many ids apart (the table grows past its first size)', () => {
    const list = Array.from({ length: 50_000 }, (_, i) => `p${i % 30_000}`);
    const { lines, distinct } = read(fromBody(list));
    expect(distinct).toBe(30_000);
    expect(lines).toEqual(Array.from({ length: 30_000 }, (_, i) => `p${i}`));
    const sized = read(listedIds(Array.from({ length: 3000 }, (_, i) => `long-id-${'x'.repeat(40)}-${i}`)));
    expect(sized.distinct).toBe(3000);
  });
});
