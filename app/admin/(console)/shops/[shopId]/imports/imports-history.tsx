'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { ImportsPage } from '@/lib/imports/browse-imports';
import { OPERATION_LABELS, OPERATION_NAMES } from '@/lib/imports/operation-labels';
import { api } from '@/app/admin/_ui/api-client';
import { useQueryState } from '@/app/admin/_ui/query-state';
import { EmptyState, ErrorState, LoadingState, inputClass, linkClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount, formatDateTime, formatDuration, plural } from '@/app/admin/_ui/format';
import { ImportItems, ImportStatus, WebhookBadge } from './import-labels';

const FILTERS = ['status', 'operation', 'from', 'to'] as const;

/** A local calendar day as the instant it starts; `next` gives the day after's start. */
function dayStart(day: string, next = false): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
}

function apiQuery(search: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const key of ['status', 'operation', 'before', 'after']) {
    const value = search.get(key);
    if (value) query.set(key, value);
  }
  const from = search.get('from');
  const to = search.get('to');
  if (from && /^\d{4}-\d{2}-\d{2}$/.test(from)) query.set('from', dayStart(from));
  if (to && /^\d{4}-\d{2}-\d{2}$/.test(to)) query.set('to', dayStart(to, true));
  return query.toString();
}

export function ImportsHistory({ shopId }: { shopId: string }) {
  const router = useRouter();
  const { search, go } = useQueryState();
  const query = apiQuery(search);
  const { data, error, isPending, dataUpdatedAt } = useQuery({
    queryKey: ['imports', shopId, query],
    queryFn: () => api<ImportsPage>(`/admin/api/shops/${shopId}/imports?${query}`),
    // Quick while something is in flight, slower otherwise so new imports still show up.
    refetchInterval: (q) => (q.state.data?.imports.some((r) => r.status === 'queued' || r.status === 'running') ? 1000 : 3000),
    placeholderData: (previous) => previous,
  });

  const filtering = FILTERS.some((key) => search.get(key));

  return (
    <div className="space-y-4">
      <form className="grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm md:grid-cols-5" onSubmit={(e) => e.preventDefault()} aria-label="Filter imports">
        <label className="font-medium">
          Status
          <select className={inputClass} value={search.get('status') ?? ''} onChange={(e) => go({ status: e.target.value, before: null, after: null })}>
            <option value="">Any status</option>
            <option value="queued">Queued</option>
            <option value="running">Running</option>
            <option value="done">Done</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <label className="col-span-2 font-medium md:col-span-2">
          Operation
          <select className={inputClass} value={search.get('operation') ?? ''} onChange={(e) => go({ operation: e.target.value, before: null, after: null })}>
            <option value="">Any operation</option>
            {OPERATION_NAMES.map((name) => (
              <option key={name} value={name}>
                {OPERATION_LABELS[name]}
              </option>
            ))}
          </select>
        </label>
        <label className="font-medium">
          Received from
          <input type="date" className={inputClass} value={search.get('from') ?? ''} onChange={(e) => go({ from: e.target.value, before: null, after: null })} />
        </label>
        <label className="font-medium">
          Received until
          <input type="date" className={inputClass} value={search.get('to') ?? ''} onChange={(e) => go({ to: e.target.value, before: null, after: null })} />
        </label>
        {filtering && (
          <div className="col-span-2 md:col-span-5">
            <button type="button" className={linkClass} onClick={() => go({ status: null, operation: null, from: null, to: null, before: null, after: null })}>
              Clear filters
            </button>
          </div>
        )}
      </form>

      {isPending && <LoadingState>Loading imports…</LoadingState>}
      {error && <ErrorState>Could not load imports: {error.message}</ErrorState>}
      {data && data.imports.length === 0 && (
        <EmptyState title={filtering ? 'No import matches these filters' : 'No imports yet'}>
          {filtering ? 'Try another status, operation or dates.' : 'Imports appear here as soon as the shop sends one to the import API.'}
        </EmptyState>
      )}
      {data && data.imports.length > 0 && (
        <>
          <p className="text-sm text-slate-700" data-testid="imports-total">
            {plural(data.total, filtering ? 'import matches' : 'import', filtering ? 'imports match' : 'imports')}
          </p>
          <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
            <table className="w-full text-sm" data-testid="imports-table">
              <thead className="bg-slate-100 text-left text-xs font-semibold uppercase text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Import
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Status
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Received
                  </th>
                  <th scope="col" className="hidden px-3 py-2 md:table-cell">
                    Took
                  </th>
                  <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                    Items
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.imports.map((row) => {
                  const href = `/admin/shops/${shopId}/imports/${row.id}`;
                  const took = row.started_at ? (row.finished_at ? Date.parse(row.finished_at) : dataUpdatedAt) - Date.parse(row.started_at) : null;
                  return (
                    <tr key={row.id} data-testid={`import-${row.id}`} className="cursor-pointer border-t border-slate-100 align-top hover:bg-slate-50" onClick={() => router.push(href)}>
                      <td className="px-3 py-2">
                        <Link href={href} className="font-medium text-blue-800 hover:underline" onClick={(e) => e.stopPropagation()}>
                          #{row.id} {row.operation_label}
                        </Link>
                        <p className="text-xs text-slate-600 md:hidden">{formatDateTime(row.received_at)}</p>
                        <p className="text-xs text-slate-700 sm:hidden">
                          <ImportItems row={row} />
                        </p>
                        {row.message && <p className="break-anywhere mt-0.5 text-xs text-red-800">{row.message}</p>}
                      </td>
                      <td className="space-y-1 px-3 py-2">
                        <ImportStatus status={row.status} />
                        {row.status === 'running' && row.progress && <p className="text-xs text-slate-700">{formatCount(row.progress.rows_written)} rows written</p>}
                        <div>
                          <WebhookBadge webhook={row.webhook} />
                        </div>
                      </td>
                      <td className="hidden px-3 py-2 text-slate-700 md:table-cell">{formatDateTime(row.received_at)}</td>
                      <td className="hidden px-3 py-2 text-slate-700 md:table-cell">{formatDuration(took)}</td>
                      <td className="hidden px-3 py-2 sm:table-cell">
                        <ImportItems row={row} />
                        {row.warnings_count > 0 && <p className="text-xs text-amber-900">{plural(row.warnings_count, 'warning')}</p>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav aria-label="Pages of imports" className="flex items-center justify-between gap-3">
            <button type="button" className={secondaryButtonClass} disabled={data.newer === null} onClick={() => go({ after: String(data.newer), before: null })}>
              ← Newer
            </button>
            <button type="button" className={secondaryButtonClass} disabled={data.older === null} onClick={() => go({ before: String(data.older), after: null })}>
              Older →
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
