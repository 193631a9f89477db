import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendImport, importStatus } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { startServer, type TestServer } from '@/lib/testing/server';
import { runPendingImports } from './run-imports';

let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({ DATABASE_URL: database.url, WORKERS: 'off' });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
});

it('fails an import whose applier died five times instead of retrying it for ever', async () => {
  const shop = await createTestShop(database.ctx);
  const { importId } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }] });
  const { importId: next } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [{ id: 'b', name: 'B' }] });
  // As if five appliers had started on it and died.
  await database.ctx.sql`update imports set status = 'running', attempts = 5 where shop_id = ${shop.shop_id} and id = ${importId!}`;
  await runPendingImports(database.ctx, shop.shop_id);
  expect(await importStatus(server.url, shop, importId!)).toMatchObject({
    status: 'failed',
    message: 'Import could not be applied: gave up after 5 attempts that each ended without an answer',
  });
  // The shop's later imports go on.
  expect((await importStatus(server.url, shop, next!)).status).toBe('done');
  const [category] = await database.ctx.sql<{ id: string }[]>`select id from categories where shop_id = ${shop.shop_id}`;
  expect(category.id).toBe('b');
});

it('prunes raw bodies of imports finished longer ago than the retention, and only those', async () => {
  const { pruneImportBodies } = await import('./run-imports');
  const shop = await createTestShop(database.ctx);
  const { importId: old } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [] });
  const { importId: recent } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [] });
  const { importId: pending } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [] });
  await database.ctx.sql`update imports set status = 'done', finished_at = now() - interval '31 days' where shop_id = ${shop.shop_id} and id = ${old!}`;
  await database.ctx.sql`update imports set status = 'done', finished_at = now() - interval '29 days' where shop_id = ${shop.shop_id} and id = ${recent!}`;
  expect(await pruneImportBodies(database.ctx, 0)).toBe(0);
  await pruneImportBodies(database.ctx, 30);
  const kept = await database.ctx.sql<{ import_id: number }[]>`select import_id from import_bodies where shop_id = ${shop.shop_id} order by import_id`;
  expect(kept.map((k) => k.import_id)).toEqual([recent, pending]);
});
