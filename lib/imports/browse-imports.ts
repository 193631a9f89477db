import { z } from 'zod';
import type { WebhookAttempt } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { isOperation, operationLabel } from './operation-labels';
import { parseImportId } from './import-records';
import { importProgress, type ImportProgress } from './import-progress';
import { webhookState, type DeliveryJob, type WebhookState } from './webhook-state';

const PAGE = 50;

const ImportId = (name: string) =>
  z.string().transform((value, check) => {
    const id = parseImportId(value);
    if (id === undefined) check.addIssue({ code: 'custom', message: `${name} must be an import id (a positive integer)` });
    return id ?? 0;
  });
const Instant = (name: string) => z.string().refine((value) => !Number.isNaN(Date.parse(value)), `${name} must be a date and time (ISO 8601)`);

/** The admin's filters of a shop's imports, as the query string gives them. */
export const ImportFilter = z.object({
  status: z.enum(['queued', 'running', 'done', 'failed'], { error: 'status must be queued, running, done or failed' }).optional(),
  operation: z.string().refine(isOperation, 'operation must be one of the operations, e.g. products.put').optional(),
  from: Instant('from').optional(),
  to: Instant('to').optional(),
  before: ImportId('before').optional(),
  after: ImportId('after').optional(),
});
export type ImportFilter = z.input<typeof ImportFilter>;

export type ImportSummary = {
  id: number;
  operation: string;
  operation_label: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  received_at: string;
  started_at: string | null;
  finished_at: string | null;
  items_total: number | null;
  items_applied: number | null;
  items_rejected: number | null;
  errors_count: number;
  warnings_count: number;
  message: string | null;
  webhook: WebhookState;
  // While running: rows written so far in the applier's current copy (import-progress.ts).
  progress?: ImportProgress | null;
};

export type ImportsPage = { imports: ImportSummary[]; total: number; newer: number | null; older: number | null };

type Row = Omit<ImportSummary, 'operation_label' | 'webhook' | 'received_at' | 'started_at' | 'finished_at'> & {
  received_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  webhook: string | null;
  webhook_attempts: WebhookAttempt[];
};

// postgres.js gives timestamps as text or Date depending on the connection's type settings.
const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

/** Delivery jobs pg-boss still keeps for these imports, the latest of each. */
export async function deliveryJobs(ctx: Pick<AppContext, 'sql'>, shopId: string, importIds: number[]): Promise<Map<number, DeliveryJob>> {
  if (importIds.length === 0) return new Map();
  const rows = await ctx.sql<(DeliveryJob & { import_id: string })[]>`
    select distinct on (data->>'importId') data->>'importId' as import_id, state::text as state, retry_limit, start_after
      from pgboss.job
     where name = 'webhooks.deliver' and data->>'shopId' = ${shopId}
       and data->>'importId' = any(${importIds.map(String)})
     order by data->>'importId', created_on desc`;
  return new Map(rows.map((r) => [Number(r.import_id), { state: r.state, retry_limit: r.retry_limit, start_after: new Date(r.start_after).toISOString() }]));
}

/** An import row as the admin's lists show it. */
export function summarise(row: Row, retryLimit: number, job?: DeliveryJob | null): ImportSummary {
  const { webhook, webhook_attempts, ...rest } = row;
  const finished = row.status === 'done' || row.status === 'failed';
  return {
    ...rest,
    id: Number(row.id),
    operation_label: operationLabel(row.operation),
    received_at: iso(row.received_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    webhook: webhookState(webhook, finished, webhook_attempts, retryLimit, job),
  };
}

export const SUMMARY_COLUMNS = `id, operation, status, received_at, started_at, finished_at, items_total, items_applied, items_rejected,
  jsonb_array_length(errors) as errors_count, jsonb_array_length(warnings) as warnings_count, message, webhook, webhook_attempts`;

/**
 * A page of a shop's imports, newest first, filtered by status, operation and the time received
 * (`from` inclusive, `to` exclusive); `before`/`after` are the ids the page before gave as
 * `older`/`newer`, so pages hold while imports keep arriving.
 */
export async function pageImports(ctx: Pick<AppContext, 'sql' | 'settings'>, shopId: string, input: unknown): Promise<ImportsPage> {
  const parsed = ImportFilter.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  const filter = parsed.data;
  const sql = ctx.sql;
  const where = sql`shop_id = ${shopId}
    ${filter.status ? sql`and status = ${filter.status}` : sql``}
    ${filter.operation ? sql`and operation = ${filter.operation}` : sql``}
    ${filter.from ? sql`and received_at >= ${new Date(filter.from).toISOString()}::timestamptz` : sql``}
    ${filter.to ? sql`and received_at < ${new Date(filter.to).toISOString()}::timestamptz` : sql``}`;
  const towardsNewer = filter.after !== undefined && filter.before === undefined;
  const cursor = towardsNewer ? sql`and id > ${filter.after!}` : filter.before !== undefined ? sql`and id < ${filter.before}` : sql``;
  const [rows, [{ total }]] = await Promise.all([
    sql<Row[]>`select ${sql.unsafe(SUMMARY_COLUMNS)} from imports where ${where} ${cursor}
                order by id ${towardsNewer ? sql`asc` : sql`desc`} limit ${PAGE + 1}`,
    sql<{ total: number }[]>`select count(*)::int as total from imports where ${where}`,
  ]);
  const more = rows.length > PAGE;
  const page = rows.slice(0, PAGE);
  if (towardsNewer) page.reverse();
  const retrying = page.filter((r) => r.webhook && r.webhook_attempts.at(-1)?.outcome === 'failed').map((r) => Number(r.id));
  const jobs = await deliveryJobs(ctx, shopId, retrying);
  const imports = page.map((row) => summarise(row, ctx.settings.webhooks.retryLimit, jobs.get(Number(row.id))));
  const running = imports.find((row) => row.status === 'running');
  if (running) running.progress = await importProgress(ctx, shopId);
  const first = imports[0]?.id;
  const last = imports.at(-1)?.id;
  const hasNewer = towardsNewer ? more : filter.before !== undefined;
  const hasOlder = towardsNewer ? true : more;
  return { imports, total, newer: hasNewer && first !== undefined ? first : null, older: hasOlder && last !== undefined ? last : null };
}
