import { expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase();

it('applies an import again when its database connection is cut half-way, instead of failing it', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const items = Array.from({ length: 60_000 }, (_, n) => ({ id: `t${n}`, name: `Item ${n}`, price: 1 + (n % 100), url: 'u', picture: 'p', categories: ['c'] }));
  const { importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items });
  const statuses = new Set<string>();
  const status = async () => {
    const [row] = await fixture.database.ctx.sql<{ status: string }[]>`select status from imports where shop_id = ${shop.shop_id} and id = ${importId!}`;
    statuses.add(row.status);
    return row.status;
  };

  // Cut the connection that is writing the import, as a database restart or failover would.
  let terminated = 0;
  while (terminated === 0 && (await status()) !== 'done') {
    const rows = await fixture.database.ctx.sql<{ ok: boolean }[]>`
      select pg_terminate_backend(pid) as ok from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and query ilike 'copy %products%'`;
    terminated = rows.filter((r) => r.ok).length;
    if (!terminated) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(terminated).toBeGreaterThan(0);

  while (!['done', 'failed'].includes(await status())) await new Promise((resolve) => setTimeout(resolve, 50));
  const record = await waitForImport(fixture.server.url, shop, importId!);
  expect(record).toMatchObject({ status: 'done', items_applied: 60_000, items_rejected: 0, message: null });
  expect(statuses.has('failed')).toBe(false);
  const [{ count }] = await fixture.database.ctx.sql<{ count: number }[]>`select count(*)::int as count from products where shop_id = ${shop.shop_id}`;
  expect(count).toBe(60_000);
});
