// npm run bench:import -- [--products N (1,000,000)] [--shape NAME[,NAME…]|all (synthetic)]
//   [--baseline M] [--resends K] [--in-flight F (2)] [--changed 0.1] [--storefront R] [--general]
// Sends a catalog shape (lib/bench/catalog-shapes.ts) through the HTTP API as a shop would:
// categories, locations, then the products in 5,000-item PUTs, F requests in flight, back to back;
// then the same items again unchanged, again with a share of them changed, a PATCH listing 90 %
// of the catalog and a DELETE of 10,000 ids. Reports end-to-end rates (first request sent → last
// import done) in items/s and MB/s of bodies, the server's peak RSS and its longest event-loop
// stall; then applies the same items with Drizzle multi-row inserts (the naive baseline) in the
// same run. `--storefront R` reads the shop's listing at R requests a second (open loop, distinct
// storefront queries) during every load, and reports their latency and the time from an import
// done to the listing showing it. `--general` makes the server parse every item (ITEM_READER=parse):
// the path an item no fast reader takes. Several shapes run one after the other, each on a
// server and database of its own, and a table of all closes the output.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql as drizzleSql } from 'drizzle-orm';
import { products } from '@/db/schema';
import { catalogShape, isShapeName, SHAPE_NAMES, type CatalogShape, type ShapeName } from '@/lib/bench/catalog-shapes';
import { storefrontQueries } from '@/lib/bench/storefront-queries';
import { memoryFacetEncoder } from '@/lib/catalog/facet-dictionary';
import { prepareItem, PRODUCT_COLUMNS, productValues } from '@/lib/catalog/prepared-items';
import { ItemInput } from '@/lib/catalog/product-schema';
import { boot } from '@/lib/runtime/boot';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { logLines } from '@/lib/testing/log-lines';
import { readSettings } from '@/lib/runtime/settings';
import { waitForImport } from '@/lib/testing/api';
import { startServer, type TestServer } from '@/lib/testing/server';
import { readArgs } from './args';

const root = path.resolve(import.meta.dirname, '../..');
const options = readArgs('npm run bench:import -- [--products N] [--shape NAME[,NAME…]|all] [--baseline M] [--resends K] [--in-flight F] [--changed 0.1] [--storefront R] [--general]', {
  products: { type: 'string', default: '1000000' },
  shape: { type: 'string', default: 'synthetic' },
  baseline: { type: 'string', default: '100000' },
  resends: { type: 'string', default: '1' },
  'in-flight': { type: 'string', default: '2' },
  changed: { type: 'string', default: '0.1' },
  storefront: { type: 'string', default: '0' },
  general: { type: 'boolean', default: false },
});
const N = Number(options.products);
const BATCH = 5000;
const BASELINE_N = Math.min(N, Number(options.baseline));
// Unchanged re-sends after the first load; the median is reported (one alone is noisy on 2 cores).
const RESENDS = Math.max(1, Number(options.resends));
const IN_FLIGHT = Math.max(1, Number(options['in-flight']));
const CHANGED = Number(options.changed);
const STOREFRONT_RATE = Number(options.storefront);
const SHAPES: ShapeName[] = options.shape === 'all' ? [...SHAPE_NAMES] : options.shape.split(',').map((name) => {
  if (!isShapeName(name)) throw new Error(`unknown shape "${name}" (known: ${SHAPE_NAMES.join(', ')}, all)`);
  return name;
});

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
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').toString();
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) pg += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return { server: cpuMs(serverPid), pg };
}
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const rate = (items: number, ms: number) => Math.round((items / ms) * 1000);
const mbps = (bytes: number, ms: number) => (bytes / 1e6 / (ms / 1000)).toFixed(1);
const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

// A fixed piece of work none of Vitrine's code is in, run in a process of its own: JSON.parse of
// 12 MB of JSON, sha256 of it, and 64 MB of fresh memory written (page faults, the kernel's
// zeroing). Its CPU milliseconds (the median of five runs; the least of three tries, as whatever
// else runs for a moment only slows it) are taken with one such process alone, and with two at
// once (the slower of the pair): a first load keeps both cores busy. The same code's first load
// here varies by up to 1.5 times from one half hour to another while the one-process figure stays
// within ~145–190 ms (docs/benchmarks-history.md, session 35), so a run is compared with runs of other
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
// µs of CPU an item to send the same bytes, strings or not (docs/benchmarks-history.md).
const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

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

