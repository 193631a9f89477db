// npm run bench:listing -- [--products N (1,000,000)] [--shape NAME[,NAME…]|all (synthetic)]
//   [--data-dir DIR] [--only engine,collection,freshness,http] [--runs R (60)] [--sql-runs S]
//   [--http-runs H (100)] [--http-seconds T (10)] [--distinct Q (5000)]
// Loads a catalog shape (lib/bench/catalog-shapes.ts) of N products and measures the listing as a
// storefront sees it:
// - engine: each named query shape (lib/bench/storefront-queries.ts) run in process, cold (what
//   queries keep dropped before each run) and warm, beside a straightforward SQL implementation
//   of the same query in the same run; then the index build and its memory;
// - collection: two rule groups (a category; brands with price_min), with and without a location;
// - freshness: import committed → the index shows it (an availability change; a new product);
// - http: the real server (its own process, WORKERS=off) over HTTP with extended=true, limit=24
//   and the spec's default category and brand limits: each named shape's latency (requests one at
//   a time; a query that narrows the result with an `exclude` of its own each time, so nothing
//   kept for an earlier one answers it: coldQuery) with and without gzip, the collection's; then
//   16 connections in a closed loop, each in its own
//   random order, over the named shapes and over Q distinct storefront queries (the most
//   requests a second), then an open loop at 50 % and 80 % of that rate (latency as a visitor
//   sees it: from when the request was due); the server's peak RSS.
// Several shapes run one after the other; a table of all closes the output. `--data-dir DIR`
// keeps the database there and reuses a catalog already loaded (for repeated runs).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TransactionSql } from 'postgres';
import { catalogShape, isShapeName, SHAPE_NAMES, type CatalogShape, type ShapeName } from '@/lib/bench/catalog-shapes';
import { sqlCollection, sqlListing } from '@/lib/bench/listing-sql';
import { namedQueryShapes, storefrontQueries } from '@/lib/bench/storefront-queries';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import { applyTree } from '@/lib/catalog/apply-tree';
import { backfillFacets } from '@/lib/catalog/backfill-facets';
import { createCollection } from '@/lib/collections/manage-collections';
import type { CollectionRules } from '@/lib/collections/schemas';
import { selectCollection } from '@/lib/collections/select-products';
import { docOf, heldBufferBytes, indexBytes, type ShopIndex } from '@/lib/listing/indexing';
import { forgetKept, runListing } from '@/lib/listing/engine';
import { dropIndexes, forgetIndexStore, indexFor, searchIndexFor } from '@/lib/listing/index-store';
import { paramsFromSearch, parseListingQuery } from '@/lib/listing/query';
import { searchDocuments } from '@/lib/listing/search';
import { boot, type Runtime } from '@/lib/runtime/boot';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { createShop } from '@/lib/shops/manage-shops';
import { startServer } from '@/lib/testing/server';
import { readArgs } from './args';

const root = path.resolve(import.meta.dirname, '../..');
const options = readArgs('npm run bench:listing -- [--products N] [--shape NAME[,NAME…]|all] [--data-dir DIR] [--only engine,collection,freshness,http] [--runs R] [--sql-runs S] [--http-runs H] [--http-seconds T] [--distinct Q]', {
  products: { type: 'string', default: '1000000' },
  shape: { type: 'string', default: 'synthetic' },
  'data-dir': { type: 'string' },
  only: { type: 'string', default: 'engine,collection,freshness,http' },
  runs: { type: 'string', default: '60' },
  'sql-runs': { type: 'string' },
  'http-runs': { type: 'string', default: '100' },
  'http-seconds': { type: 'string', default: '10' },
  distinct: { type: 'string', default: '5000' },
});
const N = Number(options.products);
const RUNS = Number(options.runs);
const SQL_RUNS = Number(options['sql-runs'] ?? (N > 200_000 ? 5 : 15));
const HTTP_RUNS = Number(options['http-runs']);
const HTTP_SECONDS = Number(options['http-seconds']);
const DISTINCT = Number(options.distinct);
const WARM_UP_RUNS = 5; // untimed cold runs of each shape before its timed ones
const KEPT_DATA_DIR = options['data-dir'] ? path.resolve(options['data-dir']) : null;
const PARTS = new Set(options.only.split(','));
const SHAPES: ShapeName[] = options.shape === 'all' ? [...SHAPE_NAMES] : options.shape.split(',').map((name) => {
  if (!isShapeName(name)) throw new Error(`unknown shape "${name}" (known: ${SHAPE_NAMES.join(', ')}, all)`);
  return name;
});

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const ms = (value: number) => (Number.isNaN(value) ? '–' : value >= 100 ? value.toFixed(0) : value.toFixed(1));
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
const figures = (sorted: number[]) => [50, 95, 99].map((p) => ms(percentile(sorted, p))).join(' / ');

