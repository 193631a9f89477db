import { z } from 'zod';
import type { ImportProblem, WebhookAttempt } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import { failureNoticeSubjectStart } from '@/lib/mail/failure-notice';
import type { AppContext } from '@/lib/runtime/context';
import { decompressBody, type BodyEncoding } from './pipeline';
import { deliveryJobs, summarise, SUMMARY_COLUMNS, type ImportSummary } from './browse-imports';
import { importProgress, type ImportProgress } from './import-progress';

type Ctx = Pick<AppContext, 'sql' | 'settings'>;

export type ImportEmail = { id: number; recipient: string; subject: string; text: string; html: string; created_at: string; sent_at: string | null; error: string | null };

export type ImportDetail = ImportSummary & {
  webhook_url: string | null;
  webhook_attempts: WebhookAttempt[];
  body_bytes: number;
  body_kept: boolean;
  // Wall time waiting in the shop's queue, then applying (ms); null until known.
  timings: { waited_ms: number | null; applied_ms: number | null; total_ms: number | null };
  progress: ImportProgress | null;
  emails: ImportEmail[];
};

const elapsed = (from: string | null, to: string | null) => (from && to ? Date.parse(to) - Date.parse(from) : null);

/** Everything the import's own page shows; another shop's import answers as one that does not exist. */
export async function importDetail(ctx: Ctx, shopId: string, importId: number): Promise<ImportDetail> {
  const sql = ctx.sql;
  const [row] = await sql`select ${sql.unsafe(SUMMARY_COLUMNS)}, body_bytes,
      exists (select 1 from import_bodies b where b.shop_id = i.shop_id and b.import_id = i.id) as body_kept
      from imports i where shop_id = ${shopId} and id = ${importId}`;
  if (!row) throw new AppError('NOT_FOUND', `Import ${importId} not found`);
  const jobs = row.webhook ? await deliveryJobs(ctx, shopId, [importId]) : new Map();
  const summary = summarise(row as never, ctx.settings.webhooks.retryLimit, jobs.get(importId));
  const emails = await sql<ImportEmail[]>`
    select id::int as id, recipient, subject, text, html, created_at, sent_at, error from email_outbox
     where shop_id = ${shopId} and starts_with(subject, ${failureNoticeSubjectStart(importId)})
     order by id`;
  return {
    ...summary,
    webhook_url: row.webhook,
    webhook_attempts: row.webhook_attempts,
    body_bytes: row.body_bytes,
    body_kept: row.body_kept,
    timings: {
      waited_ms: elapsed(summary.received_at, summary.started_at),
      applied_ms: elapsed(summary.started_at, summary.finished_at),
      total_ms: elapsed(summary.received_at, summary.finished_at),
    },
    progress: summary.status === 'running' ? await importProgress(ctx, shopId) : null,
    emails: emails.map((e) => ({ ...e, created_at: new Date(e.created_at).toISOString(), sent_at: e.sent_at ? new Date(e.sent_at).toISOString() : null })),
  };
}

export const ProblemsQuery = z.object({
  kind: z.enum(['errors', 'warnings']),
  q: z.string().max(200, 'q must be at most 200 characters').default(''),
  page: z.coerce.number().int().min(1, 'page must be at least 1').max(100_000).default(1),
});

export type ProblemsPage = { problems: (ImportProblem & { n: number })[]; total: number; stored: number; page: number; pages: number };

const PROBLEMS_PAGE = 100;

/**
 * A page of an import's stored errors or warnings (100 a page), those whose message or item id
 * contains `q` (any case). `stored` is how many the import keeps; `n` numbers them from 1.
 */
export async function importProblems(ctx: Pick<AppContext, 'sql'>, shopId: string, importId: number, input: unknown): Promise<ProblemsPage> {
  const parsed = ProblemsQuery.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  const { kind, q, page } = parsed.data;
  const sql = ctx.sql;
  const column = sql(kind);
  const [found] = await sql<{ stored: number }[]>`select jsonb_array_length(${column})::int as stored from imports where shop_id = ${shopId} and id = ${importId}`;
  if (!found) throw new AppError('NOT_FOUND', `Import ${importId} not found`);
  const pattern = `%${q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await sql<{ n: number; problem: ImportProblem; total: number }[]>`
    select e.n::int as n, e.value as problem, count(*) over ()::int as total
      from imports i, jsonb_array_elements(i.${column}) with ordinality as e(value, n)
     where i.shop_id = ${shopId} and i.id = ${importId}
       ${q.trim() ? sql`and (e.value->>'message' ilike ${pattern} or e.value->>'item_id' ilike ${pattern})` : sql``}
     order by e.n offset ${(page - 1) * PROBLEMS_PAGE} limit ${PROBLEMS_PAGE}`;
  let total = rows[0]?.total;
  if (total === undefined) {
    // Past the last page (or nothing matched): the count alone.
    [{ total }] = await sql<{ total: number }[]>`
      select count(*)::int as total from imports i, jsonb_array_elements(i.${column}) as e(value)
       where i.shop_id = ${shopId} and i.id = ${importId}
         ${q.trim() ? sql`and (e.value->>'message' ilike ${pattern} or e.value->>'item_id' ilike ${pattern})` : sql``}`;
  }
  return { problems: rows.map((r) => ({ ...r.problem, n: r.n })), total, stored: found.stored, page, pages: Math.max(1, Math.ceil(total / PROBLEMS_PAGE)) };
}

/** The request body exactly as the shop sent it, while it is kept (IMPORT_BODY_RETENTION_DAYS). */
export async function importBody(ctx: Pick<AppContext, 'sql'>, shopId: string, importId: number): Promise<Buffer> {
  const [row] = await ctx.sql<{ body: Buffer; encoding: BodyEncoding }[]>`
    select body, encoding from import_bodies where shop_id = ${shopId} and import_id = ${importId}`;
  if (!row) {
    const [known] = await ctx.sql`select 1 from imports where shop_id = ${shopId} and id = ${importId}`;
    throw new AppError('NOT_FOUND', known ? `The request body of import ${importId} is no longer kept` : `Import ${importId} not found`);
  }
  return decompressBody(row.body, row.encoding);
}

export async function importExists(ctx: Pick<AppContext, 'sql'>, shopId: string, importId: number): Promise<boolean> {
  return (await ctx.sql`select 1 from imports where shop_id = ${shopId} and id = ${importId}`).length > 0;
}
