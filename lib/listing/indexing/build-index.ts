import type { Sql } from 'postgres';
import { BinaryCopyReader } from './binary-copy';
import { IndexBuilder } from './index-builder';
import { catalogState, drain, loadTree, PRODUCT_FIELD_COUNT, productsCopy } from './index-source';
import type { ShopIndex } from './shop-index';

/**
 * Reads a shop's catalog in one snapshot and builds its index (`after`: the shop's index this one
 * replaces, whose kept rows of unchanged products then carry over: `reread`). Rows are read in
 * the table's order as PostgreSQL sends them (no sort of wide rows there); documents are numbered
 * by price here.
 * Rows are handled as each network chunk arrives, so queries on the previous index keep being
 * answered between chunks.
 */
export async function buildIndex(sql: Sql, shopId: string, after?: ShopIndex): Promise<ShopIndex> {
  return (await build(sql, shopId, null, after))!;
}

/**
 * The index after `previous` from what changed since it: the documents of unchanged products are
 * replayed from `previous`, only changed products are read. Null when a full build is needed:
 * `previous` cannot be replayed, or most products changed.
 */
export async function rebuildIndex(sql: Sql, previous: ShopIndex): Promise<ShopIndex | null> {
  return previous.replay ? build(sql, previous.shopId, previous) : null;
}

async function build(sql: Sql, shopId: string, previous: ShopIndex | null, after?: ShopIndex): Promise<ShopIndex | null> {
  const started = performance.now();
  // The snapshot is read, then committed: the layout and sorts that finish the index need no
  // connection (holding one through them, 20 shops refreshing took the serving pool's connections
  // from the listings' queries for seconds at a time).
  const read = await sql.begin('isolation level repeatable read read only', async (tx) => {
    // One PostgreSQL process: parallel workers would take the core this process decodes on. A
    // rebuild's join with product_state hashes the shop's states: in memory (the default work_mem
    // spilled a whole catalog's to disk in two batches, ~1 s at 1,000,000 products).
    await tx`set local max_parallel_workers_per_gather = 0`;
    await tx`set local work_mem = '256MB'`;
    const state = await catalogState(tx as unknown as Sql, shopId);
    let changed: { id: string }[] = [];
    let stock: { id: string; available: boolean }[] = [];
    if (previous) {
      // Trees that changed do not stop a replay: what a document posts is learnt afresh from its
      // dictionary numbers against this build's trees (a category's ancestors, a location's
      // number), as a full build learns it (rebuild.int.test.ts changes trees under products).
      if (!state) return null;
      // The states whose product or availability changed since, in one pass over the shop's.
      const states = await tx<{ id: string; available: boolean; changed: boolean; flipped: boolean }[]>`
        select product_id as id, available, data_version > ${previous.version} as changed, version > ${previous.version} as flipped
          from product_state where shop_id = ${shopId} and (version > ${previous.version} or data_version > ${previous.version})`;
      changed = states.filter((row) => row.changed);
      // Most of a large catalog changed: reading it all is as cheap as replaying.
      if (changed.length > Math.max(1000, previous.n / 2)) return null;
      stock = states.filter((row) => row.flipped);
    }
    const tree = await loadTree(tx as unknown as Sql, shopId);
    const dictionary = await tx<{ token: string }[]>`select token from facet_tokens where shop_id = ${shopId} order by number`;
    const builder = new IndexBuilder(shopId, tree.categoryRows, tree.locationRows, dictionary.map((row) => row.token));
    // Of the rows kept for `after`'s cards (a few thousand at most), those changed since.
    const kept = after?.memo.storedProducts ? [...after.memo.storedProducts.rows.keys()] : null;
    if (after && kept) {
      changed = await tx<{ id: string }[]>`
        select product_id as id from product_state where shop_id = ${shopId} and product_id = any(${kept}) and data_version > ${after.version}`;
    }
    const reread = previous || kept ? new Set(changed.map((row) => row.id)) : null;
    if (previous) await builder.replay(previous, previous.replay!, reread!, new Map(stock.map((row) => [row.id, row.available])));
    // A full build takes every product to be as most are and lists the others: joining the
    // states kept the first row back while PostgreSQL hashed all of them (~1 s of a
    // 1,000,000-product build), and the join took ~1.5 s of its time. (Every product has a state:
    // imports write both in one transaction.)
    let assumed: boolean | null = null;
    if (!previous) {
      const [counts] = await tx<{ out: number; total: number }[]>`
        select count(*) filter (where not available)::int as out, count(*)::int as total from product_state where shop_id = ${shopId}`;
      const listed = counts.out > counts.total / 2;
      const rows = await tx<{ id: string }[]>`select product_id as id from product_state where shop_id = ${shopId} and available = ${listed}`;
      builder.otherwise(rows.map((row) => row.id), listed);
      assumed = !listed;
    }
    const replayed = performance.now();
    const since = previous ? previous.version : null;
    const reader = new BinaryCopyReader(PRODUCT_FIELD_COUNT, (row) => builder.add(row));
    await drain(await tx.unsafe(productsCopy(shopId, assumed, since)).readable(), (chunk) => reader.push(chunk));
    reader.finish();
    return { builder, state, changed, reread, replayed };
  });
  if (!read) return null;
  const { builder, state, changed, reread, replayed } = read;
  const productsRead = performance.now();
  const index = await builder.finish(state?.version ?? 0, state?.treeFingerprint ?? '');
  index.reread = reread;
  index.buildMs = performance.now() - started;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const replay = previous ? `${changed.length} changed products read, the rest replayed in ${seconds(replayed - started)}, ` : '';
  index.buildSteps = `${replay}products ${seconds(productsRead - replayed)}, then ${seconds(performance.now() - productsRead)}: ${index.buildSteps}`;
  return index;
}
