import type { ImportSummary } from '@/lib/imports/browse-imports';
import type { WebhookState } from '@/lib/imports/webhook-state';
import { Badge } from '@/app/admin/_ui/feedback';
import { formatCount, formatDateTime, relativeTime } from '@/app/admin/_ui/format';

const statusTone = { queued: 'grey', running: 'blue', done: 'green', failed: 'red' } as const;
const statusText = { queued: 'Queued', running: 'Running', done: 'Done', failed: 'Failed' } as const;

export function ImportStatus({ status }: { status: ImportSummary['status'] }) {
  return (
    <Badge tone={statusTone[status]} testId="import-status">
      {statusText[status]}
    </Badge>
  );
}

/** Items applied of the total while running, else the final counts. */
export function ImportItems({ row }: { row: ImportSummary }) {
  if (row.items_total === null) return <span className="text-slate-600">—</span>;
  if (row.status === 'queued' || row.status === 'running') return <span>{formatCount(row.items_total)} items</span>;
  return (
    <span>
      {formatCount(row.items_applied)} of {formatCount(row.items_total)} applied
      {row.items_rejected ? <span className="font-semibold text-red-800"> · {formatCount(row.items_rejected)} rejected</span> : null}
    </span>
  );
}

export function webhookSummary(webhook: WebhookState): { tone: 'grey' | 'green' | 'amber' | 'red'; text: string } | null {
  switch (webhook.state) {
    case 'none':
      return null;
    case 'waiting':
      return { tone: 'grey', text: 'Webhook: sent when the import ends' };
    case 'queued':
      return { tone: 'grey', text: 'Webhook: sending' };
    case 'delivered':
      return { tone: 'green', text: webhook.attempts > 1 ? `Webhook delivered (try ${webhook.attempts})` : 'Webhook delivered' };
    case 'retrying':
      return {
        tone: 'amber',
        text: `Webhook retrying: ${webhook.attempts} ${webhook.attempts === 1 ? 'try' : 'tries'} failed${webhook.next_attempt_at ? `, next ${relativeTime(webhook.next_attempt_at)}` : ''}`,
      };
    case 'gave_up':
      return { tone: 'red', text: `Webhook gave up after ${webhook.attempts} ${webhook.attempts === 1 ? 'try' : 'tries'}` };
  }
}

export function WebhookBadge({ webhook }: { webhook: WebhookState }) {
  const summary = webhookSummary(webhook);
  if (!summary) return null;
  return (
    <span title={'last_error' in webhook ? webhook.last_error : webhook.state === 'delivered' ? formatDateTime(webhook.at) : undefined}>
      <Badge tone={summary.tone} testId="webhook-state">
        {summary.text}
      </Badge>
    </span>
  );
}
