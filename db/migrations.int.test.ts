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

// product_offers as it was from 0001 (data as text since 0012) until 0014 moved offers into products.
const PRODUCT_OFFERS_TABLE = `
  create table product_offers (
    shop_id text not null, product_id text not null, location_id text not null, price float8 not null, oldprice float8,
    discount_percent float8 not null, stock_quantity int, data text not null,
    primary key (shop_id, product_id, location_id))`;

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
        ${PRODUCT_OFFERS_TABLE.replace('data text', 'data jsonb')}`);
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
        await tx`insert into product_state (shop_id, product_id, available, version, data_version) values ('s', ${id}, true, 1, 1)`;
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

it('0014 moves offers into their product\'s row, by location id, and drops their table', async () => {
  const rolledBack = new Error('roll back');
  await database.ctx.sql
    .begin(async (tx) => {
      await tx.unsafe(`alter table products drop column offers; ${PRODUCT_OFFERS_TABLE}`);
      for (const id of ['with', 'without']) {
        await tx`insert into products (shop_id, id, name, url, picture, price, discount_percent, categories, data, version)
                 values ('s', ${id}, 'n', 'u', 'p', 10, 0, '{}', '{}', 1)`;
      }
      // Another shop's product of the same id keeps its own offers.
      await tx`insert into products (shop_id, id, name, url, picture, price, discount_percent, categories, data, version)
               values ('t', 'with', 'n', 'u', 'p', 10, 0, '{}', '{}', 1)`;
      await tx`insert into product_offers (shop_id, product_id, location_id, price, oldprice, discount_percent, stock_quantity, data) values
               ('s', 'with', 'l2', 9.5, 12.25, 22, null, '{}'), ('s', 'with', 'l1', 10, null, 0, 3, '{}'), ('t', 'with', 'x', 0.1, null, 0, 0, '{}')`;
      for (const statement of statements('0014_offers-in-products.sql')) await tx.unsafe(statement);
      const rows = await tx<{ shop_id: string; id: string; offers: string | null }[]>`select shop_id, id, offers from products order by shop_id, id`;
      expect(rows.map((row) => ({ ...row, offers: row.offers && JSON.parse(row.offers) }))).toEqual([
        { shop_id: 's', id: 'with', offers: [['l1', 10, null, 0, 3], ['l2', 9.5, 12.25, 22, null]] },
        { shop_id: 's', id: 'without', offers: null },
        { shop_id: 't', id: 'with', offers: [['x', 0.1, null, 0, 0]] },
      ]);
      const [{ exists }] = await tx<{ exists: boolean }[]>`select to_regclass('product_offers') is not null as exists`;
      expect(exists).toBe(false);
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
});

it('0015 moves each product\'s version beside its availability and drops the products\' index on it', async () => {
  const rolledBack = new Error('roll back');
  await database.ctx.sql
    .begin(async (tx) => {
      await tx.unsafe(`alter table product_state drop column data_version; create index products_version on products (shop_id, version)`);
      // Two shops with the same ids at other versions; a state whose product is gone.
      for (const [shop, id, version, stateVersion] of [['s', 'a', 3, 5], ['s', 'b', 7, 2], ['t', 'a', 9, 1]] as const) {
        await tx`insert into products (shop_id, id, name, url, picture, price, discount_percent, categories, data, version)
                 values (${shop}, ${id}, 'n', 'u', 'p', 1, 0, '{}', '{}', ${version})`;
        await tx`insert into product_state (shop_id, product_id, available, version) values (${shop}, ${id}, true, ${stateVersion})`;
      }
      await tx`insert into product_state (shop_id, product_id, available, version) values ('s', 'gone', false, 4)`;
      for (const statement of statements('0015_data-version-in-state.sql')) await tx.unsafe(statement);
      expect(await tx`select shop_id, product_id, version::int, data_version::int from product_state order by shop_id, product_id`).toEqual([
        { shop_id: 's', product_id: 'a', version: 5, data_version: 3 },
        { shop_id: 's', product_id: 'b', version: 2, data_version: 7 },
        { shop_id: 's', product_id: 'gone', version: 4, data_version: 4 },
        { shop_id: 't', product_id: 'a', version: 1, data_version: 9 },
      ]);
      const [{ exists }] = await tx<{ exists: boolean }[]>`select to_regclass('products_version') is not null as exists`;
      expect(exists).toBe(false);
      const [{ nullable }] = await tx<{ nullable: string }[]>`
        select is_nullable as nullable from information_schema.columns where table_name = 'product_state' and column_name = 'data_version'`;
      expect(nullable).toBe('NO');
      throw rolledBack;
    })
    .catch((error: unknown) => {
      if (error !== rolledBack) throw error;
    });
});
