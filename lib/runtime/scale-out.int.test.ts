import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importStatus, sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { startServer, startWorker, type TestServer } from '@/lib/testing/server';
import { SHOP_APPLY_TX_LOCK } from '@/lib/imports/apply-locks';

// The deployment docs/operations.md describes, with real processes on one PostgreSQL: web nodes
// started as the Procfile's `web` (WORKERS=off) and worker nodes as its `worker`.

const root = path.resolve(import.meta.dirname, '..', '..');
const FRESHNESS_MS = 10_000;
const WRITES_PER_MINUTE = 8;

let database: TestDatabase;
const processes: TestServer[] = [];
let webA: TestServer;
let webB: TestServer;
let workers: TestServer[];

const item = (id: string, n: number, category = 'c') => ({ id, name: `Item ${n}`, price: 1 + (n % 500), url: `https://s.example/${id}`, picture: `https://s.example/${id}.jpg`, categories: [category] });

async function productsTotal(server: TestServer, shop: TestShop): Promise<number> {
  const response = await fetch(`${server.url}/products?shop_id=${shop.shop_id}&did=d&sid=s&limit=1`);
  expect(response.status).toBe(200);
  return (await response.json()).products_total;
}

/** Milliseconds until `server`'s listing of `shop` counts `total` products (fails after `limitMs`). */
async function untilListed(server: TestServer, shop: TestShop, total: number, limitMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    if ((await productsTotal(server, shop)) === total) return performance.now() - start;
    if (performance.now() - start > limitMs) throw new Error(`${server.url} did not list ${total} products within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The process, of `candidates`, with a TCP connection from local port `port` (Linux's /proc). */
function processOfPort(port: number, candidates: TestServer[]): TestServer | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`)) inodes.add(fields[9]);
    }
  }
  return candidates.find((candidate) => {
    const fdDir = `/proc/${candidate.process.pid}/fd`;
    return fs.readdirSync(fdDir).some((fd) => {
      try {
        const target = fs.readlinkSync(path.join(fdDir, fd));
        return inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
      } catch {
        return false;
      }
    });
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  const web = { DATABASE_URL: database.url, WORKERS: 'off', RATE_LIMIT_PER_MINUTE: String(WRITES_PER_MINUTE) };
  const started = await Promise.all([startServer(web), startServer(web), startWorker({ DATABASE_URL: database.url }), startWorker({ DATABASE_URL: database.url })]);
  processes.push(...started);
  [webA, webB, ...workers] = started;
}, 180_000);

afterAll(async () => {
  for (const server of processes) if (server.process.exitCode === null && server.process.signalCode === null) await server.stop();
  await database?.close();
});

it("runs the Procfile's processes: web nodes without workers, worker nodes with `npm run worker`", () => {
  const entries = Object.fromEntries(
    fs.readFileSync(path.join(root, 'Procfile'), 'utf8').split('\n').filter((line) => /^\w+:/.test(line)).map((line) => {
      const at = line.indexOf(':');
      return [line.slice(0, at), line.slice(at + 1).trim()];
    }),
  );
  expect(entries).toEqual({ web: 'WORKERS=off npm start', worker: 'npm run worker' });
  // What those npm scripts run is what startServer and startWorker start.
  const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
  expect(scripts.start).toMatch(/node --import tsx bin\/start\.ts$/);
  expect(scripts.worker).toMatch(/node --import tsx bin\/worker\.ts$/);
  expect(webA.output()).not.toMatch(/workers running/);
});

