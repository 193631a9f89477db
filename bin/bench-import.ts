// npm run bench:import -- --products N (default 1,000,000) [--baseline M] [--resends K]
// Sends a synthetic catalog through the HTTP API in 5,000-item PUTs, as a shop would, and reports
// end-to-end rates, PATCH/DELETE times and the server's peak RSS; then applies the same items with
// Drizzle multi-row inserts (the naive baseline) in the same run.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql as drizzleSql } from 'drizzle-orm';
import { products } from '@/db/schema';
import { memoryFacetEncoder } from '@/lib/catalog/facet-dictionary';
import { prepareItem, PRODUCT_COLUMNS, productValues } from '@/lib/catalog/prepared-items';
import { ItemInput } from '@/lib/catalog/product-schema';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { boot } from '@/lib/runtime/boot';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { waitForImport } from '@/lib/testing/api';
import { startServer } from '@/lib/testing/server';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('products', 1_000_000);
const BATCH = 5000;
const BASELINE_N = Math.min(N, arg('baseline', 100_000));
// Unchanged re-sends after the first load; the median is reported (one alone is noisy on 2 cores).
const RESENDS = Math.max(1, arg('resends', 1));

const peakRss = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)![1]) * 1024;
};
const TICK_MS = 10; // Linux USER_HZ is 100
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime (fields 14-17 of stat; 11-14 after the command)
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return 0;
  }
}
/** CPU time of the server process and of PostgreSQL (the postmaster and its backends). */
function cpuSnapshot(serverPid: number, dataDir: string) {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let pg = cpuMs(postmaster);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').toString();
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === postmaster) pg += cpuMs(Number(entry));
  }
  return { server: cpuMs(serverPid), pg };
}
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const rate = (items: number, ms: number) => Math.round((items / ms) * 1000);

// A fixed piece of work none of Vitrine's code is in, run in a process of its own: JSON.parse of
// 12 MB of JSON, sha256 of it, and 64 MB of fresh memory written (page faults, the kernel's
// zeroing). Its CPU milliseconds (the median of five runs; the least of three tries, as whatever
// else runs for a moment only slows it) are taken with one such process alone, and with two at
// once (the slower of the pair): a first load keeps both cores busy. The same code's first load
// here varies by up to 1.5 times from one half hour to another while the one-process figure stays
// within ~145–190 ms (docs/benchmarks.md, session 35), so a run is compared with runs of other
// code in the same half hour, alternating.
const REFERENCE = `
const crypto = require('node:crypto');
const items = Array.from({ length: 20000 }, (_, n) => ({ id: 'p' + n, name: 'item ' + n, price: n * 1.25, tags: ['a', 'b'],
  params: Array.from({ length: 10 }, (_, k) => ({ name: 'param_' + k, value: ['v' + ((n * k) % 97)] })) }));
const text = Buffer.from(JSON.stringify(items));
const times = [];
for (let run = 0; run < 5; run++) {
  const before = process.cpuUsage();
  JSON.parse(text.toString());
  crypto.hash('sha256', text);
  Buffer.alloc(64 << 20, run);
  const used = process.cpuUsage(before);
  times.push((used.user + used.system) / 1000);
}
console.log(Math.round(times.sort((a, b) => a - b)[2]));`;
const referenceRun = async () => Number((await promisify(execFile)(process.execPath, ['-e', REFERENCE])).stdout);
async function machineReference(): Promise<string> {
  const alone: number[] = [];
  const paired: number[] = [];
  for (let k = 0; k < 3; k++) alone.push(await referenceRun());
  for (let k = 0; k < 3; k++) paired.push(Math.max(...(await Promise.all([referenceRun(), referenceRun()]))));
  return `${Math.min(...alone)} / ${Math.min(...paired)}`;
}

