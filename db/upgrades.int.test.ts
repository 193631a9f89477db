import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hashSecret, sealSecret } from '@/lib/shops/secrets';
import { importStatus } from '@/lib/testing/api';
import { createEmptyDatabase } from '@/lib/testing/empty-database';
import { startServer, type TestServer } from '@/lib/testing/server';
import journal from './migrations/meta/_journal.json';
import { migrationsFolder } from './migrate';

// A database as an early release left it — shops and imports written at the oldest committed
// migration, products at the first one that has them — taken through every later migration by
// the real server's start, then read through the public API.

let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
let server: TestServer;
const shop = { shop_id: crypto.randomBytes(16).toString('hex'), shop_secret: crypto.randomBytes(24).toString('base64url') };
let importId: number;

/** Applies the first `count` committed migrations, as Drizzle's migrator did when those were all there were. */
async function migrateTo(sql: postgres.Sql, count: number) {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-migrations-'));
  try {
    const entries = journal.entries.slice(0, count);
    await fs.mkdir(path.join(folder, 'meta'));
    await fs.writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
    for (const entry of entries) await fs.copyFile(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
    await migrate(drizzle(sql), { migrationsFolder: folder });
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  database = await createEmptyDatabase();
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  try {
    // 0000: the shop (its secret sealed with the server's key), trees, a finished import with its gzipped body.
    await migrateTo(sql, 1);
    const sealKey = crypto.randomBytes(32);
    await sql`insert into server_keys (name, value) values ('seal', ${sealKey.toString('base64')})`;
    await sql`insert into shops (id, name, secret_hash, secret_sealed, currency, catalog_version)
              values (${shop.shop_id}, 'Old Shop', ${await hashSecret(shop.shop_secret)}, ${sealSecret(sealKey, shop.shop_secret)}, 'EUR', 2)`;
    await sql`insert into categories (shop_id, id, name, parent, url, path, depth) values
              (${shop.shop_id}, 'c1', 'Shoes', null, 'https://old.example/shoes', '{c1}', 0),
              (${shop.shop_id}, 'c2', 'Boots', 'c1', 'https://old.example/boots', '{c1,c2}', 1)`;
    await sql`insert into locations (shop_id, id, name, parent, type, path, depth) values
              (${shop.shop_id}, 'city', 'Oslo', null, 'city', '{city}', 0),
              (${shop.shop_id}, 'store', 'Oslo Store', 'city', 'store', '{city,store}', 1)`;
    const body = JSON.stringify({ ...shop, items: [{ id: 'p1' }, { id: 'p2' }] });
    const [record] = await sql<{ id: number }[]>`
      insert into imports (shop_id, operation, status, started_at, finished_at, items_total, items_applied, items_rejected, body_bytes)
      values (${shop.shop_id}, 'products.put', 'done', now(), now(), 2, 2, 0, ${body.length}) returning id::int`;
    importId = record.id;
    await sql`insert into import_bodies (shop_id, import_id, body) values (${shop.shop_id}, ${importId}, ${zlib.gzipSync(body)})`;

    // 0001: products as jsonb with their availability and a location offer in tables of their own.
    await migrateTo(sql, 2);
    const items = [
      { id: 'p1', name: 'Trail Boot', url: 'https://old.example/p1', picture: 'https://old.example/p1.jpg', price: 120, oldprice: 150, categories: ['c2'], brand: 'Fjell', params: [{ name: 'color', value: ['red'] }] },
      { id: 'p2', name: 'City Shoe', url: 'https://old.example/p2', picture: 'https://old.example/p2.jpg', price: 80, categories: ['c1'], brand: 'Tind', params: [{ name: 'color', value: ['blue'] }], locations: [{ location: 'store', price: 70 }] },
    ];
    for (const [n, item] of items.entries()) {
      const discount = item.oldprice ? Math.floor(((item.oldprice - item.price) / item.oldprice) * 100) : 0;
      await sql`insert into products (shop_id, id, name, url, picture, price, oldprice, discount_percent, brand, categories, data, version)
                values (${shop.shop_id}, ${item.id}, ${item.name}, ${item.url}, ${item.picture}, ${item.price}, ${item.oldprice ?? null}, ${discount},
                        ${item.brand}, ${sql.array(item.categories)}, ${JSON.stringify(item)}::jsonb, ${n + 1})`;
      await sql`insert into product_state (shop_id, product_id, available, version) values (${shop.shop_id}, ${item.id}, true, ${n + 1})`;
    }
    await sql`insert into product_offers (shop_id, product_id, location_id, price, discount_percent, data)
              values (${shop.shop_id}, 'p2', 'store', 70, 0, ${JSON.stringify({ location: 'store', price: 70 })}::jsonb)`;
  } finally {
    await sql.end();
  }
  server = await startServer({ DATABASE_URL: database.url, WORKERS: 'off' });
});

afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

const listing = async (query: string) => {
  const response = await fetch(`${server.url}/products?shop_id=${shop.shop_id}&did=d&sid=s&extended=true&${query}`);
  expect(response.status).toBe(200);
  return response.json();
};

it('migrates at start through every later migration, once', async () => {
  expect(server.output()).toContain(`migrations: applied ${journal.entries.length - 2} (2 were applied before)`);
  const ready = await fetch(`${server.url}/readyz`);
  expect(await ready.json()).toMatchObject({ status: 'ready', checks: { migrations: 'ok' } });
});

it('keeps the shop, its credentials and its import record', async () => {
  const record = await importStatus(server.url, shop, importId);
  expect(record).toMatchObject({ id: importId, shop_id: shop.shop_id, operation: 'products.put', status: 'done', items_total: 2, items_applied: 2, items_rejected: 0, errors: [], warnings: [] });
});

it('lists the products stored before, with their trees, params and location offers', async () => {
  const all = await listing('sort_by=price&sort_dir=asc');
  expect(all.products_total).toBe(2);
  expect(all.products.map((p: { id: string; name: string; price: number; brand: string }) => [p.id, p.name, p.price, p.brand])).toEqual([
    ['p2', 'City Shoe', 80, 'Tind'],
    ['p1', 'Trail Boot', 120, 'Fjell'],
  ]);
  expect(all.products[1]).toMatchObject({ oldprice: 150, discount_percent: 20 });
  expect(Object.keys(all.filters.color.values).sort()).toEqual(['blue', 'red']);

  const boots = await listing('categories=c1');
  expect(boots.products_total).toBe(2);
  expect(boots.categories.map((c: { id: string; count: number }) => [c.id, c.count]).sort()).toEqual([['c1', 2], ['c2', 1]]);

  // p2's offer: in stock in the store (and through it in the city) at its own price; p1 has no offers, so is in stock everywhere.
  const inCity = await listing('locations=city&sort_by=price&sort_dir=asc');
  expect(inCity.products.map((p: { id: string; price: number }) => [p.id, p.price])).toEqual([
    ['p2', 70],
    ['p1', 120],
  ]);
});
