import { expect, it } from 'vitest';
import { sendImport, importStatus } from '@/lib/testing/api';
import { createTestShop } from '@/lib/testing/factories';
import { runPendingImports } from './run-imports';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase({ WORKERS: 'off' });

it('fails an import whose applier died five times instead of retrying it for ever', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const { importId } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }] });
  const { importId: next } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [{ id: 'b', name: 'B' }] });
  // As if five appliers had started on it and died.
  await fixture.database.ctx.sql`update imports set status = 'running', attempts = 5 where shop_id = ${shop.shop_id} and id = ${importId!}`;
  await runPendingImports(fixture.database.ctx, shop.shop_id);
  expect(await importStatus(fixture.server.url, shop, importId!)).toMatchObject({
    status: 'failed',
    message: 'Import could not be applied: gave up after 5 attempts that each ended without an answer',
  });
  // The shop's later imports go on.
  expect((await importStatus(fixture.server.url, shop, next!)).status).toBe('done');
  const [category] = await fixture.database.ctx.sql<{ id: string }[]>`select id from categories where shop_id = ${shop.shop_id}`;
  expect(category.id).toBe('b');
});

it('prunes raw bodies of imports finished longer ago than the retention, and only those', async () => {
  const { pruneImportBodies } = await import('./run-imports');
  const shop = await createTestShop(fixture.database.ctx);
  const { importId: old } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [] });
  const { importId: recent } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [] });
  const { importId: pending } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [] });
  await fixture.database.ctx.sql`update imports set status = 'done', finished_at = now() - interval '31 days' where shop_id = ${shop.shop_id} and id = ${old!}`;
  await fixture.database.ctx.sql`update imports set status = 'done', finished_at = now() - interval '29 days' where shop_id = ${shop.shop_id} and id = ${recent!}`;
  expect(await pruneImportBodies(fixture.database.ctx, 0)).toBe(0);
  await pruneImportBodies(fixture.database.ctx, 30);
  const kept = await fixture.database.ctx.sql<{ import_id: number }[]>`select import_id from import_bodies where shop_id = ${shop.shop_id} order by import_id`;
  expect(kept.map((k) => k.import_id)).toEqual([recent, pending]);
});
