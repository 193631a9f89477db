import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { alive, readPostmaster, startEmbeddedPostgres } from '@/db/embedded';
import { productItem } from '@/lib/testing/applied-imports';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { importStream, settledImports, type StreamResult } from '@/lib/testing/import-stream';
import { eventually, startHttpReceiver } from '@/lib/testing/receivers';
import { startServer, type TestServer } from '@/lib/testing/server';
import { boot } from './boot';
import { readSettings } from './settings';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const servers: TestServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

const stopStreams: (() => Promise<unknown>)[] = [];

// The import streams send as fast as they are answered, far past the 40 writes a minute a shop
// may send: the rate limit is not what these tests are about.
const UNLIMITED = { RATE_LIMIT_PER_MINUTE: '1000000' };

// Each step on its own: one that fails (a test stopped half-way) must not leave the rest running.
afterAll(async () => {
  for (const stop of stopStreams) await stop().catch(() => {});
  for (const server of servers) if (server.process.exitCode === null && server.process.signalCode === null) await server.stop().catch(() => server.kill());
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  // Clusters are ours even if a test failed half-way: never leave one running.
  for (const dir of dirs) {
    const left = await readPostmaster(dir);
    if (left && alive(left.pid)) process.kill(left.pid, 'SIGINT');
    await eventually(() => (left ? alive(left.pid) : false), (running) => !running, 30_000).catch(() => {});
    await fs.rm(dir, { recursive: true, force: true });
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function dataDirectory(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-faults-'));
  dirs.push(dir);
  return dir;
}

async function createShopWithCli(dataDir: string): Promise<TestShop> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', 'shop', 'create', '--name', 'Faults'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
  return JSON.parse(stdout) as TestShop;
}

/** A connection of the test's own to the embedded cluster running on `dataDir`. */
async function embeddedSql(dataDir: string) {
  const { port } = (await readPostmaster(dataDir))!;
  const password = (await fs.readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
  return postgres(`postgres://vitrine:${encodeURIComponent(password)}@127.0.0.1:${port}/vitrine`, { max: 1, onnotice: () => {} });
}

const listing = (url: string, shop: TestShop) => fetch(`${url}/products?shop_id=${shop.shop_id}&did=d&sid=s&extended=true&limit=5`);

/** Every import answered 204 is done, once, and its product is there. */
async function expectAppliedOnce(url: string, shop: TestShop, stream: StreamResult, sql: postgres.Sql) {
  expect(stream.unexpected).toEqual([]);
  const records = await settledImports(url, shop, stream.accepted.map((a) => a.importId));
  expect(records.map((r) => [r.status, r.items_applied])).toEqual(records.map(() => ['done', 1]));
  const ids = stream.accepted.map((a) => a.productId);
  const found = await sql<{ id: string }[]>`select id from products where shop_id = ${shop.shop_id} and id = any(${ids})`;
  expect(found.length).toBe(ids.length);
  // One record per accepted import (a 503 may have come after its commit: then one more, never fewer).
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from imports where shop_id = ${shop.shop_id} and id = any(${stream.accepted.map((a) => a.importId)})`;
  expect(count).toBe(ids.length);
}

/** `waiting`, failing with what the server logged and what the clients got. */
function explained<T>(waiting: Promise<T>, server: TestServer, streams: { result: StreamResult }[]): Promise<T> {
  return waiting.catch((error: Error) => {
    const statuses = streams.map((s) => JSON.stringify(s.result.statuses)).join(' ');
    throw new Error(`${error.message}\nclients: ${statuses}\nserver log (end):\n${server.output().slice(-4000)}`);
  });
}

function expectReadableLog(output: string) {
  expect(output).not.toContain('[object Object]');
  expect(output).not.toMatch(/unexpected error|request failed/);
}

it('starts the embedded PostgreSQL again when it dies, answering 503 meanwhile, listings from memory, every accepted import once', async () => {
  const dataDir = await dataDirectory();
  const receiver = await startHttpReceiver();
  cleanups.push(receiver.close);
  const server = await startServer({ ...UNLIMITED, DATABASE_URL: undefined, DATA_DIR: dataDir, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  servers.push(server);
  // A storefront reads one shop while another shop's client imports.
  const [reader, shop] = [await createShopWithCli(dataDir), await createShopWithCli(dataDir)];
  const first = await sendImport(server.url, 'PUT', 'products', reader, { items: Array.from({ length: 50 }, (_, n) => productItem(`base-${n}`)) });
  expect((await waitForImport(server.url, reader, first.importId!)).status).toBe('done');
  // The listing's index is built and its page kept: what can answer while PostgreSQL is away.
  const before = await (await listing(server.url, reader)).json();
  expect(before.products).toHaveLength(5);

  const stream = importStream(() => server.url, shop, 'a');
  stopStreams.push(stream.stop);
  await eventually(() => stream.result.accepted.length, (n) => n >= 3);
  const { pid } = (await readPostmaster(dataDir))!;
  const killedAt = Date.now();
  process.kill(pid, 'SIGKILL');

  // Meanwhile: the same listing answers from memory; imports get 503 with Retry-After.
  const during = await listing(server.url, reader);
  expect(during.status).toBe(200);
  expect((await during.json()).products).toEqual(before.products);
  await eventually(() => stream.result.statuses['503'] ?? 0, (n) => n > 0, 10_000);
  // Then it is back by itself: imports are accepted again.
  const acceptedBefore = stream.result.accepted.length;
  await eventually(() => stream.result.accepted.length, (n) => n >= acceptedBefore + 3, 30_000);
  const recoveredInMs = Date.now() - killedAt;
  const result = await stream.stop();
  const outage = server.output().split('\n').filter((line) => /PostgreSQL|database/.test(line)).join('\n');
  expect(recoveredInMs, outage).toBeLessThan(15_000);

  const sql = await embeddedSql(dataDir);
  cleanups.push(() => sql.end());
  await expectAppliedOnce(server.url, shop, result, sql);
  // The job queue works again too: a webhook is delivered.
  const hooked = await sendImport(server.url, 'PUT', 'products', shop, { items: [productItem('hooked')], webhook: `${receiver.url}/after` });
  await waitForImport(server.url, shop, hooked.importId!);
  await eventually(() => receiver.received.filter((r) => r.path === '/after').length, (n) => n === 1, 30_000);

  const output = server.output();
  expect(output).toMatch(/the embedded PostgreSQL \(pid \d+\) exited: starting it again/);
  expect(output).toMatch(/the embedded PostgreSQL runs again \(pid \d+/);
  expect(output).toMatch(/database unreachable \(/);
  // The recovery is logged by the thread that noted the outage, unless that was the job workers'
  // thread and it ended meanwhile (postgres.js can throw from a closed socket's pending write):
  // the thread started in its place begins without the outage.
  expect(output).toMatch(/database reachable again after|job workers' thread ended[^\n]*starting another/);
  expectReadableLog(output);
  // The cluster started again is the one the server stops.
  const restarted = (await readPostmaster(dataDir))!.pid;
  expect(restarted).not.toBe(pid);
  await server.stop();
  expect(alive(restarted)).toBe(false);
});

it('rides out a DATABASE_URL server restarting and crashing: 503 meanwhile, then the pool and the job queue reconnect', async () => {
  const dir = await dataDirectory();
  const port = await freePort();
  // The database server of the test's own, started again on the same port as a managed one would be.
  const database = await startEmbeddedPostgres(dir, () => {}, { choosePort: async () => port });
  let current = database;
  cleanups.push(() => current.stop());
  const receiver = await startHttpReceiver();
  cleanups.push(receiver.close);
  const runtime = await boot({ maintenance: false, settings: { ...readSettings(), databaseUrl: database.url } });
  cleanups.push(() => runtime.shutdown());
  const [reader, shop] = [await createTestShop(runtime.ctx), await createTestShop(runtime.ctx)];
  const server = await startServer({ ...UNLIMITED, DATABASE_URL: database.url, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  servers.push(server);
  const base = await sendImport(server.url, 'PUT', 'products', reader, { items: Array.from({ length: 20 }, (_, n) => productItem(`base-${n}`)) });
  await waitForImport(server.url, reader, base.importId!);
  const before = await (await listing(server.url, reader)).json();
  expect(before.products).toHaveLength(5);

  for (const how of ['restart', 'crash'] as const) {
    const stream = importStream(() => server.url, shop, how);
    stopStreams.push(stream.stop);
    await eventually(() => stream.result.accepted.length, (n) => n >= 3);
    if (how === 'restart') {
      await current.stop();
    } else {
      process.kill((await readPostmaster(dir))!.pid, 'SIGKILL');
      await eventually(async () => (await readPostmaster(dir)) && alive((await readPostmaster(dir))!.pid), (running) => !running);
    }
    await explained(eventually(() => stream.result.statuses['503'] ?? 0, (n) => n >= 3, 10_000), server, [stream]);
    const during = await listing(server.url, reader);
    expect(during.status, how).toBe(200);
    expect((await during.json()).products, how).toEqual(before.products);
    // A second later it is back, on the same port: crash recovery for the crash.
    current = await startEmbeddedPostgres(dir, () => {}, { choosePort: async () => port });
    const acceptedBefore = stream.result.accepted.length;
    await explained(eventually(() => stream.result.accepted.length, (n) => n >= acceptedBefore + 3, 30_000), server, [stream]);
    const result = await stream.stop();
    await expectAppliedOnce(server.url, shop, result, runtime.ctx.sql);
    // pg-boss reconnected: a webhook job is taken and delivered.
    const hooked = await sendImport(server.url, 'PUT', 'products', shop, { items: [productItem(`hooked-${how}`)], webhook: `${receiver.url}/${how}` });
    await waitForImport(server.url, shop, hooked.importId!);
    await eventually(() => receiver.received.filter((r) => r.path === `/${how}`).length, (n) => n === 1, 30_000);
  }
  expectReadableLog(server.output());
  expect(server.output()).toMatch(/database unreachable \(/);
});

it('is ready within 30 s of starting after the whole server was SIGKILLed mid-import, ten times, losing nothing accepted', async () => {
  const dataDir = await dataDirectory();
  let server: TestServer | undefined;
  let shop: TestShop | undefined;
  const results: StreamResult[] = [];
  const readyTimes: number[] = [];
  for (let round = 0; round < 10; round++) {
    const started = Date.now();
    server = await startServer({ ...UNLIMITED, DATABASE_URL: undefined, DATA_DIR: dataDir });
    servers.push(server);
    shop ??= await createShopWithCli(dataDir);
    const live = server;
    // Two clients importing at once, as a shop's plugin and a stock sync would.
    const streams = [importStream(() => live.url, shop, `r${round}x`), importStream(() => live.url, shop, `r${round}y`)];
    for (const stream of streams) stopStreams.push(stream.stop);
    await explained(eventually(() => streams[0].result.accepted.length + streams[1].result.accepted.length, (n) => n >= 1, 30_000), live, streams);
    readyTimes.push(Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 600));
    // The whole server at once: Node and its PostgreSQL.
    const postmaster = (await readPostmaster(dataDir))!.pid;
    process.kill(live.process.pid!, 'SIGKILL');
    process.kill(postmaster, 'SIGKILL');
    await live.kill();
    for (const stream of streams) results.push(await stream.stop());
  }
  const last = await startServer({ ...UNLIMITED, DATABASE_URL: undefined, DATA_DIR: dataDir });
  servers.push(last);
  const sql = await embeddedSql(dataDir);
  cleanups.push(() => sql.end());
  for (const result of results) await expectAppliedOnce(last.url, shop!, result, sql);
  expect(Math.max(...readyTimes), JSON.stringify(readyTimes)).toBeLessThan(30_000);
  expect(results.reduce((sum, r) => sum + r.accepted.length, 0)).toBeGreaterThan(10);
  expectReadableLog(last.output());
});
