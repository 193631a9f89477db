import type { AppContext } from '@/lib/runtime/context';
import { SHOP_APPLY_TX_LOCK } from './apply-locks';

/** How far a running import's writing has come: rows PostgreSQL has taken in its current copy. */
export type ImportProgress = { rows_written: number };

/**
 * Rows written so far by the copy the shop's applier is running, read from PostgreSQL's own
 * progress view (an import commits as one transaction, so its rows are not visible before). The
 * applier is the backend holding the shop's apply lock; null when it is not copying.
 */
export async function importProgress(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<ImportProgress | null> {
  const [row] = await ctx.sql<{ rows: string }[]>`
    select p.tuples_processed::text as rows
      from pg_locks l join pg_stat_progress_copy p on p.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objsubid = 2
       and l.classid = ${SHOP_APPLY_TX_LOCK}::oid
       and l.objid = ((hashtext(${shopId})::bigint + 4294967296) % 4294967296)::oid
     limit 1`;
  return row ? { rows_written: Number(row.rows) } : null;
}
