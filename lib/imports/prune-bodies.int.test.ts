import { afterAll, beforeAll, expect, it } from 'vitest';
import { importStatus, sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { eventually } from '@/lib/testing/receivers';
import { startServer } from '@/lib/testing/server';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const bodyKept = async (importId: number) => (await database.ctx.sql`select 1 from import_bodies where import_id = ${importId}`).length === 1;

const finishedDaysAgo = (importId: number, days: number) =>
  database.ctx.sql`update imports set finished_at = now() - make_interval(days => ${days}) where id = ${importId}`;

it('prunes the bodies of imports finished more than IMPORT_BODY_RETENTION_DAYS ago, and no other', async () => {
  const shop: TestShop = await createTestShop(database.ctx);
  const item = { id: '1', name: 'One', price: 1, url: 'u', picture: 'p', categories: ['c'] };
  // Applied now, then aged as if finished long ago: one done, one failed, one recent.
  const first = await startServer({ DATABASE_URL: database.url, IMPORT_BODY_RETENTION_DAYS: '0' });
  const ids: number[] = [];
  try {
    for (const items of [[item], [{ ...item, price: -1 }], [item]]) {
      const { importId } = await sendImport(first.url, 'PUT', 'products', shop, { items });
      await waitForImport(first.url, shop, importId!);
      ids.push(importId!);
    }
  } finally {
    await first.stop();
  }
  const [oldDone, oldFailed, recent] = ids;
  // Workers keeping bodies for ever prune none, however old (their prune runs before the server listens).
  await finishedDaysAgo(oldDone, 400);
  await (await startServer({ DATABASE_URL: database.url, IMPORT_BODY_RETENTION_DAYS: '0' })).stop();
  expect(await bodyKept(oldDone)).toBe(true);

  await finishedDaysAgo(oldDone, 31);
  await finishedDaysAgo(oldFailed, 31);
  await finishedDaysAgo(recent, 29);
  // Accepted by a web node with no workers: pending, received long ago, its body still needed.
  const web = await startServer({ DATABASE_URL: database.url, WORKERS: 'off' });
  let pending: number;
  try {
    pending = (await sendImport(web.url, 'PUT', 'products', shop, { items: [{ ...item, id: '2' }] })).importId!;
  } finally {
    await web.stop();
  }
  await database.ctx.sql`update imports set received_at = now() - interval '40 days' where id = ${pending}`;

  // Workers prune when they start (and every hour after).
  const server = await startServer({ DATABASE_URL: database.url, IMPORT_BODY_RETENTION_DAYS: '30' });
  try {
    expect((await waitForImport(server.url, shop, pending)).status).toBe('done');
    await eventually(() => bodyKept(oldDone), (kept) => !kept);
    expect(await bodyKept(oldFailed)).toBe(false);
    expect(await bodyKept(recent)).toBe(true);
    expect(await bodyKept(pending)).toBe(true);
    // The records themselves stay.
    expect((await importStatus(server.url, shop, oldDone)).status).toBe('done');
    expect((await importStatus(server.url, shop, oldFailed)).status).toBe('failed');
  } finally {
    await server.stop();
  }
});
