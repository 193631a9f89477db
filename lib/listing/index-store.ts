import type { Sql } from 'postgres';
import { CATALOG_CHANNEL } from '@/lib/catalog/version';
import { log } from '@/lib/runtime/log';
import { add, remove, buildIndex, catalogState, docOf, indexBytes, rebuildIndex, type ShopIndex } from './indexing';
import { yieldToEventLoop } from '@/lib/runtime/turns';
import { carryIntoRebuild, memoAfterStockPatch } from './index-memo';
import { carryFacetOrders } from './facet-order';
import { prepareBaseCounts, prepareLocationOnly, prepareSortedDocuments } from './engine';
import type { SortKey } from './query';
import { buildSearchIndex, type SearchIndex } from './search';
import { processWide } from '@/lib/process-wide';
import { metrics } from '@/lib/runtime/metrics';

// One listing index per shop and process, shared by every route (lib/process-wide.ts: Next.js may load
// this module once per route bundle). A query takes the current index and never waits for a
// refresh: after an import commits (NOTIFY), the next index is built in the background (from the
// previous one and the changed rows when it can) and swapped in whole. Only a shop's first query
// waits, for its first index. Under the memory budget the least recently used shops' indexes are
// dropped.
//
// Refreshes are paced: while imports keep committing (a first load commits one every fraction of
// a second), the next refresh waits REFRESH_PACE times as long as the last one took, so keeping
// an index fresh takes at most 1 / (1 + REFRESH_PACE) of the machine from the imports and the
// queries (refreshing back to back took a core, and halved a load's rate with a storefront
// reading). A change after a quiet spell is refreshed at once. The pause is cut short so that a
// change committed just after a refresh began (it waits for that one, the pause and its own)
// still shows within FRESHNESS_MS, but never below MIN_PACE times the refresh: with refreshes of
// several seconds (a million products) back to back, the serving thread did nothing else and
// storefront reads queued for minutes. A refresh's time includes what its index's predecessor's
// queries had made and is made again for it (other orders, the word index).
export const REFRESH_PACE = 1.5;
export const MIN_PACE = 1;
export const FRESHNESS_MS = 10_000;

/** When the next refresh may start, after one that ran from `started` to `finished` (ms). */
export function nextRefreshAt(started: number, finished: number): number {
  const took = finished - started;
  return finished + Math.max(MIN_PACE * took, Math.min(REFRESH_PACE * took, FRESHNESS_MS - 2 * took));
}

type Entry = {
  index: ShopIndex | null;
  building: Promise<ShopIndex> | null;
  wanted: number; // the newest catalog version heard of
  lastUsed: number; // the store's clock at the last query
  refreshDue: number; // performance.now() before which no refresh starts (pacing)
  waiting: ReturnType<typeof setTimeout> | null; // a refresh held back until refreshDue
  refreshes: Refresh[]; // the last few, oldest first
  settling: boolean; // a refresh's index is swapped in and what its predecessor had made is being made again
};

/** A build or refresh of a shop's index: when it started and ended (performance.now()), and the version it gave. */
export type Refresh = { started: number; finished: number; version: number };
const REFRESHES_KEPT = 16;

function noteRefresh(entry: Entry, refresh: Refresh): void {
  entry.refreshes.push(refresh);
  if (entry.refreshes.length > REFRESHES_KEPT) entry.refreshes.shift();
  entry.refreshDue = nextRefreshAt(refresh.started, refresh.finished);
}

type Store = {
  entries: Map<string, Entry>;
  listening: Promise<void> | null;
  sql: Sql | null;
  budgetBytes: number;
  clock: number;
  budgetCheckedAt: number; // performance.now() of the last enforceBudget
  budgetCheck: ReturnType<typeof setTimeout> | null; // enforceBudgetSoon's, when one is due
};

const STORE = processWide<Store>('listing-indexes');

function store(): Store {
  return STORE.getOrMake(() => ({ entries: new Map(), listening: null, sql: null, budgetBytes: 1024 * 1024 * 1024, clock: 0, budgetCheckedAt: -Infinity, budgetCheck: null }));
}

export function setIndexBudget(bytes: number): void {
  store().budgetBytes = bytes;
}

