import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { migrationsFolder } from './migrate';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

function statements(file: string): string[] {
  return fs
    .readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

it('0012 turns stored jsonb data into text and moves search fields into their columns', async () => {
  const rolledBack = new Error('roll back');
  await database.ctx.sql
    .begin(async (tx) => {
      // The tables as they were before 0012, holding rows stored then.
      await tx.unsafe(`
        alter table products drop column model, drop column book, alter column data type jsonb using data::jsonb, reset (toast_tuple_target);
        alter table product_offers alter column data type jsonb using data::jsonb`);
      const stored = [
        { id: 'plain', data: { id: 'plain', name: 'Plain', params: [{ name: 'a', value: ['1'] }] } },
        { id: 'model', data: { id: 'model', name: 'Model', model: 'TR-1' } },
        { id: 'book', data: { id: 'book', name: 'Book', book: { author: 'Julia Child', year: 1961 } } },
      ];
      for (const { id, data } of stored) {
        await tx`insert into products (shop_id, id, name, url, picture, price, discount_percent, categories, data, version)
                 values ('s', ${id}, ${data.name}, 'u', 'p', 1, 0, '{}', ${JSON.stringify(data)}::jsonb, 1)`;
      }
      await tx`insert into product_offers (shop_id, product_id, location_id, price, discount_percent, data)
               values ('s', 'plain', 'l1', 1, 0, ${JSON.stringify({ stock_quantity: 3 })}::jsonb)`;

      for (const statement of statements('0012_products-data-text.sql')) await tx.unsafe(statement);

      const rows = await tx<{ id: string; data: string; model: string | null; book: string | null }[]>`
        select id, data, model, book from products where shop_id = 's' order by id`;
      expect(rows.map((row) => typeof row.data)).toEqual(['string', 'string', 'string']);
      expect(rows.map((row) => ({ id: row.id, data: JSON.parse(row.data), model: row.model, book: row.book && JSON.parse(row.book) }))).toEqual([
        { id: 'book', data: stored[2].data, model: null, book: { author: 'Julia Child', year: 1961 } },
        { id: 'model', data: stored[1].data, model: 'TR-1', book: null },
        { id: 'plain', data: stored[0].data, model: null, book: null },
      ]);
      const [offer] = await tx<{ data: string }[]>`select data from product_offers where shop_id = 's'`;
      expect(JSON.parse(offer.data)).toEqual({ stock_quantity: 3 });
      const [{ options }] = await tx<{ options: string[] }[]>`select reloptions as options from pg_class where relname = 'products'`;
      expect(options).toContain('toast_tuple_target=8160');
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
});

it('0013 moves items\' digests from products to their availability rows', async () => {
  const rolledBack = new Error('roll back');
  await database.ctx.sql
    .begin(async (tx) => {
      await tx.unsafe(`alter table products add column source_digest text; alter table product_state drop column source_digest`);
      for (const [id, digest] of [['a', '2:abc'], ['b', null]]) {
        await tx`insert into products (shop_id, id, name, url, picture, price, discount_percent, categories, data, version, source_digest)
                 values ('s', ${id}, 'n', 'u', 'p', 1, 0, '{}', '{}', 1, ${digest})`;
        await tx`insert into product_state (shop_id, product_id, available, version) values ('s', ${id}, true, 1)`;
      }
      for (const statement of statements('0013_digest-in-state.sql')) await tx.unsafe(statement);
      expect(await tx`select product_id, source_digest from product_state where shop_id = 's' order by product_id`).toEqual([
        { product_id: 'a', source_digest: '2:abc' },
        { product_id: 'b', source_digest: null },
      ]);
      const [{ count }] = await tx<{ count: number }[]>`select count(*)::int as count from information_schema.columns where table_name = 'products' and column_name = 'source_digest'`;
      expect(count).toBe(0);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
});
