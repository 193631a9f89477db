'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { ImportDetail } from '@/lib/imports/import-details';
import { api, ApiError } from '@/app/admin/_ui/api-client';
import { ErrorState, LoadingState, linkClass } from '@/app/admin/_ui/feedback';
import { formatBytes, formatCount, formatDateTime, formatDuration } from '@/app/admin/_ui/format';
import { ImportStatus, WebhookBadge } from '../import-labels';
import { ImportEmails } from './import-emails';
import { ProblemsList } from './problems-list';

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-3 py-2">
      <dt className="text-xs font-medium uppercase text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function ImportView({ shopId, importId }: { shopId: string; importId: number }) {
  const { data, error, isPending, dataUpdatedAt } = useQuery({
    queryKey: ['import', shopId, importId],
    queryFn: () => api<ImportDetail>(`/admin/api/shops/${shopId}/imports/${importId}`),
    refetchInterval: (q) => {
      const d = q.state.data;
      if (!d) return false;
      if (d.status === 'queued' || d.status === 'running') return 1000;
      return d.webhook.state === 'retrying' || d.webhook.state === 'queued' || d.webhook.state === 'waiting' ? 5000 : false;
    },
  });
  if (error instanceof ApiError && error.status === 404) notFound();
  if (isPending) return <LoadingState>Loading the import…</LoadingState>;
  if (error) return <ErrorState>Could not load the import: {error.message}</ErrorState>;
  const d = data;
  const finished = d.status === 'done' || d.status === 'failed';
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center gap-3">
        <ImportStatus status={d.status} />
        <span className="font-medium">{d.operation_label}</span>
        <WebhookBadge webhook={d.webhook} />
        <Link href={`/admin/shops/${shopId}/imports`} className={`ml-auto text-sm ${linkClass}`}>
          All imports
        </Link>
      </div>
      {d.message && (
        <p role={d.status === 'failed' ? 'alert' : undefined} className="break-anywhere rounded-lg bg-red-50 px-4 py-3 font-medium text-red-900">
          {d.message}
        </p>
      )}
      {d.status === 'running' && (
        <p className="rounded-lg bg-blue-50 px-4 py-3 text-blue-950" data-testid="import-progress">
          Applying {d.items_total !== null ? `${formatCount(d.items_total)} items` : 'the import'}
          {d.progress ? ` · ${formatCount(d.progress.rows_written)} rows written so far` : ''} · running for {formatDuration(dataUpdatedAt - Date.parse(d.started_at!))}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Fact label="Items sent" testId="fact-total">
          {formatCount(d.items_total)}
        </Fact>
        <Fact label="Applied" testId="fact-applied">
          {finished ? formatCount(d.items_applied) : '—'}
        </Fact>
        <Fact label="Rejected" testId="fact-rejected">
          {finished ? formatCount(d.items_rejected) : '—'}
        </Fact>
        <Fact label="Warnings" testId="fact-warnings">
          {finished ? formatCount(d.warnings_count) : '—'}
        </Fact>
      </dl>

      <section aria-labelledby="timings">
        <h2 id="timings" className="mb-2 text-lg font-semibold">
          Timings
        </h2>
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-600">Received</dt>
          <dd>{formatDateTime(d.received_at)}</dd>
          <dt className="text-slate-600">Started</dt>
          <dd>
            {formatDateTime(d.started_at)} {d.timings.waited_ms !== null && <span className="text-slate-600">(waited {formatDuration(d.timings.waited_ms)} in the shop&apos;s queue)</span>}
          </dd>
          <dt className="text-slate-600">Finished</dt>
          <dd>
            {formatDateTime(d.finished_at)} {d.timings.applied_ms !== null && <span className="text-slate-600">(applied in {formatDuration(d.timings.applied_ms)})</span>}
          </dd>
          <dt className="text-slate-600">Request body</dt>
          <dd>
            {formatBytes(d.body_bytes)}{' '}
            {d.body_kept ? (
              <a href={`/admin/api/shops/${shopId}/imports/${importId}/body`} download={`import-${importId}.json`} className={linkClass}>
                Download the request as sent
              </a>
            ) : (
              <span className="text-slate-600">(no longer kept)</span>
            )}
          </dd>
        </dl>
      </section>

      {finished && <ProblemsList shopId={shopId} importId={importId} kind="errors" count={d.errors_count} total={d.items_rejected ?? 0} />}
      {finished && <ProblemsList shopId={shopId} importId={importId} kind="warnings" count={d.warnings_count} total={d.warnings_count} />}

      <section aria-labelledby="webhook">
        <h2 id="webhook" className="mb-2 text-lg font-semibold">
          Webhook
        </h2>
        {!d.webhook_url ? (
          <p className="text-sm text-slate-700">The shop asked for no webhook with this import.</p>
        ) : (
          <div className="space-y-2 text-sm">
            <p className="break-anywhere">
              <span className="text-slate-600">Sent to</span> <code className="rounded bg-slate-100 px-1">{d.webhook_url}</code>
            </p>
            {d.webhook.state === 'retrying' && d.webhook.next_attempt_at && <p data-testid="webhook-next">Next try {formatDateTime(d.webhook.next_attempt_at)}.</p>}
            {d.webhook.state === 'gave_up' && <p className="font-medium text-red-800">No more tries: {d.webhook.last_error}.</p>}
            {d.webhook_attempts.length === 0 ? (
              <p className="text-slate-700">{finished ? 'Not sent yet.' : 'Sent when the import ends.'}</p>
            ) : (
              <ol className="space-y-1" data-testid="webhook-attempts">
                {d.webhook_attempts.map((a, i) => (
                  <li key={i} className="break-anywhere">
                    <span className="text-slate-600">Try {i + 1}, {formatDateTime(a.at)}:</span>{' '}
                    {a.outcome === 'delivered' ? (
                      <span className="text-emerald-800">delivered (HTTP {a.status})</span>
                    ) : (
                      <span className="text-red-800">
                        failed{a.status ? `: the receiver answered HTTP ${a.status}` : a.message ? `: ${a.message}` : ''}
                        {a.status && a.message && a.message !== `HTTP ${a.status}` ? ` (${a.message})` : ''}
                      </span>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </div>
        )}
      </section>

      <ImportEmails emails={d.emails} failed={d.status === 'failed'} />
    </div>
  );
}
