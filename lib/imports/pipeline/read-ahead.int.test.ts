import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { startPreparing } from './prepare-ahead';
import { isKept } from './handoff';
import { acceptImport } from '@/lib/imports/intake';
import { SHOP_APPLY_TX_LOCK } from '@/lib/imports/apply-locks';
import { runPendingImports } from '@/lib/imports/run-imports';

// Intake and the applier in one process, as `npm start` runs them: an import accepted while the
// one before it is being applied is read ahead (its items prepared meanwhile), not only one that
// was already waiting when that apply began.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ workers: true });
});
afterAll(() => database.close());

const item = (id: string) => ({ id, name: `Product ${id}`, price: 10, url: `https://s.example/${id}`, picture: `https://s.example/${id}.jpg`, categories: [] });

function put(shop: TestShop, ids: string[]) {
  const request = new Request('http://localhost/import/products', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...shop, items: ids.map(item) }),
  });
  return acceptImport(database.ctx, request, 'products', 'PUT');
}

async function statusOf(shop: TestShop, importId: number): Promise<string> {
  const [row] = await database.ctx.sql<{ status: string }[]>`select status from imports where shop_id = ${shop.shop_id} and id = ${importId}`;
  return row.status;
}

/** The `import timings` lines logged while `run` runs (IMPORT_TIMINGS=1). */
async function timingsOf(run: () => Promise<void>): Promise<string[]> {
  const timings: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    if (String(chunk).includes('import timings')) timings.push(String(chunk));
    return true;
  });
  vi.stubEnv('IMPORT_TIMINGS', '1');
  try {
    await run();
  } finally {
    stderr.mockRestore();
    vi.unstubAllEnvs();
  }
  return timings;
}

it('reads ahead an import that arrives while the one before it is applied', async () => {
  const shop = await createTestShop(database.ctx);
  let first = 0;
  let second = 0;
  const timings = await timingsOf(async () => {
    // Whoever applies the shop's imports takes this lock in its transaction: held here, the
    // first import waits in the middle of being applied, with nothing else pending.
    const holder = await database.ctx.sql.reserve();
    try {
      await holder`select pg_advisory_lock(${SHOP_APPLY_TX_LOCK}, hashtext(${shop.shop_id}))`;
      ({ importId: first } = await put(shop, ['a', 'b']));
      const applying = runPendingImports(database.ctx, shop.shop_id);
      while ((await statusOf(shop, first)) === 'queued') await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await statusOf(shop, first)).toBe('running');
      ({ importId: second } = await put(shop, ['c']));
      await holder`select pg_advisory_unlock(${SHOP_APPLY_TX_LOCK}, hashtext(${shop.shop_id}))`;
      await applying;
    } finally {
      holder.release();
    }
  });
  expect([await statusOf(shop, first), await statusOf(shop, second)]).toEqual(['done', 'done']);
  const stored = await database.ctx.sql<{ id: string }[]>`select id from products where shop_id = ${shop.shop_id} order by id`;
  expect(stored.map((row) => row.id)).toEqual(['a', 'b', 'c']);
  expect(timings.find((text) => text.includes(`products.put ${second}:`))).toContain('body handed over ahead');
  // The first was handed over when the applier came to it: nothing was pending before it.
  expect(timings.find((text) => text.includes(`products.put ${first}:`))).toMatch(/: body handed over \d/);
});

it('prepares the items of an import that was not read ahead on the preparing thread, once that has loaded', async () => {
  expect(await startPreparing()).toBe(true);
  const shop = await createTestShop(database.ctx);
  const ids = Array.from({ length: 600 }, (_, n) => `p${n}`);
  let importId = 0;
  const timings = await timingsOf(async () => {
    // One invalid item among them: its rejection comes from the thread as well.
    const request = new Request('http://localhost/import/products', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...shop, items: [...ids.map(item), { id: 'bad', name: 'No price', url: 'https://s.example/bad', picture: 'https://s.example/bad.jpg', categories: [] }] }),
    });
    ({ importId } = await acceptImport(database.ctx, request, 'products', 'PUT'));
    await runPendingImports(database.ctx, shop.shop_id);
  });
  expect(timings.find((text) => text.includes(`products.put ${importId}:`))).toMatch(/: body handed over \d.*prepared on its thread/);
  const [record] = await database.ctx.sql<{ status: string; items_applied: number; items_rejected: number; errors: { item_id?: string; message: string }[] }[]>`
    select status, items_applied, items_rejected, errors from imports where shop_id = ${shop.shop_id} and id = ${importId}`;
  // An import with a rejected item is `failed`; the valid ones are applied.
  expect(record).toMatchObject({ status: 'failed', items_applied: 600, items_rejected: 1 });
  expect(record.errors).toEqual([expect.objectContaining({ item_id: 'bad', message: expect.stringContaining('price') })]);
  const [{ count }] = await database.ctx.sql<{ count: number }[]>`select count(*)::int as count from products where shop_id = ${shop.shop_id}`;
  expect(count).toBe(600);
});

it('reads the import after the next one ahead too, while the one before them is still applied', async () => {
  const shop = await createTestShop(database.ctx);
  const holder = await database.ctx.sql.reserve();
  try {
    await holder`select pg_advisory_lock(${SHOP_APPLY_TX_LOCK}, hashtext(${shop.shop_id}))`;
    const { importId: first } = await put(shop, ['a']);
    const applying = runPendingImports(database.ctx, shop.shop_id);
    while ((await statusOf(shop, first)) === 'queued') await new Promise((resolve) => setTimeout(resolve, 5));
    const { importId: second } = await put(shop, ['b']);
    const { importId: third } = await put(shop, ['c']);
    // Both bodies are taken from intake's shelf (read ahead) while the first import waits for the lock.
    const deadline = Date.now() + 5000;
    while ((isKept(second) || isKept(third)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect([isKept(second), isKept(third), await statusOf(shop, first)]).toEqual([false, false, 'running']);
    await holder`select pg_advisory_unlock(${SHOP_APPLY_TX_LOCK}, hashtext(${shop.shop_id}))`;
    await applying;
    expect([await statusOf(shop, first), await statusOf(shop, second), await statusOf(shop, third)]).toEqual(['done', 'done', 'done']);
  } finally {
    // Let go even when an expectation failed, or the applier would wait for ever.
    await holder`select pg_advisory_unlock_all()`;
    holder.release();
  }
  const stored = await database.ctx.sql<{ id: string }[]>`select id from products where shop_id = ${shop.shop_id} order by id`;
  expect(stored.map((row) => row.id)).toEqual(['a', 'b', 'c']);
});
