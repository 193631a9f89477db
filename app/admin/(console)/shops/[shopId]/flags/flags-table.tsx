'use client';

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useState, type FormEvent } from 'react';
import type { FlagsPage } from '@/lib/subscriptions/email-flags';
import type { FlagTotals } from '@/lib/subscriptions/flag-totals';
import type { FlagsImport } from '@/lib/subscriptions/import-flags';
import { api } from '@/app/admin/_ui/api-client';
import { ConfirmDialog } from '@/app/admin/_ui/confirm-dialog';
import { EmptyState, ErrorState, FormMessage, LoadingState, buttonClass, inputClass, linkClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount, formatDateTime, plural } from '@/app/admin/_ui/format';
import { useQueryState } from '@/app/admin/_ui/query-state';

const EVENTS = ['complained', 'hard_bounced', 'blacklisted', 'unsubscribed'] as const;
const LABELS: Record<(typeof EVENTS)[number], string> = { complained: 'Complained', hard_bounced: 'Hard bounced', blacklisted: 'Blacklisted', unsubscribed: 'Unsubscribed' };
const label = (flag: string) => LABELS[flag as keyof typeof LABELS] ?? flag;

export function FlagsTable({ shopId }: { shopId: string }) {
  const client = useQueryClient();
  const { search, go } = useQueryState();
  const [text, setText] = useState(search.get('q') ?? '');
  const q = useDeferredValue(text.trim());
  const flag = search.get('flag') ?? '';
  const base = `/admin/api/shops/${shopId}/flags`;
  // Pages of 100, most recently changed first: a shop's flags grow without end.
  const { data: pages, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: ['flags', shopId, q, flag],
    initialPageParam: '',
    queryFn: ({ pageParam }) => api<FlagsPage>(`${base}?${new URLSearchParams({ ...(pageParam ? { after: pageParam } : {}), ...(q ? { q } : {}), ...(flag ? { flag } : {}) })}`),
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const totals = useQuery({ queryKey: ['flag-totals', shopId], queryFn: () => api<FlagTotals>(`${base}/totals`) });
  const data = pages?.pages.flatMap((page) => page.flags);
  const [formMessage, setFormMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [removing, setRemoving] = useState<{ email: string; event: string } | null>(null);
  const refresh = () => {
    client.invalidateQueries({ queryKey: ['flags', shopId] });
    client.invalidateQueries({ queryKey: ['flag-totals', shopId] });
  };
  const change = useMutation({
    mutationFn: ({ method, email, event }: { method: 'POST' | 'DELETE'; email: string; event: string }) => api(base, { method, body: { email, event } }),
    onSuccess: (_answer, { method, email, event }) => {
      refresh();
      setFormMessage({ ok: true, text: method === 'POST' ? `${email} is flagged ${label(event).toLowerCase()}.` : `${label(event)} removed from ${email}.` });
    },
    onError: (e) => setFormMessage({ ok: false, text: e.message }),
  });

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFormMessage(null);
    change.mutate({ method: 'POST', email: String(form.get('email')), event: String(form.get('event')) });
  }

  return (
    <div className="space-y-6">
      {totals.data && (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="flag-totals">
          <div className="rounded-xl border border-slate-200 bg-white p-3">
            <dt className="text-xs font-medium uppercase text-slate-600">Flagged emails</dt>
            <dd className="text-xl font-semibold">{formatCount(totals.data.emails)}</dd>
          </div>
          {EVENTS.map((e) => (
            <div key={e} className="rounded-xl border border-slate-200 bg-white p-3">
              <dt className="text-xs font-medium uppercase text-slate-600">{LABELS[e]}</dt>
              <dd className="text-xl font-semibold">{formatCount(totals.data.by_flag[e])}</dd>
            </div>
          ))}
        </dl>
      )}
      <form onSubmit={add} className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4" aria-label="Add a flag">
        <label className="min-w-0 flex-1 text-sm font-medium sm:flex-none">
          Email
          <input name="email" required className={`${inputClass} sm:w-72`} />
        </label>
        <div className="text-sm font-medium">
          <label htmlFor="add-flag-event">Flag</label>
          <select id="add-flag-event" name="event" className={inputClass}>
            {EVENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass}>
          Add flag
        </button>
        <a href={`${base}?format=csv`} className={`ml-auto text-sm ${linkClass}`}>
          Export CSV
        </a>
        <div className="w-full">
          <FormMessage message={formMessage} />
        </div>
      </form>
      <CsvImport shopId={shopId} onDone={refresh} />

      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm font-medium">
          Search by email
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} onBlur={() => go({ q: text.trim() || null })} className={`${inputClass} sm:w-72`} />
        </label>
        <label className="text-sm font-medium">
          With flag
          <select value={flag} onChange={(e) => go({ flag: e.target.value || null })} className={inputClass}>
            <option value="">Any flag</option>
            {EVENTS.map((e) => (
              <option key={e} value={e}>
                {LABELS[e]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {isPending && <LoadingState>Loading flags…</LoadingState>}
      {error && <ErrorState>Could not load flags: {error.message}</ErrorState>}
      {data && data.length === 0 && <EmptyState title={q || flag ? 'No flagged email matches' : 'No flagged emails'}>{q || flag ? 'Try another search or flag.' : 'Flags arrive through the subscriptions callback, or are added here.'}</EmptyState>}
      {data && data.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white text-sm" data-testid="flags-table">
          {data.map((row) => (
            <li key={row.email} data-testid={`flags-${row.email}`} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
              <span className="break-anywhere min-w-0 flex-1 font-mono">{row.email}</span>
              <span className="flex flex-wrap gap-2">
                {row.flags.map((f) => (
                  <span key={f} className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-950">
                    {f}
                    <button type="button" aria-label={`Remove ${f} from ${row.email}`} className="rounded-full px-1 hover:bg-amber-200" onClick={() => setRemoving({ email: row.email, event: f })}>
                      ×
                    </button>
                  </span>
                ))}
              </span>
              <span className="text-slate-700">{formatDateTime(row.updated_at)}</span>
            </li>
          ))}
        </ul>
      )}
      {hasNextPage && (
        <button type="button" onClick={() => fetchNextPage()} disabled={isFetchingNextPage} className={secondaryButtonClass}>
          {isFetchingNextPage ? 'Loading…' : `Show more (${formatCount(data?.length ?? 0)} shown)`}
        </button>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing ? label(removing.event).toLowerCase() : ''} from ${removing?.email ?? ''}?`}
        confirmLabel="Remove flag"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) change.mutate({ method: 'DELETE', ...removing });
          setRemoving(null);
        }}
      >
        {removing?.event === 'unsubscribed' || removing?.event === 'complained'
          ? 'This person asked not to get emails. Remove the flag only if they asked to get them again.'
          : 'Emails to this address may be sent again.'}
      </ConfirmDialog>
    </div>
  );
}

function CsvImport({ shopId, onDone }: { shopId: string; onDone: () => void }) {
  const [result, setResult] = useState<FlagsImport | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get('file') as File | null;
    if (!file || file.size === 0) return setMessage({ ok: false, text: 'Choose a CSV file first' });
    setPending(true);
    setMessage(null);
    try {
      const answer = await api<FlagsImport>(`/admin/api/shops/${shopId}/flags/import`, { method: 'POST', body: { csv: await file.text(), flag: String(form.get('flag') ?? '') } });
      setResult(answer);
      setMessage({ ok: answer.rejected.length === 0, text: `${plural(answer.changed, 'email')} flagged, ${formatCount(answer.unchanged)} already had their flags${answer.rejected.length ? `, ${plural(answer.rejected.length, 'line')} skipped` : ''}.` });
      onDone();
    } catch (error) {
      setMessage({ ok: false, text: (error as Error).message });
    } finally {
      setPending(false);
    }
  }
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-4">
      <summary className="cursor-pointer font-medium">Import flags from a CSV file</summary>
      <form onSubmit={submit} className="mt-3 space-y-3 text-sm">
        <p className="text-slate-700">One email per line, then its flags separated by spaces (the export&apos;s format). Lines with an email only get the flag chosen here.</p>
        <div className="flex flex-wrap items-end gap-3">
          <label className="font-medium">
            CSV file
            <input name="file" type="file" accept=".csv,text/csv,text/plain" className="mt-1 block" />
          </label>
          <label className="font-medium">
            Flag for lines without one
            <select name="flag" className={inputClass}>
              <option value="">None (skip those lines)</option>
              {EVENTS.map((e) => (
                <option key={e} value={e}>
                  {LABELS[e]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={pending} className={buttonClass}>
            {pending ? 'Importing…' : 'Import flags'}
          </button>
        </div>
        <FormMessage message={message} />
        {result && result.rejected.length > 0 && (
          <ul className="list-disc pl-5 text-red-800" data-testid="flags-import-rejected">
            {result.rejected.map((r) => (
              <li key={r.line}>
                Line {r.line}: {r.message}
              </li>
            ))}
          </ul>
        )}
      </form>
    </details>
  );
}