/** Sends every body, IN_FLIGHT at a time, each as soon as one before it was answered: the highest import id. */
async function sendAll(url: string, bodies: Buffer[]): Promise<number> {
  let next = 0;
  let last = 0;
  const lane = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      last = Math.max(last, await send(url, 'PUT', 'products', body));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return last;
}

type Listing = { products_total: number };

/** A GET of the listing: its status, its time in ms and its products_total. */
function readListing(url: string, readAgent: http.Agent, query: string): Promise<{ status: number; ms: number; total: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(`${url}/products?${query}`, { agent: readAgent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        let total = -1;
        if (response.statusCode === 200) total = (JSON.parse(Buffer.concat(chunks).toString()) as Listing).products_total;
        resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, total });
      });
      response.on('error', () => resolve({ status: 0, ms: performance.now() - started, total: -1 }));
    });
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started, total: -1 }));
  });
}

/**
 * A storefront reading the shop's listing at `perSecond` requests a second, open loop (a request
 * leaves on time whether or not earlier ones were answered), each a different visitor's query.
 */
function storefront(url: string, shopId: string, shape: CatalogShape, perSecond: number) {
  const readAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const queries = storefrontQueries(shape, 20_000, 7).map((q) => `shop_id=${shopId}&did=bench&sid=bench&extended=true&${q}`);
  let times: number[] = [];
  let failures = 0;
  let sent = 0;
  let stopped = false;
  const interval = 1000 / perSecond;
  const started = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  const loop = async () => {
    while (!stopped) {
      const due = started + sent * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      const query = queries[sent++ % queries.length];
      const reading = readListing(url, readAgent, query).then(({ status, ms }) => {
        if (status === 200) times.push(ms);
        else failures++;
        inFlight.delete(reading);
      });
      inFlight.add(reading);
    }
  };
  const running = loop();
  return {
    /** The latencies since the last call, and the failures. */
    take() {
      const taken = times.sort((a, b) => a - b);
      const out = { count: taken.length, failures, p50: percentile(taken, 50), p95: percentile(taken, 95), p99: percentile(taken, 99), max: taken[taken.length - 1] ?? NaN };
      times = [];
      failures = 0;
      return out;
    },
    async stop() {
      stopped = true;
      await running;
      await Promise.all(inFlight);
      readAgent.destroy();
    },
  };
}

/** A changed version of an item: another price (and old price), as a re-priced feed sends it. */
function changedItem(item: Record<string, unknown>): Record<string, unknown> {
  const price = Math.round((item.price as number) * 1.07 * 100) / 100;
  return { ...item, price, ...(typeof item.oldprice === 'number' ? { oldprice: Math.round(price * 1.2 * 100) / 100 } : {}) };
}

type ShapeResults = Record<string, string | number>;