async function listen(sql: Sql): Promise<void> {
  const s = store();
  s.sql = sql;
  await sql.listen(
    CATALOG_CHANNEL,
    (payload) => {
      try {
        const { shop_id: shopId, version } = JSON.parse(payload) as { shop_id: string; version: number };
        catalogChanged(shopId, version);
      } catch {
        // not ours
      }
    },
    // On every (re)connect: a notice may have been missed while the connection was down.
    () => {
      for (const shopId of s.entries.keys()) void recheck(shopId);
    },
  );
}

async function recheck(shopId: string): Promise<void> {
  const sql = store().sql;
  if (!sql) return;
  const state = await catalogState(sql, shopId).catch(() => null);
  if (state) catalogChanged(shopId, state.version);
}

/** A shop's catalog moved to `version`: refresh its index, if this process holds one. */
export function catalogChanged(shopId: string, version: number): void {
  const entry = store().entries.get(shopId);
  if (!entry) return;
  if (version > entry.wanted) entry.wanted = version;
  refreshWhenDue(shopId, entry);
}

/** Starts a refresh if the index is behind and none runs: now, or when the pace allows. */
function refreshWhenDue(shopId: string, entry: Entry): void {
  if (entry.building || entry.settling || entry.waiting || !entry.index || entry.index.version >= entry.wanted) return;
  const wait = entry.refreshDue - performance.now();
  if (wait <= 0) return startRefresh(shopId, entry);
  entry.waiting = setTimeout(() => {
    entry.waiting = null;
    // Dropped meanwhile (memory budget, tests): nothing to refresh.
    if (store().entries.get(shopId) === entry) refreshWhenDue(shopId, entry);
  }, wait);
  entry.waiting.unref();
}

/** An index built from scratch on a first read (full) or brought up to date after an import (refresh). */
function noteBuilt(kind: 'full' | 'refresh', started: number): void {
  const { indexBuilds, indexBuildDuration } = metrics();
  indexBuilds.inc({ kind });
  indexBuildDuration.observe({ kind }, (performance.now() - started) / 1000);
}

function startRefresh(shopId: string, entry: Entry): void {
  const sql = store().sql!;
  const previous = entry.index;
  const started = performance.now();
  entry.building = (async () => {
    // Availability alone (trees unchanged): patched; products or trees changed: rebuilt from the
    // previous index and the changed rows; most products changed: built from scratch.
    const next = (previous && ((await patchedAvailability(sql, previous)) ?? (await rebuildIndex(sql, previous)))) || (await buildIndex(sql, shopId, previous ?? undefined));
    if (previous) carryMemo(previous, next);
    await warm(next);
    return next;
  })();
  void entry.building
    .then(async (index) => {
      entry.index = index;
      noteBuilt('refresh', started);
      if (index.version > entry.wanted) entry.wanted = index.version;
      log(`listing index of shop ${shopId} at version ${index.version}: ${index.n} products in ${Math.round(index.buildMs)} ms${index.buildSteps ? ` (${index.buildSteps})` : ''}`);
      // Swapped in: queries (and other shops' builds) go on, while what the previous index's
      // queries had made is made again for this one, as part of this refresh.
      entry.settling = true;
      entry.building = null;
      // A shop that searches gets its word index rebuilt with the listing index.
      const search = previous?.memo.search && !index.memo.search ? searchIndexFor(index, true) : undefined;
      if (previous) await warmOrders(index, previous).catch((error) => error !== SUPERSEDED && log(`listing orders of shop ${shopId} not prepared: ${String(error)}`, { shopId }, 'warn'));
      await search?.catch(() => undefined);
    })
    .catch((error) => log(`listing index refresh of shop ${shopId} failed: ${String(error)}`, { shopId, err: error }, 'error'))
    .finally(() => {
      entry.building = null;
      entry.settling = false;
      noteRefresh(entry, { started, finished: performance.now(), version: entry.index?.version ?? 0 });
      enforceBudgetSoon();
      // Imports that committed while this one was building.
      refreshWhenDue(shopId, entry);
    });
}

