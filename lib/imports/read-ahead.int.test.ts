import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { acceptImport } from './intake';
import { runPendingImports } from './run-imports';

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

it('reads ahead an import that arrives while the one before it is applied', async () => {
  const shop = await createTestShop(database.ctx);
  const timings: string[] = [];
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    if (String(chunk).includes('import timings')) timings.push(String(chunk));
    return true;
  });
  vi.stubEnv('IMPORT_TIMINGS', '1');
  // Whoever applies the shop's imports takes this lock in its transaction: held here, the first
  // import waits in the middle of being applied, with nothing else pending.
  const holder = await database.ctx.sql.reserve();
  try {
    await holder`select pg_advisory_lock(7302, hashtext(${shop.shop_id}))`;
    const { importId: first } = await put(shop, ['a', 'b']);
    const applying = runPendingImports(database.ctx, shop.shop_id);
    while ((await statusOf(shop, first)) !== 'running') await new Promise((resolve) => setTimeout(resolve, 5));
    const { importId: second } = await put(shop, ['c']);
    await holder`select pg_advisory_unlock(7302, hashtext(${shop.shop_id}))`;
    await applying;
    expect([await statusOf(shop, first), await statusOf(shop, second)]).toEqual(['done', 'done']);
    const stored = await database.ctx.sql<{ id: string }[]>`select id from products where shop_id = ${shop.shop_id} order by id`;
    expect(stored.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    const line = timings.find((text) => text.includes(`products.put ${second}:`));
    expect(line).toContain('body handed over ahead');
    // The first was handed over when the applier came to it: nothing was pending before it.
    expect(timings.find((text) => text.includes(`products.put ${first}:`))).toMatch(/: body handed over \d/);
  } finally {
    holder.release();
    stderr.mockRestore();
    vi.unstubAllEnvs();
  }
});
