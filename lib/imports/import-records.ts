import { and, desc, eq, lt } from 'drizzle-orm';
import { imports } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';

type Row = typeof imports.$inferSelect;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The import record as CONTRACT §3 names its fields. */
export function presentImport(row: Row) {
  return {
    id: row.id,
    shop_id: row.shopId,
    operation: row.operation,
    status: row.status,
    received_at: iso(row.receivedAt),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    items_total: row.itemsTotal,
    items_applied: row.itemsApplied,
    items_rejected: row.itemsRejected,
    errors: row.errors,
    warnings: row.warnings,
    message: row.message,
  };
}
export type ImportRecord = ReturnType<typeof presentImport>;

/** The record plus what the admin app shows beside it. */
export function presentImportDetail(row: Row) {
  return { ...presentImport(row), webhook: row.webhook, webhook_attempts: row.webhookAttempts, body_bytes: row.bodyBytes };
}

/**
 * An import id as a client sends it: a positive integer, as a JSON number or a string of digits.
 * Anything else (true, 1.5, "1e3", a number past 2^53, which no id reaches) is undefined.
 */
export function parseImportId(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export async function getImport(ctx: Pick<AppContext, 'db'>, shopId: string, importId: number): Promise<Row> {
  const [row] = await ctx.db
    .select()
    .from(imports)
    .where(and(eq(imports.shopId, shopId), eq(imports.id, importId)));
  if (!row) throw new AppError('NOT_FOUND', `Import ${importId} not found`);
  return row;
}

export async function listImports(ctx: Pick<AppContext, 'db'>, shopId: string, options: { limit?: number; before?: number } = {}) {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  const rows = await ctx.db
    .select()
    .from(imports)
    .where(options.before ? and(eq(imports.shopId, shopId), lt(imports.id, options.before)) : eq(imports.shopId, shopId))
    .orderBy(desc(imports.id))
    .limit(limit);
  return rows.map(presentImportDetail);
}
