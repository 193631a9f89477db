import http from 'node:http';
import { mulberry32 } from '@/lib/bench/random';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations, type SyntheticItem } from '@/lib/bench/synthetic-catalog';
import { createCollection } from '@/lib/collections/manage-collections';
import type { AppContext } from '@/lib/runtime/context';
import { importStatus } from '../api';
import { createTestShop, type TestShop } from '../factories';
import { rssMiB } from '../fuzz/run-fuzz';

// A long mixed load (issue 40): shops of different sizes importing (PUT, PATCH, DELETE, trees,
// callbacks) while storefronts read their listings and collections at a fixed rate. Every
// accepted import must be applied once and in order; nothing but deliberate 429s may fail.

/**
 * The server's settings for a soak: the storefronts' reads all come from this one address, where a
 * real storefront's come from its many visitors, so the per-address read guard is lifted.
 */
export const SOAK_SERVER_ENV = { READ_RATE_LIMIT_PER_MINUTE: '100000000' };

export type SoakOptions = {
  url: string;
  serverPid: number;
  ctx: AppContext;
  shops: number;
  minProducts: number;
  maxProducts: number;
  seconds: number;
  /** Storefront reads a second, sent at that rate whatever the answers' speed. */
  readRate: number;
  /** How long accepted imports may take to be applied after the load (default 15 minutes). */
  settleSeconds?: number;
  /** Seconds each window of the report covers. */
  windowSeconds?: number;
  log?: (line: string) => void;
};

/**
 * A window of the load: reads answered and their latency, writes sent, and the server's memory and
 * thread as its GET /metrics gave them at the window's end (heap: the JS heap used; external:
 * buffers and typed arrays, the listing indexes' among them; gc: the share of the window the
 * collector took; lag: the event loop's p99 delay over the process's life so far).
 */
export type SoakWindow = {
  at: number;
  reads: number;
  p50: number;
  p95: number;
  p99: number;
  writes: number;
  rssMiB: number;
  heapMiB: number;
  externalMiB: number;
  indexMiB: number;
  gcPercent: number;
  lagP99Ms: number;
};

/** The sum of a metric's samples (all label sets) in Prometheus text, or NaN when absent. */
function metricSum(text: string, name: string): number {
  let sum = NaN;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    sum = Number.isNaN(sum) ? value : sum + value;
  }
  return sum;
}

export type SoakReport = {
  seconds: number;
  shops: { shopId: string; products: number }[];
  requests: Record<string, Record<string, number>>;
  /** Answers that were not 2xx, nor one of the deliberate 429s: up to 10 of each kind and status. */
  errors: string[];
  /** How many such answers there were. */
  errorCount: number;
  deliberate429: number;
  readsSkipped: number;
  windows: SoakWindow[];
  imports: { accepted: number; done: number; failed: number; notApplied: string[]; lastAppliedAfterSeconds: number };
  sentinels: string[];
  listing: { p50: number; p95: number; p99: number };
};

type Kind = 'listing' | 'collection' | 'put' | 'patch' | 'delete' | 'categories' | 'callback' | 'burst';

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : 0);

type Answer = { status: number; body: string; headers: http.IncomingHttpHeaders; ms: number };

function request(agent: http.Agent, url: string, method: string, body?: unknown): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(url, { method, agent, headers: payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}, timeout: 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, ms: performance.now() - started }));
      res.on('error', (error) => resolve({ status: 0, body: error.message, headers: {}, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 120 s')));
    req.on('error', (error) => resolve({ status: 0, body: error.message, headers: {}, ms: performance.now() - started }));
    req.end(payload);
  });
}

type SoakShop = TestShop & { products: number; collectionId: number; sentinel: number };

