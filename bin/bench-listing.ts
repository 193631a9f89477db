// npm run bench:listing -- --products N (default 1,000,000)
// Loads the import benchmark's synthetic catalog, builds the shop's listing index and times the
// engine on query shapes a storefront sends, each beside a straightforward SQL implementation of
// the same query in the same run; then the index build and heap, freshness after an import, and
// HTTP throughput of the real server with autocannon (16 connections) on a 100,000-product shop:
// six shapes in turn (plain, then gzipped), then 576 pages spread over 48 categories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { TransactionSql } from 'postgres';
import { LISTING_SHAPES, shapeQuery } from '@/lib/bench/listing-shapes';
import { sqlCollection, sqlListing } from '@/lib/bench/listing-sql';
import type { CollectionRules } from '@/lib/collections/schemas';
import { selectCollection } from '@/lib/collections/select-products';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import { applyTree } from '@/lib/catalog/apply-tree';
import { backfillFacets } from '@/lib/catalog/backfill-facets';
import { docOf, heldBufferBytes, indexBytes, type ShopIndex } from '@/lib/listing/build-index';
import { forgetKept, runListing } from '@/lib/listing/engine';
import { indexFor, searchIndexFor } from '@/lib/listing/index-store';
import { searchDocuments } from '@/lib/listing/search';
import { boot, type Runtime } from '@/lib/runtime/boot';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { createShop } from '@/lib/shops/manage-shops';
import { startServer } from '@/lib/testing/server';

const root = path.resolve(import.meta.dirname, '..');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const N = arg('products', 1_000_000);
const HTTP_N = Math.min(N, arg('http-products', 100_000));
const RUNS = arg('runs', 60);
const SQL_RUNS = arg('sql-runs', N > 200_000 ? 5 : 15);
const WARM_UP_RUNS = 5; // untimed cold runs of each shape before its timed ones
const HTTP_SECONDS = arg('http-seconds', 10);
// --data-dir DIR keeps the database there and reuses a catalog already loaded into it (for
// repeated runs at 1,000,000 products); without it a temporary directory is used and removed.
const dataDirIndex = process.argv.indexOf('--data-dir');
const KEPT_DATA_DIR = dataDirIndex > 0 ? path.resolve(process.argv[dataDirIndex + 1]) : null;
// --only listing,collection,freshness,http (default: all parts)
const onlyIndex = process.argv.indexOf('--only');
const PARTS = new Set(onlyIndex > 0 ? process.argv[onlyIndex + 1].split(',') : ['listing', 'collection', 'freshness', 'http']);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;

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