/**
 * When only availability changed since `index` (a PATCH, a DELETE), a copy with the new stock bits
 * is enough; anything else (products or trees changed) needs a full build: null.
 */
async function patchedAvailability(sql: Sql, index: ShopIndex): Promise<ShopIndex | null> {
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    const state = await catalogState(tx as unknown as Sql, index.shopId);
    if (!state || state.treeFingerprint !== index.treeFingerprint) return null;
    // The states whose availability or product changed since, in one pass over the shop's.
    const rows = await tx<{ id: string; available: boolean; changed: boolean }[]>`
      select product_id as id, available, data_version > ${index.version} as changed from product_state
       where shop_id = ${index.shopId} and (version > ${index.version} or data_version > ${index.version})`;
    if (rows.some((row) => row.changed)) return null;
    // Nothing changed (an import that sent everything as it was): the same index under the new
    // version, with everything its queries kept (counts, blocks, orders).
    if (rows.length === 0) return { ...index, version: state.version, buildMs: 0, buildSteps: 'nothing changed' };
    const started = performance.now();
    const available = index.available.slice();
    for (const row of rows) {
      const doc = docOf(index, row.id);
      if (doc === undefined) return null;
      if (row.available) add(available, doc);
      else remove(available, doc);
    }
    // Orders do not depend on stock; counts do (MEMO_RULES). Products' stored rows did not change.
    return { ...index, version: state.version, available, memo: memoAfterStockPatch(index.memo), buildMs: performance.now() - started, buildSteps: `availability of ${rows.length} products patched` };
  });
}

/** What a new version keeps of its previous index's memo (carryIntoRebuild). */
function carryMemo(previous: ShopIndex, next: ShopIndex): void {
  if (!next.reread) return;
  carryIntoRebuild(previous.memo, next.memo, next.reread, previous.treeFingerprint === next.treeFingerprint);
  carryFacetOrders(previous, next);
  next.reread = null;
}

/** What the first queries of a new index would otherwise pay for: the default order and counts. */
async function warm(index: ShopIndex): Promise<void> {
  await prepareSortedDocuments(index, 'sales_rate', 'desc', yieldToEventLoop);
  await yieldToEventLoop();
  prepareBaseCounts(index);
}

/**
 * After a swap, in the background: the other orders the previous index was asked for (each ~0.5 s
 * at a million products, in turns), and what its queries for locations alone had made, so their
 * first queries do not sort or count it — without delaying the swap
 * or any other shop's build (see yieldToBuilds).
 */
async function warmOrders(index: ShopIndex, previous: ShopIndex): Promise<void> {
  const turn = () => backgroundTurn(index);
  for (const orderKey of [...previous.memo.orders.keys()]) {
    const [key, dir] = orderKey.split(':') as [SortKey, 'asc' | 'desc'];
    await prepareSortedDocuments(index, key, dir, turn);
  }
  await prepareLocationOnly(index, previous, turn);
}

/** Ends background work on an index that is no longer its shop's current one (backgroundTurn). */
const SUPERSEDED = new Error('a newer index of the shop was swapped in');

/**
 * A turn for background work on `index` (yieldToBuilds), which ends it once a newer index of the
 * shop is current, unless `wanted`: work left waiting behind builds kept each superseded index
 * (~0.5 GB at a million products) alive, and a first load's indexes piled up to 7 GB.
 */
async function backgroundTurn(index: ShopIndex, wanted: () => boolean = () => false): Promise<void> {
  await yieldToBuilds(wanted);
  if (!wanted() && store().entries.get(index.shopId)?.index !== index) throw SUPERSEDED;
}

/**
 * A turn of the event loop for background work, which then waits while any index is being built:
 * a build is what a shop's freshness waits for (taking turns with a million-product shop's orders,
 * a 10,000-product shop's rebuild took 650 ms instead of ~100).
 */