/** Runs the soak on a started server; the shops are made here. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const { url, ctx, seconds, readRate } = options;
  const log = options.log ?? (() => {});
  const windowMs = (options.windowSeconds ?? 10) * 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 96 });
  const categories = syntheticCategories();
  const leaves = leafCategories(categories);
  const locations = syntheticLocations();
  const topCategories = categories.filter((c) => c.parent === null || c.parent.split('.').length === 1).map((c) => c.id);
  const requests: Record<string, Record<string, number>> = {};
  const errors: string[] = [];
  const examples = new Map<string, number>();
  let errorCount = 0;
  let deliberate429 = 0;
  const count = (kind: Kind, status: number) => {
    const byStatus = (requests[kind] ??= {});
    byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
  };
  const note = (kind: Kind, answer: Answer, deliberate = false) => {
    count(kind, answer.status);
    if (answer.status === 429 && deliberate) deliberate429++;
    else if (answer.status < 200 || answer.status >= 300) {
      errorCount++;
      // Up to 10 of each kind and status, so a rare failure is not hidden behind many of another.
      const kindAndStatus = `${kind}: ${answer.status}`;
      if ((examples.get(kindAndStatus) ?? 0) < 10) {
        examples.set(kindAndStatus, (examples.get(kindAndStatus) ?? 0) + 1);
        errors.push(`${kindAndStatus} ${answer.body.slice(0, 200)} (after ${Math.round(answer.ms)} ms)`);
      }
    }
  };
  const accepted: { shop: SoakShop; importId: number; at: number }[] = [];
  const send = async (kind: Kind, shop: SoakShop, resource: string, method: string, fields: Record<string, unknown>) => {
    const answer = await request(agent, `${url}/${resource}`, method, { shop_id: shop.shop_id, shop_secret: shop.shop_secret, ...fields });
    note(kind, answer);
    if (answer.status === 204) accepted.push({ shop, importId: Number(answer.headers['x-import-id']), at: Date.now() });
    return answer;
  };

  // The shops, from the smallest to the largest, each with its catalog, a sentinel product whose
  // price every PUT raises, and a collection.
  const shops: SoakShop[] = [];
  for (let i = 0; i < options.shops; i++) {
    const made = await createTestShop(ctx, { name: `Soak ${i}` });
    const products = Math.round(options.minProducts + ((options.maxProducts - options.minProducts) * i) / Math.max(1, options.shops - 1));
    const { id: collectionId } = await createCollection(ctx, made.shop_id, { name: 'Top', rules: { groups: [{ categories: [topCategories[i % topCategories.length]], limit: 48 }] } });
    shops.push({ ...made, products, collectionId, sentinel: 1_000_000 });
  }
  log(`soak: loading ${shops.reduce((sum, s) => sum + s.products, 0)} products into ${shops.length} shops`);
  await Promise.all(
    shops.map(async (shop) => {
      await send('categories', shop, 'import/categories', 'POST', { categories });
      await send('categories', shop, 'import/locations', 'POST', { locations });
      for (let from = 0; from < shop.products; from += 5000) {
        const items = Array.from({ length: Math.min(5000, shop.products - from) }, (_, k) => syntheticItem(from + k, leaves, locations));
        if (from === 0) items.push({ ...syntheticItem(0, leaves, locations), id: 'sentinel', group_id: 'sentinel', price: shop.sentinel, available: true, locations: [] });
        await send('put', shop, 'import/products', 'PUT', { items });
      }
    }),
  );
  await settle(accepted);
  for (const shop of shops) await request(agent, `${url}/products?shop_id=${shop.shop_id}&did=d&sid=s`, 'GET');
  const loaded = accepted.length;
  log(`soak: loaded; ${seconds} s of mixed load at ${readRate} reads/s`);

  // The mixed load.
  const noisy = { ...(await createTestShop(ctx, { name: 'Soak noisy' })), products: 0, collectionId: 0, sentinel: 0 };
  const started = Date.now();
  const until = started + seconds * 1000;
  const random = mulberry32(40);
  const latencies: { at: number; ms: number }[] = [];
  const writesAt: number[] = [];
  let readsSkipped = 0;
  let inFlight = 0;
  const readOnce = async () => {
    const shop = shops[Math.floor(random() * shops.length)];
    if (random() < 0.15) return note('collection', await request(agent, `${url}/collection/${shop.collectionId}?shop_id=${shop.shop_id}`, 'GET'));
    const query = new URLSearchParams({ shop_id: shop.shop_id, did: 'd', sid: 's' });
    if (random() < 0.7) query.set('categories', topCategories[Math.floor(random() * topCategories.length)]);
    if (random() < 0.5) query.set('sort_by', ['price', 'discount', 'date', 'rating'][Math.floor(random() * 4)]);
    if (random() < 0.3) query.set('page', String(1 + Math.floor(random() * 3)));
    if (random() < 0.2) query.set('locations', locations[Math.floor(random() * locations.length)].id);
    if (random() < 0.2) query.set('filters', JSON.stringify({ param_10: ['param_10_v1', 'param_10_v2'] }));
    if (random() < 0.1) query.set('extended', 'true');
    const answer = await request(agent, `${url}/products?${query}`, 'GET');
    note('listing', answer);
    latencies.push({ at: Date.now(), ms: answer.ms });
  };
  const reader = (async () => {
    const interval = 1000 / readRate;
    for (let n = 0; ; n++) {
      const due = started + n * interval;
      if (due >= until) break;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // Open loop: a slow answer does not slow the storefronts down, up to 256 in flight.
      if (inFlight >= 256) {
        readsSkipped++;
        continue;
      }
      inFlight++;
      void readOnce().finally(() => inFlight--);
    }
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  })();
  const writer = async (shop: SoakShop, seed: number) => {
    const rnd = mulberry32(seed);
    const ids = () => Array.from({ length: 20 }, () => `p${Math.floor(rnd() * shop.products)}`);
    while (Date.now() < until) {
      // About 20 writes a minute a shop (30 at most), under the 40 the rate limit allows.
      await new Promise((resolve) => setTimeout(resolve, 2000 + rnd() * 2000));
      if (Date.now() >= until) break;
      const roll = rnd();
      writesAt.push(Date.now());
      if (roll < 0.4) {
        shop.sentinel++;
        const changed: SyntheticItem[] = Array.from({ length: 200 }, () => {
          const item = syntheticItem(Math.floor(rnd() * shop.products), leaves, locations);
          return { ...item, price: Math.round(item.price * (0.8 + rnd() * 0.4) * 100) / 100 };
        });
        changed.push({ ...syntheticItem(0, leaves, locations), id: 'sentinel', group_id: 'sentinel', price: shop.sentinel, available: true, locations: [] });
        await send('put', shop, 'import/products', 'PUT', { items: changed });
      } else if (roll < 0.55) {
        // Stock sync: every product but a few in stock, the sentinel always.
        const out = new Set(ids());
        const items = ['sentinel', ...Array.from({ length: shop.products }, (_, k) => `p${k}`).filter((id) => !out.has(id))];
        await send('patch', shop, 'import/products', 'PATCH', { items });
      } else if (roll < 0.65) {
        await send('delete', shop, 'import/products', 'DELETE', { items: ids() });
      } else if (roll < 0.8) {
        const node = categories[Math.floor(rnd() * categories.length)];
        await send('categories', shop, 'import/categories', 'PUT', { categories: [{ ...node, name: `${node.name} ${Math.floor(rnd() * 100)}` }] });
      } else {
        note('callback', await request(agent, `${url}/subscriptions/callback`, 'POST', { shop_id: shop.shop_id, shop_secret: shop.shop_secret, email: `buyer${Math.floor(rnd() * 1000)}@example.test`, event: 'unsubscribed' }));
      }
    }
  };
  // Once a minute a shop of its own sends 45 callbacks at once: the rate limit's 429s, on purpose.
  const burster = (async () => {
    for (let at = started + 20_000; at < until; at += 60_000) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      const answers = await Promise.all(Array.from({ length: 45 }, (_, k) => request(agent, `${url}/subscriptions/callback`, 'POST', { shop_id: noisy.shop_id, shop_secret: noisy.shop_secret, email: `burst${k}@example.test`, event: 'complained' })));
      for (const answer of answers) note('burst', answer, true);
    }
  })();
  const windows: SoakWindow[] = [];
  const mib = (bytes: number) => Math.round(bytes / 1_048_576);
  let gcSecondsBefore = metricSum((await request(agent, `${url}/metrics`, 'GET')).body, 'nodejs_gc_duration_seconds_sum');
  const sampler = setInterval(() => {
    const now = Date.now();
    const inWindow = latencies.filter((l) => l.at > now - windowMs).map((l) => l.ms).sort((a, b) => a - b);
    const rss = rssMiB(options.serverPid);
    void request(agent, `${url}/metrics`, 'GET').then((answer) => {
      const metrics = answer.status === 200 ? answer.body : '';
      const gcSeconds = metricSum(metrics, 'nodejs_gc_duration_seconds_sum');
      const window: SoakWindow = {
        at: Math.round((now - started) / 1000),
        reads: inWindow.length,
        p50: Math.round(percentile(inWindow, 50)),
        p95: Math.round(percentile(inWindow, 95)),
        p99: Math.round(percentile(inWindow, 99)),
        writes: writesAt.filter((t) => t > now - windowMs).length,
        rssMiB: rss,
        heapMiB: mib(metricSum(metrics, 'nodejs_heap_size_used_bytes')),
        externalMiB: mib(metricSum(metrics, 'nodejs_external_memory_bytes')),
        indexMiB: mib(metricSum(metrics, 'vitrine_listing_index_bytes')),
        gcPercent: Math.round((100 * (gcSeconds - gcSecondsBefore) * 1000) / windowMs),
        lagP99Ms: Math.round(metricSum(metrics, 'nodejs_eventloop_lag_p99_seconds') * 1000),
      };
      gcSecondsBefore = gcSeconds;
      windows.push(window);
      log(`soak: ${window.at} s: ${window.reads} reads, p50 ${window.p50} ms, p95 ${window.p95} ms, p99 ${window.p99} ms, ${window.writes} writes, RSS ${window.rssMiB} MiB (heap ${window.heapMiB}, external ${window.externalMiB}, indexes ${window.indexMiB}), GC ${window.gcPercent} %`);
    });
  }, windowMs);
  await Promise.all([reader, burster, ...shops.map((shop, i) => writer(shop, 1000 + i))]);
  clearInterval(sampler);

  // Every accepted import applied, in order: the listing shows each shop's last sentinel price.
  log(`soak: load over; waiting for ${accepted.length - loaded} imports to be applied`);
  const records = await settle(accepted.slice(loaded));
  const notApplied = records.filter((r) => r.status !== 'done').map((r) => `${r.shopId} import ${r.id}: ${r.status} ${r.message ?? ''}`);
  const lastFinished = Math.max(0, ...records.map((r) => Date.parse(String(r.finished_at)) || 0));
  const sentinels: string[] = [];
  // With imports left unapplied the prices are not the last ones (and the server may not answer).
  if (notApplied.length > 0) sentinels.push('not checked: imports were left unapplied');
  else for (const shop of shops) {
    const wanted = `shop_id=${shop.shop_id}&did=d&sid=s&price_min=${shop.sentinel}&price_max=${shop.sentinel}`;
    let shown = false;
    for (const deadline = Date.now() + 60_000; !shown && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
      const answer = await request(agent, `${url}/products?${wanted}&extended=false`, 'GET');
      shown = answer.status === 200 && (JSON.parse(answer.body) as { products: string[] }).products.includes('sentinel');
    }
    if (!shown) sentinels.push(`shop ${shop.shop_id}: the listing does not show the sentinel at its last price ${shop.sentinel}`);
  }
  agent.destroy();
  const all = latencies.map((l) => l.ms).sort((a, b) => a - b);
  return {
    seconds,
    shops: shops.map((s) => ({ shopId: s.shop_id, products: s.products })),
    requests,
    errors,
    errorCount,
    deliberate429,
    readsSkipped,
    windows,
    imports: {
      accepted: accepted.length - loaded,
      done: records.filter((r) => r.status === 'done').length,
      failed: records.filter((r) => r.status === 'failed').length,
      notApplied,
      lastAppliedAfterSeconds: lastFinished ? Math.max(0, Math.round((lastFinished - until) / 1000)) : 0,
    },
    sentinels,
    listing: { p50: Math.round(percentile(all, 50)), p95: Math.round(percentile(all, 95)), p99: Math.round(percentile(all, 99)) },
  };

  /** Waits for these imports to finish and gives their records (with the shop). */
  async function settle(list: { shop: SoakShop; importId: number }[]) {
    const out: { shopId: string; id: number; status: string; message: string | null; finished_at: unknown }[] = [];
    const deadline = Date.now() + (options.settleSeconds ?? 900) * 1000;
    for (const { shop, importId } of list) {
      for (;;) {
        // A server that stopped answering must fail the soak at the deadline, not hang it.
        const left = Math.max(0, deadline - Date.now());
        const record = await Promise.race([
          importStatus(url, shop, importId),
          new Promise<{ status: string; message: string; finished_at: null }>((resolve) => setTimeout(() => resolve({ status: 'unanswered', message: `no status within ${Math.round(left / 1000)} s`, finished_at: null }), left).unref()),
        ]);
        if (record.status === 'done' || record.status === 'failed' || Date.now() > deadline) {
          out.push({ shopId: shop.shop_id, id: importId, status: record.status, message: record.message, finished_at: record.finished_at });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    return out;
  }
}

/** The report as text: requests by kind and status, the listing's latency and memory over time, the checks. */
export function formatSoakReport(report: SoakReport): string {
  const lines = [`soak of ${report.seconds} s on ${report.shops.length} shops (${report.shops.map((s) => s.products).join(', ')} products)`, ''];
  for (const [kind, statuses] of Object.entries(report.requests)) lines.push(`  ${kind}: ${Object.entries(statuses).map(([s, n]) => `${n}×${s}`).join(', ')}`);
  lines.push('', `listing latency: p50 ${report.listing.p50} ms, p95 ${report.listing.p95} ms, p99 ${report.listing.p99} ms; reads skipped (256 in flight): ${report.readsSkipped}`);
  lines.push('time (s)\treads\tp50\tp95\tp99\twrites\tRSS\theap\texternal\tindexes (MiB)\tGC %\tloop lag p99 (ms, since start)');
  for (const w of report.windows) lines.push([w.at, w.reads, w.p50, w.p95, w.p99, w.writes, w.rssMiB, w.heapMiB, w.externalMiB, w.indexMiB, w.gcPercent, w.lagP99Ms].join('\t'));
  lines.push('', `imports accepted during the load: ${report.imports.accepted}, done ${report.imports.done}, failed ${report.imports.failed}; the last applied ${report.imports.lastAppliedAfterSeconds} s after the load ended`);
  lines.push(`errors (other than ${report.deliberate429} deliberate 429s): ${report.errorCount}${report.errorCount > 0 ? ', for example:' : ''}`, ...report.errors.map((e) => `  ${e}`));
  lines.push(`not applied: ${report.imports.notApplied.length}`, ...report.imports.notApplied.slice(0, 20).map((e) => `  ${e}`));
  lines.push(`sentinel checks failed: ${report.sentinels.length}`, ...report.sentinels.map((e) => `  ${e}`));
  return lines.join('\n');
}