it("applies imports sent to one web node on a worker node, and another web node lists them within the freshness target", async () => {
  const shop = await createTestShop(database.ctx);
  // Web B builds the shop's (empty) index on its first read, then follows the catalog.
  expect(await productsTotal(webB, shop)).toBe(0);
  const categories = await sendImport(webA.url, 'POST', 'categories', shop, { categories: [{ id: 'c', name: 'All' }] });
  expect(categories.response.status).toBe(204);
  const products = await sendImport(webA.url, 'PUT', 'products', shop, { items: Array.from({ length: 3_000 }, (_, n) => item(`a${n}`, n)) });
  expect(products.response.status).toBe(204);
  const record = await waitForImport(webB.url, shop, products.importId!);
  expect(record).toMatchObject({ status: 'done', items_applied: 3_000, items_rejected: 0 });
  const lag = await untilListed(webB, shop, 3_000, FRESHNESS_MS);
  expect(lag).toBeLessThan(FRESHNESS_MS);
  expect(await productsTotal(webA, shop)).toBe(3_000);

  // A change through web B reaches web A's index in the same way: an availability sync listing
  // all but the first 500 products takes those out of stock.
  const patch = await sendImport(webB.url, 'PATCH', 'products', shop, { items: Array.from({ length: 2_500 }, (_, n) => `a${n + 500}`) });
  expect(patch.response.status).toBe(204);
  expect((await waitForImport(webA.url, shop, patch.importId!)).status).toBe('done');
  expect(await untilListed(webA, shop, 2_500, FRESHNESS_MS)).toBeLessThan(FRESHNESS_MS);
}, 90_000);

it('finishes an import on the other worker node when the one applying it is killed, once, losing nothing', async () => {
  const shop = await createTestShop(database.ctx);
  const count = 60_000;
  const { response, importId } = await sendImport(webA.url, 'PUT', 'products', shop, { items: Array.from({ length: count }, (_, n) => item(`k${n}`, n)) });
  expect(response.status).toBe(204);

  // The applier holds the shop's apply lock in its transaction: its connection says which
  // worker process it is.
  let applying: TestServer | undefined;
  const deadline = Date.now() + 30_000;
  while (!applying && Date.now() < deadline) {
    const [holder] = await database.ctx.sql<{ port: number | null }[]>`
      select a.client_port as port from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where l.locktype = 'advisory' and l.classid = ${SHOP_APPLY_TX_LOCK} and l.granted`;
    if (holder?.port) applying = processOfPort(holder.port, workers);
    if (!applying) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(applying, 'a worker node was caught applying the import').toBeDefined();
  expect((await importStatus(webA.url, shop, importId!)).status).toBe('running');
  await applying!.kill();
  const survivor = workers.find((worker) => worker !== applying)!;
  expect(survivor.process.exitCode).toBeNull();

  const record = await waitForImport(webB.url, shop, importId!, 60_000);
  expect(record).toMatchObject({ status: 'done', items_applied: count, items_rejected: 0 });
  const [row] = await database.ctx.sql<{ products: number; version: number; attempts: number }[]>`
    select (select count(*)::int from products where shop_id = ${shop.shop_id}) as products,
           (select catalog_version::int from shops where id = ${shop.shop_id}) as version,
           (select attempts::int from imports where id = ${importId!}) as attempts`;
  // Every item once, one catalog version for the one import, and the killed try counted.
  expect(row).toEqual({ products: count, version: 1, attempts: 2 });
  expect(await untilListed(webB, shop, count, FRESHNESS_MS)).toBeLessThan(FRESHNESS_MS);

  // A web node started now builds the shop's index on its first read.
  const webC = await startServer({ DATABASE_URL: database.url, WORKERS: 'off' });
  processes.push(webC);
  expect(await productsTotal(webC, shop)).toBe(count);
}, 150_000);

it("holds a shop's write rate limit across web nodes", async () => {
  const shop = await createTestShop(database.ctx);
  const send = (server: TestServer, n: number) => sendImport(server.url, 'POST', 'categories', shop, { categories: [{ id: `r${n}`, name: `R ${n}` }] });
  const statuses: number[] = [];
  for (let n = 0; n < WRITES_PER_MINUTE; n++) statuses.push((await send(n % 2 ? webB : webA, n)).response.status);
  expect(statuses).toEqual(Array(WRITES_PER_MINUTE).fill(204));
  for (const server of [webA, webB]) {
    const { response } = await send(server, 99);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toEqual({ status: 'error', payload: { message: expect.stringMatching(/rate|limit|many/i) } });
  }
}, 60_000);