export async function yieldToBuilds(urgent: () => boolean = () => false): Promise<void> {
  await yieldToEventLoop();
  while (!urgent() && [...store().entries.values()].some((entry) => entry.building)) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * enforceBudget now, or once BUDGET_CHECK_MS after the last check: it weighs every loaded index
 * and what its queries kept, and with 20 shops refreshing after each import (several a second)
 * that took ~1.3 % of the serving thread.
 */
const BUDGET_CHECK_MS = 1000;
function enforceBudgetSoon(): void {
  const s = store();
  if (s.budgetCheck) return;
  const wait = s.budgetCheckedAt + BUDGET_CHECK_MS - performance.now();
  if (wait <= 0) return enforceBudget();
  s.budgetCheck = setTimeout(() => {
    s.budgetCheck = null;
    enforceBudget();
  }, wait);
  s.budgetCheck.unref();
}

function enforceBudget(): void {
  const s = store();
  s.budgetCheckedAt = performance.now();
  const loaded = [...s.entries].filter(([, entry]) => entry.index).sort((a, b) => b[1].lastUsed - a[1].lastUsed);
  let total = 0;
  for (const [shopId, entry] of loaded) {
    total += indexBytes(entry.index!);
    if (total > s.budgetBytes && entry !== loaded[0][1] && !entry.building) {
      s.entries.delete(shopId);
      log(`listing index of shop ${shopId} dropped under the memory budget`);
    }
  }
}

/** The shop's current index; the first call for a shop builds it. */
export async function indexFor(sql: Sql, shopId: string): Promise<ShopIndex> {
  const s = store();
  s.listening ??= listen(sql).catch((error) => {
    s.listening = null;
    log(`listing could not listen for catalog changes: ${String(error)}`, undefined, 'error');
  });
  await s.listening;
  let entry = s.entries.get(shopId);
  if (!entry) {
    entry = { index: null, building: null, wanted: 0, lastUsed: 0, refreshDue: 0, waiting: null, refreshes: [], settling: false };
    s.entries.set(shopId, entry);
  }
  entry.lastUsed = ++s.clock;
  // What queries keep with an index grows between builds: the budget is checked now and then too.
  if (s.clock % 1000 === 0) enforceBudget();
  if (entry.index) return entry.index;
  if (!entry.building) {
    const current = entry;
    const started = performance.now();
    const building = buildIndex(sql, shopId).then(async (index) => {
      await warm(index);
      current.index = index;
      noteBuilt('full', started);
      noteRefresh(current, { started, finished: performance.now(), version: index.version });
      if (index.version > current.wanted) current.wanted = index.version;
      current.building = null;
      enforceBudget();
      refreshWhenDue(shopId, current);
      return index;
    });
    entry.building = building;
    building.catch(() => {
      current.building = null;
      s.entries.delete(shopId);
    });
  }
  return entry.building;
}

/**
 * The word index of a listing index, built on first use. `background`: built ahead of queries,
 * giving way to index builds until a query waits for it.
 */
export function searchIndexFor(index: ShopIndex, background = false): Promise<SearchIndex> {
  const { memo } = index;
  if (!background) memo.searchWanted = true;
  if (memo.search) return memo.search;
  const turn = () => backgroundTurn(index, () => memo.searchWanted);
  const building = buildSearchIndex(store().sql!, index, turn);
  memo.search = building;
  // Counted in the memory budget once built.
  void building.then((search) => (memo.searchIndex = search)).catch(() => undefined);
  building.catch(() => (memo.search = undefined));
  return building;
}

/** Loaded indexes, for the admin app and the benchmark. */
export function loadedIndexes(): { shopId: string; version: number; products: number; bytes: number; buildMs: number }[] {
  return [...store().entries.values()]
    .filter((entry) => entry.index)
    .map((entry) => ({ shopId: entry.index!.shopId, version: entry.index!.version, products: entry.index!.n, bytes: indexBytes(entry.index!), buildMs: entry.index!.buildMs }));
}

/** The shop's last builds and refreshes in this process, oldest first. */
export function recentRefreshes(shopId: string): Refresh[] {
  return [...(store().entries.get(shopId)?.refreshes ?? [])];
}

/** Drops every index (tests and benchmarks). */
export function dropIndexes(): void {
  store().entries.clear();
}

/** Drops every index and forgets the database connection listened on (a benchmark that boots the runtime again). */
export function forgetIndexStore(): void {
  const s = store();
  s.entries.clear();
  s.listening = null;
  s.sql = null;
}
