import type { Sql } from 'postgres';
import type { LocationNode } from './shop-index';

// What a build reads from PostgreSQL: the shop's trees and catalog state, and its products as a
// binary COPY whose chunks are handed over in turns of the event loop.

// The product columns the builder reads, in this order (binary COPY, read by position).
const PRODUCT_FIELDS = [
  'p.id',
  'p.group_id',
  'p.price',
  'p.oldprice',
  'p.discount_percent',
  'to_json(p.merchants)::text',
  'p.rating',
  'p.price_margin',
  'p.sales_rate',
  // As sent (microseconds since 2000): `extract(epoch …)` computes in numeric, ~0.5 s of
  // PostgreSQL's time per 1,000,000 rows. `epochMs` gives the same double.
  'coalesce(p.creation_date, p.first_added_at)',
  // Replaced by a constant in a full build (which reads the exceptions apart).
  'st.available',
  'p.facet_values',
  // Read only for rows without `facet_values`:
  'case when p.facet_values is null then p.facets end',
  // Read only for rows without either:
  'case when p.facet_values is null and p.facets is null then to_json(p.categories)::text end',
  'case when p.facet_values is null and p.facets is null then p.brand end',
  "case when p.facet_values is null and p.facets is null then p.data::jsonb->>'brand_picture' end",
  "case when p.facet_values is null and p.facets is null then (p.data::jsonb->'params')::text end",
  "case when p.facet_values is null and p.facets is null then (p.data::jsonb->'fashion')::text end",
  'p.offers',
];
/** How many fields a row of productsCopy has. */
export const PRODUCT_FIELD_COUNT = PRODUCT_FIELDS.length;
export const F_ID = 0,
  F_GROUP = 1, F_PRICE = 2, F_OLDPRICE = 3, F_DISCOUNT = 4, F_MERCHANTS = 5, F_RATING = 6, F_MARGIN = 7, F_SALES = 8, F_DATE = 9;
export const F_AVAILABLE = 10,
  F_VALUES = 11, F_TOKENS = 12, F_CATEGORIES = 13, F_BRAND = 14, F_PICTURE = 15, F_PARAMS = 16, F_FASHION = 17, F_OFFERS = 18;

export async function loadTree(sql: Sql, shopId: string) {
  const categoryRows = await sql<{ id: string; name: string; parent: string | null; url: string | null; alias: string | null; path: string[]; depth: number }[]>`
    select id, name, parent, url, alias, path, depth from categories where shop_id = ${shopId}`;
  const locationRows = await sql<LocationNode[]>`
    select id, name, type, path from locations where shop_id = ${shopId} order by id`;
  return { categoryRows, locationRows };
}

/** The version the shop's catalog is at and a fingerprint of its trees: what an index was built from. */
export async function catalogState(sql: Sql, shopId: string): Promise<{ version: number; treeFingerprint: string } | null> {
  const [row] = await sql<{ version: number; tree: string }[]>`
    select catalog_version as version,
           concat_ws('/', (select count(*) from categories where shop_id = ${shopId}), (select max(updated_at) from categories where shop_id = ${shopId}),
                          (select count(*) from locations where shop_id = ${shopId}), (select max(updated_at) from locations where shop_id = ${shopId})) as tree
      from shops where id = ${shopId}`;
  return row ? { version: Number(row.version), treeFingerprint: row.tree } : null;
}

/** A text value as an SQL literal, for COPY (which takes no parameters). standard_conforming_strings is on. */
function literal(value: string): string {
  if (value.includes('\0')) throw new Error('an SQL literal cannot hold a NUL');
  return `'${value.replaceAll("'", "''")}'`;
}

// A turn of handling chunks lasts about SLICE_MS, and longer while more than QUEUE_HIGH_BYTES
// wait (the stream is never paused: postgres.js's COPY stream can stall for good once its socket
// is paused, and did here, leaving a build's snapshot open).
const QUEUE_HIGH_BYTES = 16 << 20;
const SLICE_MS = 8;

/**
 * Hands each chunk of a COPY TO stream to `take`, in order, in turns of a few milliseconds
 * between which the event loop runs. (Handed over as they arrived, the chunks libuv reads in one
 * go, up to 32 of 64 KB, held the loop ~0.2 s.) An error from `take` ends the read once the
 * stream is drained (the connection stays usable).
 */
export function drain(stream: NodeJS.ReadableStream, take: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: unknown = null;
    const queue: Buffer[] = [];
    let next = 0;
    let queued = 0;
    let ended = false;
    let scheduled = false;
    const finish = () => (failure !== null ? reject(failure) : resolve());
    const handle = () => {
      scheduled = false;
      const until = performance.now() + SLICE_MS;
      while (next < queue.length && (queued > QUEUE_HIGH_BYTES || performance.now() < until)) {
        const chunk = queue[next++];
        queued -= chunk.length;
        if (failure !== null) continue;
        try {
          take(chunk);
        } catch (error) {
          failure = error;
        }
      }
      if (next === queue.length) {
        queue.length = 0;
        next = 0;
      }
      if (queue.length > 0) schedule();
      else if (ended) finish();
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(handle);
    };
    stream.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      queued += chunk.length;
      schedule();
    });
    stream.once('error', reject);
    stream.once('end', () => {
      ended = true;
      resumeConnection(stream);
      if (queue.length === 0 && !scheduled) finish();
    });
  });
}

/**
 * postgres.js pauses a connection's socket when a COPY chunk finds the stream's buffer full, and
 * resumes it when the stream asks for more. A COPY whose last chunk and end arrive in one read
 * (a small one: a refresh's few changed rows) ends with the buffer full and the socket paused, and
 * an ended stream never asks again: the answers to the connection's next statements (the build's
 * COMMIT) are never read, and the pool loses the connection for good (porsager/postgres#499, the
 * fix proposed in #1016 is not released). Its `read` resumes the socket: asked once the stream ended.
 */
function resumeConnection(stream: NodeJS.ReadableStream): void {
  (stream as unknown as { _read?: (size: number) => void })._read?.(0);
}

/**
 * The COPY a build reads a shop's products with (binary: numbers arrive as IEEE doubles and facet
 * numbers are parsed from the bytes): with their stock joined from product_state, or every one
 * taken to have `stock`; only those changed after version `since`, when not null.
 */
export function productsCopy(shopId: string, stock: boolean | null, since: number | null): string {
  const fields = stock === null ? PRODUCT_FIELDS : PRODUCT_FIELDS.map((field, at) => (at === F_AVAILABLE ? String(stock) : field));
  // Which products changed is in product_state (data_version; products has no index on its version).
  const join = stock === null || since !== null ? 'join product_state st on st.shop_id = p.shop_id and st.product_id = p.id' : '';
  const changed = since === null ? '' : `and st.data_version > ${Number(since)}`;
  return `copy (select ${fields.join(', ')} from products p ${join} where p.shop_id = ${literal(shopId)} ${changed}) to stdout (format binary)`;
}
