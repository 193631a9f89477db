import { loadedIndexes } from '@/lib/listing/index-store';
import type { AppContext } from '@/lib/runtime/context';

export type ImportDay = { day: string; done: number; failed: number; items_applied: number };
export type ShopOverview = {
  products_in_stock: number;
  products_out_of_stock: number;
  categories: number;
  locations: number;
  collections: number;
  email_flags: number;
  catalog_version: number;
  // This process's listing index of the shop, when it has built one.
  index: { products: number; bytes: number; build_ms: number; version: number } | null;
  imports_by_day: ImportDay[];
  recent_failures: { id: number; operation: string; finished_at: string | null; message: string | null }[];
  pending_imports: number;
};

const DAYS = 7;

/**
 * A shop's dashboard: catalog counts, the listing index, imports of the last 7 days (UTC days)
 * and the latest failures. Counts read the narrow state rows, not the products.
 */
export async function shopOverview(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<ShopOverview> {
  const sql = ctx.sql;
  const [[counts], days, failures] = await Promise.all([
    sql<Omit<ShopOverview, 'index' | 'imports_by_day' | 'recent_failures'>[]>`
      select (select count(*) from product_state where shop_id = ${shopId} and available)::int as products_in_stock,
             (select count(*) from product_state where shop_id = ${shopId} and not available)::int as products_out_of_stock,
             (select count(*) from categories where shop_id = ${shopId})::int as categories,
             (select count(*) from locations where shop_id = ${shopId})::int as locations,
             (select count(*) from collections where shop_id = ${shopId})::int as collections,
             (select count(*) from email_flags where shop_id = ${shopId})::int as email_flags,
             (select count(*) from imports where shop_id = ${shopId} and status in ('queued', 'running'))::int as pending_imports,
             (select catalog_version from shops where id = ${shopId})::int as catalog_version`,
    sql<ImportDay[]>`
      select to_char(d.day, 'YYYY-MM-DD') as day,
             count(i.id) filter (where i.status = 'done')::int as done,
             count(i.id) filter (where i.status = 'failed')::int as failed,
             coalesce(sum(i.items_applied), 0)::int as items_applied
        from generate_series((now() at time zone 'UTC')::date - ${DAYS - 1}::int, (now() at time zone 'UTC')::date, interval '1 day') as d(day)
        left join imports i on i.shop_id = ${shopId} and i.status in ('done', 'failed')
             and i.received_at >= d.day at time zone 'UTC' and i.received_at < (d.day + interval '1 day') at time zone 'UTC'
       group by d.day order by d.day`,
    sql<ShopOverview['recent_failures']>`
      select id::int as id, operation, finished_at, message from imports
       where shop_id = ${shopId} and status = 'failed' order by id desc limit 5`,
  ]);
  const index = loadedIndexes().find((entry) => entry.shopId === shopId);
  return {
    ...counts,
    index: index ? { products: index.products, bytes: index.bytes, build_ms: index.buildMs, version: index.version } : null,
    imports_by_day: days,
    recent_failures: failures.map((f) => ({ ...f, finished_at: f.finished_at ? new Date(f.finished_at).toISOString() : null })),
  };
}