async function loadCatalog(runtime: Runtime, name: string, count: number) {
  const sql = runtime.ctx.sql;
  const categories = syntheticCategories();
  const locations = syntheticLocations();
  const leaves = leafCategories(categories);
  const shopName = `${name} ${count}`;
  const [kept] = await sql<{ shop_id: string }[]>`
    select s.id as shop_id from shops s where s.name = ${shopName} and (select count(*) from products p where p.shop_id = s.id) >= ${count}`;
  if (kept) {
    log(`${shopName}: reusing the catalog kept in ${KEPT_DATA_DIR}`);
    await backfillFacets(sql, kept.shop_id, log); // a catalog kept from before the facets column
    return { shop: kept, leaves, locations };
  }
  const shop = await createShop(runtime.ctx, { name: shopName, currency: 'USD' });
  await sql.begin((tx) => applyTree(tx, shop.shop_id, 'categories', 'replace', categories));
  await sql.begin((tx) => applyTree(tx, shop.shop_id, 'locations', 'replace', locations));
  const started = Date.now();
  for (let start = 0; start < count; start += 5000) {
    const items: unknown[] = [];
    for (let n = start; n < Math.min(count, start + 5000); n++) items.push(syntheticItem(n, leaves, locations));
    await sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', items));
    if ((start / 5000) % 20 === 19) log(`${name}: ${start + 5000} of ${count} products loaded`);
  }
  log(`${name}: ${count} products loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await sql`vacuum analyze products`;
  await sql`vacuum analyze product_state`;
  return { shop, leaves, locations };
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

async function main() {
  ensureBuild(root, log);
  const dataDir = KEPT_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-listing-'));
  const runtime = await boot({ maintenance: false, settings: { ...readSettings(), dataDir, databaseUrl: undefined, limits: { ...readSettings().limits, enabled: false } } });
  const results: string[] = [];
  const print = (line: string) => {
    results.push(line);
    log(line);
  };
  try {
    const sql = runtime.ctx.sql;
    const big = await loadCatalog(runtime, 'Bench', N);
    const shopId = big.shop.shop_id;

    // Index build time and heap. One collection leaves much of a build's garbage in array buffers
    // not yet freed (a 1,000,000-product index read 641 MiB after one, 361 MiB settled): several.
    const settled = async () => {
      for (let i = 0; i < 4; i++) {
        global.gc?.();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return process.memoryUsage();
    };
    const heapBefore = await settled();
    const faultsBefore = process.resourceUsage().minorPageFault;
    const index = await indexFor(sql, shopId);
    const faults = process.resourceUsage().minorPageFault - faultsBefore;
    const heapAfter = await settled();
    // The JS heap the build left, plus every array buffer the index holds (the layout worker makes
    // some: this thread's array-buffer count leaves those out, and is printed beside it).
    const heap = heapAfter.heapUsed - heapBefore.heapUsed + heldBufferBytes(index);
    const thisThread = heapAfter.heapUsed + heapAfter.arrayBuffers - (heapBefore.heapUsed + heapBefore.arrayBuffers);
    print(
      `index: ${index.n} products, build ${(index.buildMs / 1000).toFixed(2)} s (${index.buildSteps}), heap ${mib(heap)} (JS heap and the index's array buffers; ` +
        `this thread's heap and array buffers ${mib(thisThread)}; typed arrays and estimate: ${mib(indexBytes(index))})${global.gc ? '' : ' (run with --expose-gc for an exact heap figure)'}; ` +
        `${faults} page faults; GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? '(unset: npm run sets it)'}`,
    );
    const words = await searchIndexFor(index);
    // Timing starts once the process is quiet: right after a build, the build's and the word
    // index's garbage is collected, and the worker threads' heaps are shrunk by V8 once they idle
    // (pauses of 5–16 ms on those threads, measured with --trace-gc, ~0.3–1 s after the build),
    // which on two cores slowed the first ~30 queries. The freshness figures cover that period.
    await settled();
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    // cold: what queries keep with the index dropped before each run (facet counts, result size,
    // location offers: the first query of its filter set after an index swap); warm: the same
    // query again. Both use what the index is built and warmed with (orders, default counts).
    print(`\n${'shape'.padEnd(20)} ${'results'.padStart(8)}  cold p50 / p95 / p99 ms        warm p50 / p95 / p99 ms        SQL p50 / p95 / p99 ms          SQL÷cold (p50)`);
    const engineP95: Record<string, number> = {};
    const shapes = PARTS.has('listing') ? LISTING_SHAPES : [];
    const engine: { name: string; total: number; cold: number[]; warm: number[] }[] = [];
    for (const [name, shape] of shapes) {
      const q = shapeQuery(shopId, shape);
      const run = () => runListing(index, q, q.searchQuery ? searchDocuments(index, words, q.searchQuery, q.searchScope) : null);
      const total = run().total; // also warms sorted orders
      // A serving process has run each path many times: untimed cold runs first (the first two or
      // three of a shape ran in V8's unoptimized tiers, 20–33 ms against 13–16, seen per run).
      await timed(WARM_UP_RUNS, run, () => forgetKept(index));
      const cold = await timed(RUNS, run, () => forgetKept(index));
      const warm = await timed(RUNS, run);
      engine.push({ name, total, cold, warm });
      engineP95[name] = percentile(cold, 95);
    }
    // The SQL baseline of every shape once the engine's are timed. Interleaved, each shape's engine
    // runs followed a baseline query of up to a minute on the same two cores, and three shapes'
    // cold p95 were 20–25 ms where listing-only runs gave 13–17 (docs/benchmarks.md, session 23).
    // --sql-runs 0 leaves it out.
    for (const [i, [, shape]] of shapes.entries()) {
      const base = await timed(SQL_RUNS, () => sqlListing(sql, shapeQuery(shopId, shape)));
      const { name, total, cold, warm } = engine[i];
      const figures = (times: number[]) => [50, 95, 99].map((p) => ms(percentile(times, p))).join(' / ').padEnd(28);
      const baseline = base.length ? `${figures(base).padEnd(30)} ${(percentile(base, 50) / percentile(cold, 50)).toFixed(0)}×` : '(not run)';
      print(`${name.padEnd(20)} ${String(total).padStart(8)}  ${figures(cold)}   ${figures(warm)}   ${baseline}`);
    }
    const worst = Object.entries(engineP95).sort((a, b) => b[1] - a[1])[0];
    if (worst) print(`worst engine p95 (cold): ${worst[0]} ${ms(worst[1])} ms`);

    // A collection: three rule groups, as CONTRACT §6 describes them.
    const rules: CollectionRules = {
      groups: [
        { categories: ['3'], discount: true, limit: 20 },
        { brands: ['Brand 2', 'Brand 3'], price_max: 5000, limit: 20 },
        { params: { param_10: ['param_10_v1'] }, limit: 20 },
      ],
    };
    if (PARTS.has('collection')) {
      const picked = selectCollection(index, rules, null).length;
      const engineTimes = await timed(RUNS, () => selectCollection(index, rules, null));
      const located = await timed(RUNS, () => selectCollection(index, rules, 's1c2'));
      const sqlTimes = await timed(SQL_RUNS, () => sqlCollection(sql, shopId, rules));
      const baseline = sqlTimes.length
        ? `${[50, 95, 99].map((p) => ms(percentile(sqlTimes, p))).join(' / ').padEnd(30)} ${(percentile(sqlTimes, 50) / percentile(engineTimes, 50)).toFixed(0)}×`
        : '(not run)';
      print(`${'collection'.padEnd(20)} ${String(picked).padStart(8)}  ${[50, 95, 99].map((p) => ms(percentile(engineTimes, p))).join(' / ').padEnd(28)} ${baseline}`);
      print(`${'collection+location'.padEnd(20)} ${''.padStart(8)}  ${[50, 95, 99].map((p) => ms(percentile(located, p))).join(' / ')}`);
    }

    // Freshness: a PATCH of one product (availability only: patched) and a PUT of a new one (rebuilt).
    if (PARTS.has('freshness')) {
      const leaves = big.leaves;
      const newItem = (id: string) => ({ ...syntheticItem(N + 1, leaves, big.locations), id, available: true });
      
      const availabilityMs = await freshness(
        runtime,
        shopId,
        (tx) => applyAvailability(tx, shopId, 'delete', ['p1']),
        (i) => docOf(i, 'p1') !== undefined && (i.available[docOf(i, 'p1')! >>> 5] & (1 << (docOf(i, 'p1')! & 31))) === 0,
      );
      // How long queries of this process could wait on the event loop while the index is rebuilt.
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      stalls.enable();
      const freshId = `fresh-${Date.now()}`; // a kept catalog gets a new one each run
      const rebuildMs = await freshness(runtime, shopId, (tx) => applyProducts(tx, shopId, 'put', [newItem(freshId)]), (i) => docOf(i, freshId) !== undefined);
      stalls.disable();
      print(`freshness at ${N}: availability change ${ms(availabilityMs)} ms, new product ${ms(rebuildMs)} ms (import committed → index shows it)`);
      print(`event loop during that rebuild: longest stall ${ms(stalls.max / 1e6)} ms, p99 ${ms(stalls.percentile(99) / 1e6)} ms`);
      if (N > 10_000) {
        const small = await loadCatalog(runtime, 'Small', 10_000);
        const smallMs = await freshness(runtime, small.shop.shop_id, (tx) => applyProducts(tx, small.shop.shop_id, 'put', [newItem(`${freshId}-small`)]), (i) => docOf(i, `${freshId}-small`) !== undefined);
        print(`freshness at 10000: new product ${ms(smallMs)} ms`);
      }
    }

    // HTTP throughput of the real server on a shop of HTTP_N products.
    if (PARTS.has('http')) {
      const httpShop = HTTP_N === N ? big.shop : (await loadCatalog(runtime, 'Http', HTTP_N)).shop;
      const port = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
      const password = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      const server = await startServer({ DATABASE_URL: `postgres://vitrine:${encodeURIComponent(password)}@127.0.0.1:${port}/vitrine`, LIMITS: 'off', WORKERS: 'off' });
      try {
        const listingPath = (shape: string) => `/products?shop_id=${httpShop.shop_id}&did=bench&sid=bench&extended=true&${encodeURI(shape)}`;
        const warm = await fetch(`${server.url}${listingPath('')}`);
        if (warm.status !== 200) throw new Error(`listing over HTTP: ${warm.status} ${await warm.text()}`);
        const paths = ['', 'categories=3', 'categories=3.2.1', 'brands=Brand 1', 'sort_by=price&sort_dir=asc', 'locations=s1c2'].map(listingPath);
        for (const p of paths) await fetch(`${server.url}${p}`);
        const outcome = await autocannon({ url: server.url, connections: 16, duration: HTTP_SECONDS, requests: paths.map((p) => ({ method: 'GET', path: p })) });
        print(
          `HTTP on ${HTTP_N} products (16 connections, ${HTTP_SECONDS} s, six shapes in turn, extended): ${Math.round(outcome.requests.average)} requests/s, latency p50 ${outcome.latency.p50} ms / p99 ${outcome.latency.p99} ms, ${outcome.non2xx} non-2xx, ${outcome.errors} errors`,
        );
        // As browsers and most HTTP clients ask: gzipped.
        const zipped = await autocannon({ url: server.url, connections: 16, duration: HTTP_SECONDS, headers: { 'accept-encoding': 'gzip, deflate, br' }, requests: paths.map((p) => ({ method: 'GET', path: p })) });
        print(
          `HTTP on ${HTTP_N} products (16 connections, ${HTTP_SECONDS} s, six shapes in turn, extended, Accept-Encoding: gzip): ${Math.round(zipped.requests.average)} requests/s, latency p50 ${zipped.latency.p50} ms / p99 ${zipped.latency.p99} ms, ${zipped.non2xx} non-2xx, ${zipped.errors} errors`,
        );
        // Spread over many pages, as a storefront's visitors are: counts and products kept for
        // one page help its neighbours only, and 11,520 products do not fit what an index keeps.
        const spread = [];
        for (let a = 0; a < 8; a++) for (let b = 0; b < 6; b++) for (let page = 1; page <= 12; page++) spread.push(listingPath(`categories=${a}.${b}&page=${page}`));
        const varied = await autocannon({ url: server.url, connections: 16, duration: HTTP_SECONDS, requests: spread.map((p) => ({ method: 'GET', path: p })) });
        print(
          `HTTP on ${HTTP_N} products (16 connections, ${HTTP_SECONDS} s, ${spread.length} pages: 48 categories × pages 1–12, extended): ${Math.round(varied.requests.average)} requests/s, latency p50 ${varied.latency.p50} ms / p99 ${varied.latency.p99} ms, ${varied.non2xx} non-2xx, ${varied.errors} errors`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await runtime.shutdown();
    if (!KEPT_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nbench:listing results (${N} products)`);
  for (const line of results) console.log(line);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
