import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { alive, readPostmaster } from '@/db/embedded';
import { sendImport } from '@/lib/testing/api';
import { createTestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { startServer } from '@/lib/testing/server';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
let dataDir: string;

async function cli(...args: string[]) {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
  });
  return JSON.parse(stdout);
}

const postmasterPid = async () => (await readPostmaster(dataDir))?.pid ?? null;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-life-'));
});

afterAll(async () => {
  const pid = await postmasterPid();
  if (pid && alive(pid)) process.kill(pid, 'SIGINT');
  await fs.rm(dataDir, { recursive: true, force: true });
});

it('runs on embedded PostgreSQL, stops it on SIGTERM and keeps the data across restarts', async () => {
  // The CLI alone starts the cluster, initialises it and stops it again.
  const shop = await cli('shop', 'create', '--name', 'Lifecycle', '--currency', 'eur');
  expect(shop.shop_id).toMatch(/^[0-9a-f]{32}$/);
  expect(await postmasterPid()).toBeNull();

  const server = await startServer({ DATABASE_URL: undefined, DATA_DIR: dataDir });
  const pid = (await postmasterPid())!;
  expect(alive(pid)).toBe(true);
  // The CLI joins the server's cluster and leaves it running.
  expect(await cli('shop', 'list')).toEqual([{ shop_id: shop.shop_id, name: 'Lifecycle', currency: 'EUR' }]);
  expect(alive(pid)).toBe(true);

  const login = await fetch(`${server.url}/admin`, { redirect: 'manual' });
  expect(login.status).toBe(307);
  expect(login.headers.get('location')).toMatch(/\/admin\/login$/);

  await server.stop();
  expect(server.process.exitCode).toBe(0);
  expect(server.output()).toMatch(/SIGTERM: stopping[\s\S]*stopped/);
  expect(alive(pid)).toBe(false);

  const again = await startServer({ DATABASE_URL: undefined, DATA_DIR: dataDir });
  try {
    expect(await cli('shop', 'list')).toEqual([{ shop_id: shop.shop_id, name: 'Lifecycle', currency: 'EUR' }]);
  } finally {
    await again.stop();
  }
});

it('lets a running import finish before it stops on SIGTERM', async () => {
  const database = await createTestDatabase();
  try {
    const server = await startServer({ DATABASE_URL: database.url });
    const shop = await createTestShop(database.ctx);
    const items = Array.from({ length: 40_000 }, (_, n) => ({ id: `g${n}`, name: `Item ${n}`, price: 1 + (n % 50), url: 'u', picture: 'p', categories: ['c'] }));
    const { importId } = await sendImport(server.url, 'PUT', 'products', shop, { items });
    const status = async () =>
      (await database.ctx.sql<{ status: string }[]>`select status from imports where shop_id = ${shop.shop_id} and id = ${importId!}`)[0].status;
    // Stops on a finished state too, so a missed window fails here rather than as a timeout.
    let seen = await status();
    while (!['running', 'done', 'failed'].includes(seen)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen = await status();
    }
    expect(seen, 'the import was caught while it ran').toBe('running');
    await server.stop();
    expect(server.process.exitCode).toBe(0);
    expect(await status()).toBe('done');
    const [{ count }] = await database.ctx.sql<{ count: number }[]>`select count(*)::int as count from products where shop_id = ${shop.shop_id}`;
    expect(count).toBe(40_000);
  } finally {
    await database.close();
  }
});

it('makes its cluster with the builtin C.UTF-8 locale: text compares by code point, without strcoll', async () => {
  const database = await createTestDatabase();
  try {
    const [row] = await database.ctx.sql<{ provider: string; locale: string }[]>`
      select datlocprovider as provider, datlocale as locale from pg_database where datname = current_database()`;
    expect(row).toEqual({ provider: 'b', locale: 'C.UTF-8' });
    const ordered = await database.ctx.sql<{ v: string }[]>`select v from unnest(array['b', 'É', 'a', 'B', 'é']) as v order by v`;
    expect(ordered.map((r) => r.v)).toEqual(['B', 'a', 'b', 'É', 'é']);
  } finally {
    await database.close();
  }
});