async function benchShape(shapeName: ShapeName): Promise<ShapeResults> {
  const shape = catalogShape(shapeName);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
  const server: TestServer = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined, LIMITS: 'off', ...(options.general ? { ITEM_READER: 'parse' } : {}) });
  const results: ShapeResults = { shape: shapeName, products: N };
  let reader: ReturnType<typeof storefront> | undefined;
  try {
    const cli = (...args: string[]) =>
      JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } }).toString());
    const shop = cli('shop', 'create', '--name', 'Bench') as { shop_id: string; shop_secret: string };
    const facets = memoryFacetEncoder(); // the baseline stores no facet values; prepareItem wants an encoder
    await waitForImport(server.url, shop, await send(server.url, 'POST', 'categories', shape.stringify({ ...shop, categories: shape.categories })));
    if (shape.locations.length > 0) await waitForImport(server.url, shop, await send(server.url, 'POST', 'locations', shape.stringify({ ...shop, locations: shape.locations })));

    log(`${shapeName}: generating ${N} items…`);
    const makeBodies = (item: (n: number) => Record<string, unknown>) => {
      const bodies: Buffer[] = [];
      for (let start = 0; start < N; start += BATCH) {
        const items = [];
        for (let n = start; n < Math.min(N, start + BATCH); n++) items.push(item(n));
        bodies.push(Buffer.from(shape.stringify({ ...shop, items })));
      }
      return bodies;
    };
    const bodies = makeBodies((n) => shape.item(n));
    const changedBodies = CHANGED > 0 ? makeBodies((n) => (n % Math.round(1 / CHANGED) === 0 ? changedItem(shape.item(n)) : shape.item(n))) : [];
    // Generation blocked the event loop: let the HTTP client notice connections the server closed
    // meanwhile, or its first request goes out on a dead socket.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const bytes = bodies.reduce((sum, b) => sum + b.length, 0);
    log(`${bodies.length} requests, ${mib(bytes)} of JSON, ${Math.round(bytes / N)} bytes an item`);
    results['bytes an item'] = Math.round(bytes / N);

    if (STOREFRONT_RATE > 0) {
      // The index is built on the shop's first read: with the categories only, before the load.
      reader = storefront(server.url, shop.shop_id, shape, STOREFRONT_RATE);
    }
    const load = async (label: string, sent: Buffer[]) => {
      const cpuBefore = cpuSnapshot(server.process.pid!, dataDir);
      const clientBefore = process.cpuUsage();
      const started = Date.now();
      const last = await sendAll(server.url, sent);
      const sentMs = Date.now() - started;
      const record = await waitForImport(server.url, shop, last, 3_600_000);
      const ms = Date.now() - started;
      if (record.status !== 'done') throw new Error(`${label}: last import ${record.status}: ${record.message}`);
      const cpuAfter = cpuSnapshot(server.process.pid!, dataDir);
      const client = process.cpuUsage(clientBefore);
      const perItem = (cpu: number) => Math.round((cpu * 1000) / N);
      log(`${shapeName} ${label}: ${N} items in ${ms} ms (sent in ${sentMs} ms): ${rate(N, ms)} items/s, ${mbps(bytes, ms)} MB/s`);
      results[`${label}: CPU µs/item server / PostgreSQL / this client`] =
        `${perItem(cpuAfter.server - cpuBefore.server)} / ${perItem(cpuAfter.pg - cpuBefore.pg)} / ${perItem((client.user + client.system) / 1000)}`;
      if (reader) {
        const reads = reader.take();
        results[`${label}: listing reads during it p50 / p95 / p99 / max ms (count, failed)`] =
          `${reads.p50.toFixed(1)} / ${reads.p95.toFixed(1)} / ${reads.p99.toFixed(1)} / ${reads.max.toFixed(0)} (${reads.count}, ${reads.failures})`;
      }
      return ms;
    };
    reader?.take();
    const firstMs = await load('first full load', bodies);
    results['first load items/s'] = rate(N, firstMs);
    results['first load MB/s'] = mbps(bytes, firstMs);
    if (reader) {
      // The listing shows the whole catalog (every product, in stock or not, each variant).
      const started = Date.now();
      const all = `shop_id=${shop.shop_id}&did=bench&sid=bench&available=false&collapse=false&limit=1`;
      for (;;) {
        const { total } = await readListing(server.url, new http.Agent(), all);
        if (total === N) break;
        if (Date.now() - started > 600_000) throw new Error(`the listing never showed ${N} products (last: ${total})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      results['first load done → all in the listing ms'] = Date.now() - started;
    }
    const resendRates: number[] = [];
    for (let r = 0; r < RESENDS; r++) resendRates.push(rate(N, await load('unchanged re-send', bodies)));
    if (RESENDS > 1) results['unchanged re-sends items/s'] = resendRates.join(', ');
    const resendRate = [...resendRates].sort((a, b) => a - b)[Math.floor(RESENDS / 2)];
    results['unchanged re-send items/s'] = resendRate;
    results['unchanged re-send MB/s'] = ((resendRate * bytes) / N / 1e6).toFixed(1);
    if (CHANGED > 0) {
      const changedMs = await load(`re-send, ${Math.round(CHANGED * 100)} % changed`, changedBodies);
      results[`re-send ${Math.round(CHANGED * 100)} % changed items/s`] = rate(N, changedMs);
    }

    const listed = Array.from({ length: N }, (_, n) => n).filter((n) => n % 10 !== 0).map((n) => shape.sentId(n));
    let started = Date.now();
    let record = await waitForImport(server.url, shop, await send(server.url, 'PATCH', 'products', shape.stringify({ ...shop, items: listed })), 600_000);
    results['PATCH 90% listed ms'] = Date.now() - started;
    if (record.status !== 'done') throw new Error(`PATCH ${record.status}: ${record.message}`);

    const step = Math.max(1, Math.floor(N / 10_000));
    const removed = Array.from({ length: Math.min(10_000, N) }, (_, n) => shape.sentId(n * step));
    started = Date.now();
    record = await waitForImport(server.url, shop, await send(server.url, 'DELETE', 'products', shape.stringify({ ...shop, items: removed })), 600_000);
    results['DELETE 10,000 ids ms'] = Date.now() - started;

    if (reader) {
      // One new product: from its import done to the listing showing it.
      const fresh = { ...shape.item(N + 1), id: `fresh-${Date.now()}`, brand: `Fresh ${Date.now()}`, available: true };
      const importId = await send(server.url, 'PUT', 'products', shape.stringify({ ...shop, items: [fresh] }));
      await waitForImport(server.url, shop, importId);
      const shown = Date.now();
      const query = `shop_id=${shop.shop_id}&did=bench&sid=bench&brands=${encodeURIComponent(fresh.brand)}`;
      for (;;) {
        if ((await readListing(server.url, new http.Agent(), query)).total === 1) break;
        if (Date.now() - shown > 600_000) throw new Error('the new product never showed');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      results['one new product: import done → in the listing ms'] = Date.now() - shown;
      await reader.stop();
      reader = undefined;
    }
    results['server peak RSS'] = mib(peakRss(server.process.pid!));
    const stalls = [...server.output().matchAll(/event loop stalled (\d+) ms/g)].map((m) => Number(m[1]));
    results['event-loop stalls over 50 ms (count, longest ms)'] = `${stalls.length}, ${stalls.length ? Math.max(...stalls) : 0}`;

    // Baseline: the same items, validated the same way, written with Drizzle multi-row upserts.
    if (BASELINE_N > 0) {
      const port = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
      const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      const runtime = await boot({ maintenance: false, settings: { ...readSettings(), databaseUrl: `postgres://vitrine:${encodeURIComponent(password)}@127.0.0.1:${port}/vitrine` } });
      const baselineShop = cli('shop', 'create', '--name', 'Baseline') as { shop_id: string };
      started = Date.now();
      const keys = PRODUCT_COLUMNS;
      for (let start = 0; start < BASELINE_N; start += 1000) {
        const rows = [];
        for (let n = start; n < Math.min(BASELINE_N, start + 1000); n++) {
          const values = productValues(prepareItem(ItemInput.parse(JSON.parse(shape.stringify(shape.item(n))))), facets);
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
    }
  } catch (error) {
    console.error(`server output (last lines):\n${server.output().split('\n').slice(-30).join('\n')}`);
    throw error;
  } finally {
    await reader?.stop();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  // BENCH_SERVER_OUTPUT=FILE keeps the server's whole output (with SERVER_NODE_ARGS="--trace-gc", its collections).
  if (process.env.BENCH_SERVER_OUTPUT) fs.writeFileSync(`${process.env.BENCH_SERVER_OUTPUT}${SHAPES.length > 1 ? `.${shapeName}` : ''}`, server.output());
  const timings = logLines(server.output()).map((line) => line.msg).filter((msg) => msg.startsWith('import timings'));
  if (timings.length > 0) console.log(`\n${timings.join('\n')}`);
  return results;
}

async function main() {
  ensureBuild(root, log);
  // Before the servers start, and again once they are gone: nothing else of the benchmark's runs then.
  const referenceBefore = await machineReference();
  const all: ShapeResults[] = [];
  for (const shape of SHAPES) {
    const results = await benchShape(shape);
    all.push(results);
    console.log(`\nbench:import results (${shape}${options.general ? ', every item parsed' : ''}, ${IN_FLIGHT} in flight${STOREFRONT_RATE ? `, storefront ${STOREFRONT_RATE}/s` : ''})`);
    for (const [key, value] of Object.entries(results)) console.log(`  ${key.padEnd(66)} ${value}`);
  }
  console.log(`\nmachine reference CPU ms, alone / two at once (start; end): ${referenceBefore}; ${await machineReference()}`);
  if (all.length > 1) {
    const keys = [...new Set(all.flatMap((results) => Object.keys(results)))].filter((key) => key !== 'shape');
    console.log(`\n${'bench:import'.padEnd(66)} ${all.map((r) => String(r.shape).padStart(14)).join('')}`);
    for (const key of keys) console.log(`${key.slice(0, 66).padEnd(66)} ${all.map((r) => String(r[key] ?? '').padStart(14)).join('')}`);
    const slowest = all.reduce((worst, r) => (Number(r['first load items/s']) < Number(worst['first load items/s']) ? r : worst));
    console.log(`slowest first load: ${slowest.shape} ${slowest['first load items/s']} items/s (${slowest['first load MB/s']} MB/s)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
