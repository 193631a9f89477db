import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { alive, readPostmaster } from '@/db/embedded';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importStatus, sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { startServer, startWorker, type TestServer } from '@/lib/testing/server';

const run = promisify(execFile);
let dataDir: string;
const servers: TestServer[] = [];

const postmasterPid = async () => (await readPostmaster(dataDir))?.pid ?? null;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-crash-'));
});

afterAll(async () => {
  for (const server of servers) if (server.process.exitCode === null && server.process.signalCode === null) await server.stop();
  // The cluster is ours even if a test failed half-way: never leave it running.
  const pid = await postmasterPid();
  if (pid && alive(pid)) process.kill(pid, 'SIGINT');
  await fs.rm(dataDir, { recursive: true, force: true });
});

it('completes an import exactly once after the server is killed between 204 and applying it', async () => {
  // Embedded mode, as `npm start` runs on a fresh clone, with workers off so the import waits.
  const env = { DATABASE_URL: undefined, DATA_DIR: dataDir };
  const first = await startServer({ ...env, WORKERS: 'off' });
  servers.push(first);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', 'shop', 'create', '--name', 'Crash'], {
    cwd: path.resolve(import.meta.dirname, '..', '..'),
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  const shop = JSON.parse(stdout) as TestShop;

  const { response, importId } = await sendImport(first.url, 'POST', 'categories', shop, {
    categories: [
      { id: 'root', name: 'Root' },
      { id: 'leaf', name: 'Leaf', parent: 'root' },
    ],
  });
  expect(response.status).toBe(204);
  expect((await importStatus(first.url, shop, importId!)).status).toBe('queued');
  await first.kill();

  const second = await startServer(env);
  servers.push(second);
  expect(second.output()).toMatch(/adopting the embedded PostgreSQL/);
  const record = await waitForImport(second.url, shop, importId!);
  expect(record).toMatchObject({ status: 'done', items_applied: 2, items_rejected: 0 });

  const { pid, port } = (await readPostmaster(dataDir))!;
  const password = (await fs.readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
  const sql = postgres(`postgres://vitrine:${encodeURIComponent(password)}@127.0.0.1:${port}/vitrine`, { max: 1 });
  try {
    const rows = await sql`select id, path from categories where shop_id = ${shop.shop_id} order by id`;
    expect(rows.map((r) => [r.id, r.path])).toEqual([
      ['leaf', ['root', 'leaf']],
      ['root', ['root']],
    ]);
    // Applied once: one catalog version bump, and no other import record.
    const [shopRow] = await sql`select catalog_version from shops where id = ${shop.shop_id}`;
    expect(Number(shopRow.catalog_version)).toBe(1);
    const [{ count }] = await sql`select count(*)::int as count from imports where shop_id = ${shop.shop_id}`;
    expect(count).toBe(1);
  } finally {
    await sql.end();
  }

  // The adopted cluster stops with the server that adopted it.
  await second.stop();
  expect(alive(pid), second.output()).toBe(false);
});

it('applies a 100,000-item import exactly once after its worker is killed half-way, never showing part of it', async () => {
  const database = await createTestDatabase();
  const web = await startServer({ DATABASE_URL: database.url, WORKERS: 'off' });
  servers.push(web);
  try {
    const shop = await createTestShop(database.ctx);
    // Known locations, so the offers below are stored without a warning each. Applied before the
    // products: a shop's imports run in arrival order.
    const stores = await sendImport(web.url, 'POST', 'locations', shop, { locations: ['l0', 'l1', 'l2'].map((id) => ({ id, name: `Store ${id}`, parent: null })) });
    expect(stores.response.status).toBe(204);
    // Every 10th item out of stock, every 7th with one offer at its own price: values that could
    // land on the wrong product or be lost on a restart.
    const items = Array.from({ length: 100_000 }, (_, n) => ({
      id: `k${n}`,
      name: `Item ${n}`,
      price: 1 + (n % 1000),
      url: `https://s.example/${n}`,
      picture: `https://s.example/${n}.jpg`,
      categories: ['c'],
      ...(n % 10 === 0 ? { available: false } : {}),
      ...(n % 7 === 0 ? { locations: [{ location: `l${n % 3}`, price: 5000 + (n % 997) }] } : {}),
    }));
    const offersSent = items.filter((item) => item.locations).length;
    const { response, importId } = await sendImport(web.url, 'PUT', 'products', shop, { items });
    expect(response.status).toBe(204);

    // One statement, one snapshot: the three tables are seen as of the same moment.
    const visible = async () => {
      const [row] = await database.ctx.sql<{ products: number; states: number; offers: number }[]>`
        select (select count(*)::int from products where shop_id = ${shop.shop_id}) as products,
               (select count(*)::int from product_state where shop_id = ${shop.shop_id}) as states,
               (select coalesce(sum(json_array_length(offers::json)), 0)::int from products where shop_id = ${shop.shop_id}) as offers`;
      return [row.products, row.states, row.offers];
    };
    const before = [0, 0, 0];
    const after = [100_000, 100_000, offersSent];
    const status = async () => (await database.ctx.sql<{ status: string }[]>`select status from imports where shop_id = ${shop.shop_id} and id = ${importId!}`)[0].status;

    const worker = await startWorker({ DATABASE_URL: database.url });
    servers.push(worker);
    let current = await status();
    while (!['running', 'done', 'failed'].includes(current)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      current = await status();
    }
    expect(current, 'the import was caught while it ran').toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await worker.kill();
    expect(await status()).toBe('running');
    expect(await visible()).toEqual(before);

    const again = await startWorker({ DATABASE_URL: database.url });
    servers.push(again);
    const seen = new Set<string>();
    while (!['done', 'failed'].includes(await status())) {
      seen.add(JSON.stringify(await visible()));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const final = await visible();
    seen.add(JSON.stringify(final));
    // Readers only ever see nothing or everything, in each table.
    expect([...seen].filter((counts) => counts !== JSON.stringify(before) && counts !== JSON.stringify(after))).toEqual([]);
    expect(final).toEqual(after);
    const record = await waitForImport(web.url, shop, importId!);
    expect(record).toMatchObject({ status: 'done', items_applied: 100_000, items_rejected: 0 });
    expect((await importStatus(web.url, shop, stores.importId!)).status).toBe('done');
    // One bump for the locations, one for the products: applied once.
    const [shopRow] = await database.ctx.sql<{ version: number }[]>`select catalog_version as version from shops where id = ${shop.shop_id}`;
    expect(shopRow.version).toBe(2);

    // A few products as sent: out of stock with an offer, with an offer, out of stock, plain, the last.
    const sampled = [0, 7, 10, 49_999, 99_999].map((n) => items[n]);
    const stored = await database.ctx.sql<{ id: string; price: number; available: boolean; offers: { location: string; price: number }[] }[]>`
      select p.id, p.price, st.available,
             coalesce((select json_agg(json_build_object('location', e->>0, 'price', (e->>1)::float8) order by e->>0)
                         from jsonb_array_elements(p.offers::jsonb) e), '[]') as offers
        from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
       where p.shop_id = ${shop.shop_id} and p.id = any(${sampled.map((item) => item.id)})
       order by p.id collate "C"`;
    expect(stored).toEqual(
      sampled
        .map((item) => ({ id: item.id, price: item.price, available: item.available ?? true, offers: item.locations ?? [] }))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  } finally {
    await database.close();
  }
});