async function timed(runs: number, run: () => unknown | Promise<unknown>, before?: () => void): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

function shuffled<T>(list: T[], seed: number): T[] {
  const out = list.slice();
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The shape's catalog of `count` products in the database: loaded through the import path, or found kept. */
async function loadCatalog(runtime: Runtime, shape: CatalogShape, count: number) {
  const sql = runtime.ctx.sql;
  const shopName = `${shape.name} ${count}`;
  const [kept] = await sql<{ shop_id: string }[]>`
    select s.id as shop_id from shops s where s.name = ${shopName} and (select count(*) from products p where p.shop_id = s.id) >= ${count}`;
  if (kept) {
    log(`${shopName}: reusing the catalog kept in ${KEPT_DATA_DIR}`);
    await backfillFacets(sql, kept.shop_id, log); // a catalog kept from before the facets column
    return kept.shop_id;
  }
  const shop = await createShop(runtime.ctx, { name: shopName, currency: 'EUR' });
  // As the shop sends them: its JSON read back (numbers for ids where the shape sends them).
  const sent = <T>(value: T): T => JSON.parse(shape.stringify(value)) as T;
  await sql.begin((tx) => applyTree(tx, shop.shop_id, 'categories', 'replace', sent(shape.categories)));
  if (shape.locations.length > 0) await sql.begin((tx) => applyTree(tx, shop.shop_id, 'locations', 'replace', sent(shape.locations)));
  const started = Date.now();
  for (let start = 0; start < count; start += 5000) {
    const items: unknown[] = [];
    for (let n = start; n < Math.min(count, start + 5000); n++) items.push(sent(shape.item(n)));
    await sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', items));
    if ((start / 5000) % 20 === 19) log(`${shopName}: ${start + 5000} of ${count} products loaded`);
  }
  log(`${shopName}: loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await sql`vacuum analyze products`;
  await sql`vacuum analyze product_state`;
  return shop.shop_id;
}

/** Commits one change through the import path and waits until the process's index shows it. */
async function freshness(runtime: Runtime, shopId: string, change: (tx: TransactionSql) => Promise<unknown>, visible: (index: ShopIndex) => boolean) {
  await indexFor(runtime.ctx.sql, shopId);
  const started = performance.now();
  await runtime.ctx.sql.begin(change);
  for (;;) {
    const index = await indexFor(runtime.ctx.sql, shopId);
    if (visible(index)) return performance.now() - started;
    if (performance.now() - started > 600_000) throw new Error('the change never showed');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The rules of the benchmark's collection: one group by a category, one by brands with price_min. */
function collectionRules(shape: CatalogShape): CollectionRules {
  return {
    groups: [
      { categories: [shape.facets.topCategories[2 % shape.facets.topCategories.length]], limit: 20 },
      { brands: shape.facets.brands.slice(0, 4), price_min: 50, limit: 20 },
    ],
  };
}

type Reply = { status: number; ms: number };

/** A GET over `agent`: its status and time; the body is read to its end. */
function get(url: string, agent: http.Agent, headers: http.OutgoingHttpHeaders = {}, due = performance.now()): Promise<Reply> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent, headers }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - due }));
      response.on('error', () => resolve({ status: 0, ms: performance.now() - due }));
    });
    request.on('error', () => resolve({ status: 0, ms: performance.now() - due }));
  });
}

type Load = { rate: number; p50: number; p95: number; p99: number; failed: number; count: number };

function summary(times: number[], failed: number, seconds: number): Load {
  const sorted = times.sort((a, b) => a - b);
  return { rate: sorted.length / seconds, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), failed, count: sorted.length };
}
const loadLine = (load: Load) => `${Math.round(load.rate)} requests/s, p50 ${ms(load.p50)} / p95 ${ms(load.p95)} / p99 ${ms(load.p99)} ms, ${load.failed} failed`;

/**
 * CPU ns the server's threads have run: its serving thread (the main one) and all of them (the
 * thread pool's compression, the counting threads, the collector's helpers). Per request, the
 * serving thread's share bounds its throughput whatever else runs on the machine.
 */
function serverCpuNs(pid: number): { serving: number; all: number } {
  const ran = (tid: string) => {
    try {
      return Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return 0; // ended meanwhile
    }
  };
  let all = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) all += ran(tid);
  return { serving: ran(String(pid)), all };
}

/** The server's CPU ms a request over a load (see serverCpuNs). */
async function cpuPerRequest(pid: number, load: () => Promise<Load>): Promise<[Load, string]> {
  const before = serverCpuNs(pid);
  const result = await load();
  const after = serverCpuNs(pid);
  const requests = result.count + result.failed;
  const perRequest = (ns: number) => (ns / 1e6 / Math.max(1, requests)).toFixed(2);
  return [result, `serving thread ${perRequest(after.serving - before.serving)} / whole process ${perRequest(after.all - before.all)} ms`];
}

/** 16 connections, each sending its own random order of `urls` back to back, for `seconds`. */
async function closedLoop(urls: string[], seconds: number, headers: http.OutgoingHttpHeaders): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const times: number[] = [];
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 16 }, async (_, connection) => {
      const order = shuffled(urls, connection + 1);
      for (let i = 0; performance.now() < end; i++) {
        const reply = await get(order[i % order.length], agent, headers);
        if (reply.status === 200) times.push(reply.ms);
        else failed++;
      }
    }),
  );
  agent.destroy();
  return summary(times, failed, seconds);
}

/** `rate` requests a second, each leaving when due whatever came back before (latency from when it was due). */
async function openLoop(urls: string[], rate: number, seconds: number, headers: http.OutgoingHttpHeaders): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const order = shuffled(urls, 99);
  const times: number[] = [];
  let failed = 0;
  const started = performance.now();
  const total = Math.round(rate * seconds);
  const replies: Promise<void>[] = [];
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    replies.push(
      get(order[k % order.length], agent, headers, due).then((reply) => {
        if (reply.status === 200) times.push(reply.ms);
        else failed++;
      }),
    );
  }
  await Promise.all(replies);
  agent.destroy();
  return summary(times, failed, seconds);
}

type ShapeResults = Record<string, string>;

// Query parameters that narrow the result: a query with any of them is counted afresh for each
// filter set (what queries keep is kept per filter set), so each request gets an `exclude` of its
// own and nothing kept for an earlier one answers it. A query without any (the unfiltered
// listing in some order, a page of it) is counted with the index, as every visitor's is.
const NARROWING = ['categories', 'brands', 'filters', 'price_min', 'price_max', 'discount', 'locations', 'search_query'];

/** The query as a new visitor's: with an `exclude` of its own when it narrows the result. */
function coldQuery(query: string, serial: number): string {
  const narrows = NARROWING.some((name) => new URLSearchParams(query).has(name));
  return narrows ? `${query}&exclude=bench-${serial}` : query;
}

async function benchShape(shape: CatalogShape): Promise<ShapeResults> {
  const dataDir = KEPT_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-listing-'));
  const runtime = await boot({ maintenance: false, settings: { ...readSettings(), dataDir, databaseUrl: undefined, limits: { ...readSettings().limits, enabled: false } } });
  const results: ShapeResults = { shape: shape.name, products: String(N) };
  const print = (key: string, line: string) => {
    results[key] = line;
    log(`${shape.name}: ${key}: ${line}`);
  };
  const named = namedQueryShapes(shape);
  const rules = collectionRules(shape);
  try {
    const sql = runtime.ctx.sql;
    const shopId = await loadCatalog(runtime, shape, N);

    // Index build time and heap. One collection leaves much of a build's garbage in array buffers
    // not yet freed: several.
    const settled = async () => {
      for (let i = 0; i < 4; i++) {
        global.gc?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return process.memoryUsage();
    };
    dropIndexes();
    const heapBefore = await settled();
    const index = await indexFor(sql, shopId);
    const heapAfter = await settled();
    const heap = heapAfter.heapUsed - heapBefore.heapUsed + heldBufferBytes(index);
    print('index build', `${(index.buildMs / 1000).toFixed(2)} s (${index.buildSteps})`);
    print('index memory (JS heap and its array buffers; typed arrays)', `${mib(heap)}; ${mib(indexBytes(index))}${global.gc ? '' : ' (run with --expose-gc for an exact heap figure)'}`);
    print('dictionary values / postings', `${index.valueLabel.length} / ${index.postOffsets[index.n]}`);
    const words = await searchIndexFor(index);
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    if (PARTS.has('engine')) {
      const engine: { name: string; total: number; cold: number[]; warm: number[] }[] = [];
      for (const [name, query] of named) {
        const q = parseListingQuery(paramsFromSearch(new URLSearchParams(`shop_id=${shopId}&did=bench&sid=bench&${query}`)));
        const run = () => runListing(index, q, q.searchQuery ? searchDocuments(index, words, q.searchQuery, q.searchScope) : null);
        const total = run().total;
        await timed(WARM_UP_RUNS, run, () => forgetKept(index));
        const cold = await timed(RUNS, run, () => forgetKept(index));
        const warm = await timed(RUNS, run);
        engine.push({ name, total, cold, warm });
      }
      for (const { name, total, cold, warm } of engine) {
        const query = named.find(([n]) => n === name)![1];
        const q = parseListingQuery(paramsFromSearch(new URLSearchParams(`shop_id=${shopId}&did=bench&sid=bench&${query}`)));
        const base = SQL_RUNS > 0 ? await timed(SQL_RUNS, () => sqlListing(sql, q)) : [];
        print(`engine ${name} (${total} results): cold / warm / SQL p50 / p95 / p99 ms`, `${figures(cold)}   ${figures(warm)}   ${base.length ? figures(base) : '(not run)'}`);
      }
      const worst = engine.sort((a, b) => percentile(b.cold, 95) - percentile(a.cold, 95))[0];
      print('engine worst cold p95', `${worst.name} ${ms(percentile(worst.cold, 95))} ms`);
    }

    if (PARTS.has('collection')) {
      const picked = selectCollection(index, rules, null).length;
      const engineTimes = await timed(RUNS, () => selectCollection(index, rules, null));
      const city = shape.facets.cities[0];
      const located = city ? await timed(RUNS, () => selectCollection(index, rules, city)) : [];
      const sqlTimes = SQL_RUNS > 0 ? await timed(SQL_RUNS, () => sqlCollection(sql, shopId, rules)) : [];
      print(`engine collection (${picked} products) p50 / p95 / p99 ms; with a location; SQL`, `${figures(engineTimes)}; ${located.length ? figures(located) : '–'}; ${sqlTimes.length ? figures(sqlTimes) : '(not run)'}`);
    }

    if (PARTS.has('freshness')) {
      const someone = shape.storedId(1);
      const availabilityMs = await freshness(
        runtime,
        shopId,
        (tx) => applyAvailability(tx, shopId, 'delete', [someone]),
        (i) => docOf(i, someone) !== undefined && (i.available[docOf(i, someone)! >>> 5] & (1 << (docOf(i, someone)! & 31))) === 0,
      );
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const freshId = `fresh-${Date.now()}`; // a kept catalog gets a new one each run
      const fresh = { ...(JSON.parse(shape.stringify(shape.item(N + 1))) as Record<string, unknown>), id: freshId, available: true };
      const rebuildMs = await freshness(runtime, shopId, (tx) => applyProducts(tx, shopId, 'put', [fresh]), (i) => docOf(i, freshId) !== undefined);
      stalls.disable();
      print('freshness: availability change / new product ms (committed → in the index)', `${ms(availabilityMs)} / ${ms(rebuildMs)}`);
      print('event loop during that rebuild: longest stall / p99 ms', `${ms(stalls.max / 1e6)} / ${ms(stalls.percentile(99) / 1e6)}`);
    }

    if (PARTS.has('http')) {
      const collection = await createCollection(runtime.ctx, shopId, { name: 'Bench', rules });
      const port = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
      const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      const server = await startServer({ DATABASE_URL: `postgres://vitrine:${encodeURIComponent(password)}@127.0.0.1:${port}/vitrine`, LIMITS: 'off', WORKERS: 'off' });
      try {
        const listing = (query: string) => `${server.url}/products?shop_id=${shopId}&did=bench&sid=bench&extended=true&${query}`;
        const gzip = { 'accept-encoding': 'gzip' };
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const first = await get(listing(''), agent);
        if (first.status !== 200) throw new Error(`listing over HTTP: ${first.status}`);
        // The server has met every path once (V8 tiers, first build of the word index).
        for (const [, query] of named) await get(listing(query), agent);
        let serial = 0;
        const worst: [string, number] = ['', 0];
        for (const [name, query] of named) {
          for (const [how, headers] of [
            ['gzip', gzip],
            ['plain', {}],
          ] as const) {
            const times: number[] = [];
            for (let k = 0; k < HTTP_RUNS; k++) times.push((await get(listing(coldQuery(query, serial++)), agent, headers)).ms);
            times.sort((a, b) => a - b);
            print(`HTTP ${name} (${how}) p50 / p95 / p99 ms`, figures(times));
            if (percentile(times, 95) > worst[1]) worst.splice(0, 2, `${name} (${how})`, percentile(times, 95));
          }
        }
        print('HTTP worst shape p95', `${worst[0]} ${ms(worst[1])} ms`);
        const collectionUrl = (k: number, location = '') => `${server.url}/collection/${collection.id}?shop_id=${shopId}&did=bench-${k}${location}`;
        const collectionTimes: number[] = [];
        for (let k = 0; k < HTTP_RUNS; k++) collectionTimes.push((await get(collectionUrl(k), agent, gzip)).ms);
        print('HTTP collection p50 / p95 / p99 ms', figures(collectionTimes.sort((a, b) => a - b)));
        const city = shape.facets.cities[0];
        if (city) {
          const located: number[] = [];
          for (let k = 0; k < HTTP_RUNS; k++) located.push((await get(collectionUrl(k, `&location=${encodeURIComponent(city)}`), agent, gzip)).ms);
          print('HTTP collection with a location p50 / p95 / p99 ms', figures(located.sort((a, b) => a - b)));
        }
        agent.destroy();

        const shapeUrls = named.flatMap(([, query]) => Array.from({ length: 40 }, (_, k) => listing(coldQuery(query, 100_000 + k))));
        print('HTTP 16 connections, every named shape in turn (gzip)', loadLine(await closedLoop(shapeUrls, HTTP_SECONDS, gzip)));
        const distinctUrls = storefrontQueries(shape, DISTINCT, 3).map(listing);
        const [most, cpu] = await cpuPerRequest(server.process.pid!, () => closedLoop(distinctUrls, HTTP_SECONDS, gzip));
        print(`HTTP 16 connections, ${distinctUrls.length} distinct storefront queries (gzip)`, loadLine(most));
        print('HTTP server CPU a request, distinct queries', cpu);
        const freshUrls = storefrontQueries(shape, DISTINCT, 4).map(listing);
        for (const share of [0.5, 0.8]) {
          const rate = Math.max(1, Math.round(most.rate * share));
          print(`HTTP open loop at ${share * 100} % (${rate}/s), distinct queries (gzip)`, loadLine(await openLoop(freshUrls, rate, HTTP_SECONDS, gzip)));
        }
        const status = fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
        print('server peak RSS', mib(Number(/VmHWM:\s+(\d+)/.exec(status)![1]) * 1024));
        const stalls = [...server.output().matchAll(/event loop stalled (\d+) ms/g)].map((m) => Number(m[1]));
        print('server event-loop stalls over 50 ms (count, longest ms)', `${stalls.length}, ${stalls.length ? Math.max(...stalls) : 0}`);
      } finally {
        await server.stop();
        // BENCH_SERVER_OUTPUT=FILE keeps the server's whole output.
        if (process.env.BENCH_SERVER_OUTPUT) fs.writeFileSync(`${process.env.BENCH_SERVER_OUTPUT}.${shape.name}`, server.output());
      }
    }
  } finally {
    forgetIndexStore();
    await runtime.shutdown();
    if (!KEPT_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

async function main() {
  ensureBuild(root, log);
  const all: ShapeResults[] = [];
  for (const name of SHAPES) {
    const results = await benchShape(catalogShape(name));
    all.push(results);
    console.log(`\nbench:listing results (${name}, ${N} products)`);
    for (const [key, value] of Object.entries(results)) console.log(`  ${key.padEnd(84)} ${value}`);
  }
  if (all.length > 1) {
    const keys = ['HTTP worst shape p95', 'HTTP collection p50 / p95 / p99 ms', `HTTP 16 connections, every named shape in turn (gzip)`, 'server peak RSS', 'index build', 'engine worst cold p95'];
    console.log('\nbench:listing, every shape');
    for (const key of keys) for (const results of all) console.log(`  ${key.padEnd(60)} ${results.shape.padEnd(10)} ${results[key] ?? '–'}`);
    for (const results of all) {
      const distinct = Object.keys(results).filter((key) => key.includes('distinct') || key.includes('open loop'));
      for (const key of distinct) console.log(`  ${key.padEnd(60)} ${results.shape.padEnd(10)} ${results[key]}`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