// The shop's side of the benchmark runs on the server's two cores, which a real shop's client
// does not: it sends each body (made once, as bytes) with node:http in one write. fetch took 5–7
// µs of CPU an item to send the same bytes, strings or not (docs/benchmarks.md).
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(url: string, method: string, resource: string, body: string | Buffer, retry = true): Promise<number> {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/import/${resource}`, { method, agent, headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode === 204) resolve(Number(response.headers['x-import-id']));
        else reject(new Error(`${method} ${resource}: HTTP ${response.statusCode} ${text}`));
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A kept-alive connection the server closed as the request went out (Node's advice: retry).
      if (retry && request.reusedSocket && error.code === 'ECONNRESET') resolve(send(url, method, resource, payload, false));
      else reject(error);
    });
    request.end(payload);
  });
}

async function main() {
  ensureBuild(root, log);
  // Before the server starts, and again once it is gone: nothing else of the benchmark's runs then.
  const referenceBefore = await machineReference();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined, LIMITS: 'off' });
  const results: Record<string, string | number> = { products: N };
  try {
    const cli = (...args: string[]) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } }).toString());
    const shop = cli('shop', 'create', '--name', 'Bench') as { shop_id: string; shop_secret: string };
    const categories = syntheticCategories();
    const locations = syntheticLocations();
    const leaves = leafCategories(categories);
    const facets = memoryFacetEncoder(); // the baseline stores no facet values; prepareItem wants an encoder
    await waitForImport(server.url, shop, await send(server.url, 'POST', 'categories', JSON.stringify({ ...shop, categories })));
    await waitForImport(server.url, shop, await send(server.url, 'POST', 'locations', JSON.stringify({ ...shop, locations })));

    log(`generating ${N} items…`);
    const bodies: Buffer[] = [];
    for (let start = 0; start < N; start += BATCH) {
      const items = [];
      for (let n = start; n < Math.min(N, start + BATCH); n++) items.push(syntheticItem(n, leaves, locations));
      bodies.push(Buffer.from(JSON.stringify({ ...shop, items })));
    }
    // Generation blocked the event loop: let the HTTP client notice connections the server closed
    // meanwhile, or its first request goes out on a dead socket.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const bytes = bodies.reduce((sum, b) => sum + b.length, 0);
    log(`${bodies.length} requests, ${mib(bytes)} of JSON`);

    const load = async (label: string) => {
      const cpuBefore = cpuSnapshot(server.process.pid!, dataDir);
      const clientBefore = process.cpuUsage();
      const started = Date.now();
      let last = 0;
      for (const body of bodies) last = await send(server.url, 'PUT', 'products', body);
      const sentMs = Date.now() - started;
      const record = await waitForImport(server.url, shop, last, 3_600_000);
      const ms = Date.now() - started;
      if (record.status !== 'done') throw new Error(`${label}: last import ${record.status}: ${record.message}`);
      const cpuAfter = cpuSnapshot(server.process.pid!, dataDir);
      const serverCpu = cpuAfter.server - cpuBefore.server;
      const pgCpu = cpuAfter.pg - cpuBefore.pg;
      const client = process.cpuUsage(clientBefore);
      const clientCpu = (client.user + client.system) / 1000;
      log(`${label}: ${N} items in ${ms} ms (sent in ${sentMs} ms): ${rate(N, ms)} items/s`);
      const perItem = (ms: number) => Math.round((ms * 1000) / N);
      results[`${label}: CPU µs/item server / PostgreSQL / this client`] = `${perItem(serverCpu)} / ${perItem(pgCpu)} / ${perItem(clientCpu)}`;
      return ms;
    };
    const firstMs = await load('first full load');
    results['first load items/s'] = rate(N, firstMs);
    const resendRates: number[] = [];
    for (let r = 0; r < RESENDS; r++) resendRates.push(rate(N, await load('unchanged re-send')));
    if (RESENDS > 1) results['unchanged re-sends items/s'] = resendRates.join(', ');
    results['unchanged re-send items/s'] = [...resendRates].sort((a, b) => a - b)[Math.floor(RESENDS / 2)];

    const listed = Array.from({ length: N }, (_, n) => `p${n}`).filter((_, n) => n % 10 !== 0);
    let started = Date.now();
    let record = await waitForImport(server.url, shop, await send(server.url, 'PATCH', 'products', JSON.stringify({ ...shop, items: listed })), 600_000);
    results['PATCH 90% listed ms'] = Date.now() - started;
    if (record.status !== 'done') throw new Error(`PATCH ${record.status}: ${record.message}`);

    const removed = Array.from({ length: Math.min(10_000, N) }, (_, n) => `p${n * Math.floor(N / Math.min(10_000, N))}`);
    started = Date.now();
    record = await waitForImport(server.url, shop, await send(server.url, 'DELETE', 'products', JSON.stringify({ ...shop, items: removed })), 600_000);
    results['DELETE 10,000 ids ms'] = Date.now() - started;
    results['server peak RSS'] = mib(peakRss(server.process.pid!));

    // Baseline: the same items, validated the same way, written with Drizzle multi-row upserts.
    const port = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    const runtime = await boot({ maintenance: false, settings: { ...readSettings(), databaseUrl: `postgres://vitrine:${encodeURIComponent(password)}@127.0.0.1:${port}/vitrine` } });
    const baselineShop = cli('shop', 'create', '--name', 'Baseline') as { shop_id: string };
    started = Date.now();
    const keys = PRODUCT_COLUMNS;
    for (let start = 0; start < BASELINE_N; start += 1000) {
      const rows = [];
      for (let n = start; n < Math.min(BASELINE_N, start + 1000); n++) {
        const values = productValues(prepareItem(ItemInput.parse(syntheticItem(n, leaves, locations))), facets);
        const row = Object.fromEntries(keys.map((key, i) => [key, values[i]]));
        const unwrap = (v: unknown) => (v && typeof v === 'object' && 'json' in v ? (v as { json: unknown }).json : v);
        rows.push({
          shopId: baselineShop.shop_id,
          id: row.id as string,
          groupId: row.group_id as string | null,
          name: row.name as string,
          url: row.url as string,
          picture: row.picture as string,
          price: row.price as number,
          oldprice: row.oldprice as number | null,
          discountPercent: row.discount_percent as number,
          currency: row.currency as string | null,
          brand: row.brand as string | null,
          merchants: row.merchants as string[] | null,
          categories: row.categories as string[],
          stockQuantity: row.stock_quantity as number | null,
          rating: row.rating as number | null,
          priceMargin: row.price_margin as number | null,
          data: JSON.stringify(unwrap(row.data)),
          model: row.model as string | null,
          book: row.book ? JSON.stringify(unwrap(row.book)) : null,
          version: 1,
        });
      }
      await runtime.ctx.db
        .insert(products)
        .values(rows)
        .onConflictDoUpdate({ target: [products.shopId, products.id], set: { data: drizzleSql`excluded.data`, price: drizzleSql`excluded.price` } });
    }
    const baselineMs = Date.now() - started;
    await runtime.shutdown();
    results['baseline (Drizzle multi-row, in-process, no HTTP) items/s'] = rate(BASELINE_N, baselineMs);
    results['baseline items'] = BASELINE_N;
    results['first load ÷ baseline'] = (rate(N, firstMs) / rate(BASELINE_N, baselineMs)).toFixed(2);
  } catch (error) {
    console.error(`server output (last lines):\n${server.output().split('\n').slice(-30).join('\n')}`);
    throw error;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  results['machine reference CPU ms, alone / two at once (start; end)'] = `${referenceBefore}; ${await machineReference()}`;
  // BENCH_SERVER_OUTPUT=FILE keeps the server's whole output (with SERVER_NODE_ARGS="--trace-gc", its collections).
  if (process.env.BENCH_SERVER_OUTPUT) fs.writeFileSync(process.env.BENCH_SERVER_OUTPUT, server.output());
  const timings = server.output().split('\n').filter((line) => line.includes('import timings'));
  if (timings.length > 0) console.log(`\n${timings.join('\n')}`);
  console.log('\nbench:import results');
  for (const [key, value] of Object.entries(results)) console.log(`  ${key.padEnd(58)} ${value}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
