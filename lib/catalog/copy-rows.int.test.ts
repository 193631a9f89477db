import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { BinaryRows, type BinaryType, copyBinary, copyRows, type CopyValue } from './copy-rows';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const copyInto = (rows: (string | number)[][]) =>
  database.ctx.sql.begin(async (tx) => {
    await tx.unsafe('create temp table copied (id int primary key) on commit drop');
    await copyRows(tx, 'copied', ['id'], rows);
    const [{ count }] = await tx<{ count: number }[]>`select count(*)::int as count from copied`;
    return count;
  });

it('copies every row', async () => {
  expect(await copyInto(Array.from({ length: 200_000 }, (_, i) => [i]))).toBe(200_000);
});

// Errors PostgreSQL finds after the last chunk was sent used to leave the caller waiting for ever.
it('fails with PostgreSQL’s error when a row breaks a constraint or a type, early or late', async () => {
  await expect(copyInto([[1], [1]])).rejects.toThrow(/duplicate key value violates unique constraint/);
  await expect(copyInto([['x']])).rejects.toThrow(/invalid input syntax for type integer/);
  await expect(copyInto(Array.from({ length: 300_000 }, (_, i) => [i % 250_000]))).rejects.toThrow(/duplicate key value/);
  expect(await copyInto([[1], [2]])).toBe(2);
});

