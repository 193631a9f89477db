import type { TransactionSql } from 'postgres';
import { bumpCatalogVersion } from '@/lib/catalog/version';
import { enqueue } from '@/lib/jobs';
import { queueFailureNotice } from '@/lib/mail/failure-notice';
import type { AppContext } from '@/lib/runtime/context';
import type { ImportOutcome } from '@/lib/catalog/import-outcome';
import { metrics } from '@/lib/runtime/metrics';
import { log } from '@/lib/runtime/log';

export type Finished = {
  id: number;
  seconds: number;
  operation: string;
  status: 'done' | 'failed';
  items_total: number | null;
  items_applied: number;
  items_rejected: number;
  message: string | null;
  webhook: string | null;
};

const WEBHOOK_ERRORS = 100;

function summarise(outcome: ImportOutcome, total: number | null, failure?: string): string | null {
  if (failure) return failure;
  if (outcome.rejected > 0) {
    const rejected = `${outcome.rejected} of ${total ?? outcome.itemsTotal} items ${outcome.rejected === 1 ? 'was' : 'were'} rejected`;
    const applied = outcome.applied === 0 ? 'none was applied' : outcome.applied === 1 ? 'the other one was applied' : `the other ${outcome.applied} were applied`;
    return `${rejected}; ${applied}`;
  }
  return null;
}

/** Counted as it commits (a rollback after this, rare, would count it once more when applied again). */
function noteFinished(record: Finished): void {
  const { importsFinished, itemsApplied, applyDuration } = metrics();
  const operation = record.operation;
  importsFinished.inc({ operation, status: record.status });
  if (record.items_applied) itemsApplied.inc({ operation }, record.items_applied);
  applyDuration.observe({ operation }, record.seconds);
}

/** The import's last step logged, once the transaction that settled it has committed. */
export function logFinished(shopId: string, record: Finished): void {
  const fields = {
    shopId,
    importId: record.id,
    operation: record.operation,
    items: record.items_total,
    applied: record.items_applied,
    rejected: record.items_rejected,
    ms: Math.round(record.seconds * 1000),
    message: record.message ?? undefined,
  };
  if (record.status === 'done') log('import applied', fields);
  else log('import failed', fields, 'warn');
}

/**
 * Settles an import inside the transaction that applied it: the record, the catalog version,
 * the webhook and the failure notice all commit together with the data, or not at all. The record
 * is for logFinished once that commit is done.
 */
export async function finishImport(ctx: AppContext, tx: TransactionSql, shopId: string, importId: number, outcome: ImportOutcome, failure?: string): Promise<Finished> {
  const failed = failure !== undefined || outcome.rejected > 0;
  // A failure keeps the count intake took; otherwise the applier's count stands.
  const itemsTotal = failure
    ? (await tx<{ items_total: number | null }[]>`select items_total from imports where shop_id = ${shopId} and id = ${importId}`)[0].items_total
    : outcome.itemsTotal;
  const [record] = await tx<Finished[]>`
    update imports
       set status = ${failed ? 'failed' : 'done'},
           finished_at = clock_timestamp(), -- now() is when the transaction began
           items_total = ${itemsTotal},
           items_applied = ${outcome.applied},
           items_rejected = ${outcome.rejected},
           errors = ${JSON.stringify(outcome.errors)}::jsonb,
           warnings = ${JSON.stringify(outcome.warnings)}::jsonb,
           message = ${summarise(outcome, itemsTotal, failure)}
     where shop_id = ${shopId} and id = ${importId}
 returning id, operation, status, items_total, items_applied, items_rejected, message, webhook,
           extract(epoch from finished_at - coalesce(started_at, received_at))::float8 as seconds`;
  noteFinished(record);
  if (outcome.changed && outcome.version === undefined) outcome.version = await bumpCatalogVersion(tx, shopId);

  if (record.webhook) {
    const counts = {
      import_id: record.id,
      operation: record.operation,
      items_total: record.items_total,
      items_applied: record.items_applied,
      items_rejected: record.items_rejected,
    };
    const body = failed
      ? { status: 'error', message: record.message ?? 'Import failed', ...counts, errors: outcome.errors.slice(0, WEBHOOK_ERRORS) }
      : { status: 'success', ...counts, warnings_count: outcome.warningCount };
    await enqueue(ctx.boss, 'webhooksDeliver', { shopId, importId, url: record.webhook, body }, { tx });
  }
  if (failed) await queueFailureNotice(ctx, tx, shopId, { ...record, errors: outcome.errors });
  return record;
}
