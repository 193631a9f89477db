import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { copyRows } from './copy-rows';

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