it('fails with PostgreSQL’s error when the COPY cannot start', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await expect(database.ctx.sql.begin((tx) => copyRows(tx, 'no_such_table', ['id'], [[1]]))).rejects.toThrow(/no_such_table/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

// Every type BinaryRows writes, and the values whose text form needs care: what PostgreSQL
// stores from the binary rows must be exactly what it stores from copyRows' text.
const TYPES: [string, BinaryType][] = [
  ['t', 'text'],
  ['f', 'float8'],
  ['i', 'int4'],
  ['b', 'int8'],
  ['ok', 'bool'],
  ['list', 'text[]'],
  ['at', 'timestamptz'],
  ['doc', 'json'],
];
const EDGE_ROWS: CopyValue[][] = [
  ['plain', 71.5, 0, 1, true, ['a', 'b c'], '2024-03-01T10:20:30.123Z', { json: { a: 1 }, text: '{"a": 1}' }],
  ['a\\b\tc\nd\re\0f', -0, -2147483648, 9007199254740991, false, [], '0001-01-01T00:00:00.000Z', { json: { a: 'x"y' }, text: '{"a": "x\\"y"}' }],
  ['smile \u{1f600} cut \ud83d here', 1e-300, 2147483647, 0, null, ['say "hi"', 'back\\slash', 'tab\there', 'nul\0x', '', 'ü'], '9999-12-31T23:59:59.999Z', { json: { a: 'x' }, text: '{"a":\t"x"}' }],
  [null, null, null, null, true, null, null, null],
  ['', 123456789.125, 5, -5, false, ['{', '}', ','], '1970-01-01T00:00:00.000Z', { json: { a: 'nul\0here' }, text: '{"a":"nul\\u0000here"}' }],
  ['ü€', Number.MAX_VALUE, 7, 2 ** 40, true, ['x'], '1999-12-31T23:59:59.999Z', { json: [1, 'two', { b: null }] }],
  // int8 and timestamptz are written as two 32-bit halves: values at and around the halves' edges.
  ['a', 1, 1, -9007199254740991, true, null, '2000-01-01T00:00:00.000Z', null],
  ['b', 1, 1, -1, true, null, '1969-12-31T23:59:59.999Z', null],
  ['c', 1, 1, 2 ** 32, true, null, '2000-01-01T00:00:00.001Z', null],
  ['d', 1, 1, 2 ** 32 - 1, true, null, '2286-11-20T17:46:40.000Z', null],
  ['e', 1, 1, -(2 ** 32), true, null, '1999-12-31T23:59:59.000Z', null],
  ['f', 1, 1, -(2 ** 32) - 1, true, null, '2136-02-07T06:28:15.296Z', null],
];

it('stores from COPY’s binary rows exactly what it stores from the same rows as text', async () => {
  const stored = await database.ctx.sql.begin(async (tx) => {
    const columns = TYPES.map(([name]) => name);
    const definition = `(n int, ${TYPES.map(([name, type]) => `${name} ${type === 'json' ? 'text' : type}`).join(', ')})`;
    await tx.unsafe(`create temp table as_text ${definition} on commit drop; create temp table as_binary ${definition} on commit drop`);
    await copyRows(tx, 'as_text', ['n', ...columns], EDGE_ROWS.map((row, n) => [n, ...row]));
    const rows = new BinaryRows(16); // small: it must grow
    EDGE_ROWS.forEach((row, n) => {
      rows.row(1 + row.length);
      rows.field('int4', n);
      row.forEach((value, i) => rows.field(TYPES[i][1], value));
    });
    // In two chunks, split at a row's end.
    const first = new BinaryRows();
    first.row(1 + TYPES.length);
    first.field('int4', 100);
    TYPES.forEach(([, type]) => first.field(type, null));
    await copyBinary(tx, 'as_binary', ['n', ...columns], [first.take(), rows.take()]);
    const read = (table: string) =>
      tx.unsafe<{ n: number; row: string; t: string; float: string; list: string; doc: string }[]>(
        `select n, ${table}::text as row, t, f::text as float, list::text as list, doc from ${table} where n < 100 order by n`,
      );
    const [binaryNulls] = await tx.unsafe<{ count: number }[]>(`select count(*)::int as count from as_binary where n = 100 and num_nulls(${columns.join(', ')}) = ${columns.length}`);
    return { text: await read('as_text'), binary: await read('as_binary'), binaryNulls: binaryNulls.count };
  });
  expect(stored.binary).toEqual(stored.text);
  expect(stored.text).toHaveLength(EDGE_ROWS.length);
  expect(stored.binaryNulls).toBe(1);
  // What the text form gives for the values that need care, so both cannot be wrong alike.
  expect(stored.text[1].t).toBe('a\\b\tc\nd\ref');
  expect(stored.text[1].float).toBe('0');
  expect(stored.text[2].t).toBe('smile \u{1f600} cut \ufffd here');
  expect(stored.text[2].list).toContain(',nulx,');
  expect(stored.text[2].doc).toBe('{"a":"x"}');
  expect(stored.text[4].doc).toBe('{"a":"nulhere"}');
});

it('streams chunks written one after another into the same memory (BinaryRows.flush), every row as written', async () => {
  const ROWS = 30_000;
  const stored = await database.ctx.sql.begin(async (tx) => {
    await tx.unsafe('create temp table flushed (n int, t text) on commit drop');
    const rows = new BinaryRows(1 << 16);
    let memory: ArrayBufferLike | undefined;
    let sameMemory = 0;
    function* chunks() {
      for (let n = 0; n < ROWS; n++) {
        rows.row(2);
        rows.field('int4', n);
        // Rows of every length, so no chunk's bytes line up with the one before.
        rows.field('text', `row ${n} `.repeat(1 + (n % 13)));
        if (rows.length >= 1 << 15) {
          const chunk = rows.flush();
          if (chunk.buffer === memory) sameMemory++;
          memory = chunk.buffer;
          yield chunk;
        }
      }
      yield rows.take();
    }
    await copyBinary(tx, 'flushed', ['n', 't'], chunks());
    const [{ count, wrong }] = await tx<{ count: number; wrong: number }[]>`
      select count(*)::int as count, count(*) filter (where t <> repeat('row ' || n || ' ', 1 + n % 13))::int as wrong from flushed`;
    const [{ distinct }] = await tx<{ distinct: number }[]>`select count(distinct n)::int as distinct from flushed`;
    return { count, wrong, distinct, sameMemory };
  });
  expect(stored).toMatchObject({ count: ROWS, wrong: 0, distinct: ROWS });
  // The chunks did share their memory (else this tests nothing).
  expect(stored.sameMemory).toBeGreaterThan(50);
});
