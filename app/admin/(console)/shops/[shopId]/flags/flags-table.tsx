'use client';

import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FlagsPage } from '@/lib/subscriptions/email-flags';

const EVENTS = ['complained', 'hard_bounced', 'blacklisted', 'unsubscribed'] as const;

async function call(shopId: string, method: 'POST' | 'DELETE', body: { email: string; event: string }) {
  const response = await fetch(`/admin/api/shops/${shopId}/flags`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error((await response.json().catch(() => null))?.payload?.message ?? `HTTP ${response.status}`);
}

export function FlagsTable({ shopId }: { shopId: string }) {
  const client = useQueryClient();
  const key = ['flags', shopId];
  // Pages of 100, most recently changed first: a shop's flags grow without end.
  const { data: pages, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: key,
    initialPageParam: '',
    queryFn: async ({ pageParam }): Promise<FlagsPage> => {
      const response = await fetch(`/admin/api/shops/${shopId}/flags${pageParam ? `?after=${encodeURIComponent(pageParam)}` : ''}`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const data = pages?.pages.flatMap((page) => page.flags);
  const [formError, setFormError] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: ({ method, email, event }: { method: 'POST' | 'DELETE'; email: string; event: string }) => call(shopId, method, { email, event }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
    onError: (e) => setFormError(e.message),
  });

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFormError(null);
    change.mutate({ method: 'POST', email: String(form.get('email')), event: String(form.get('event')) });
  }

  return (
    <div className="space-y-6">
      <form onSubmit={add} className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <label className="text-sm font-medium">
          Email
          <input name="email" required className="mt-1 block w-72 rounded-md border border-slate-300 px-3 py-1.5" />
        </label>
        <label className="text-sm font-medium">
          Flag
          <select name="event" className="mt-1 block rounded-md border border-slate-300 px-3 py-1.5">
            {EVENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white">
          Add flag
        </button>
        <a href={`/admin/api/shops/${shopId}/flags?format=csv`} className="ml-auto text-sm text-slate-600 underline">
          Export CSV
        </a>
        {formError && (
          <p role="alert" className="w-full text-sm text-red-700">
            {formError}
          </p>
        )}
      </form>
      {isPending && <p className="text-slate-500">Loading flags…</p>}
      {error && <p className="text-red-700">Could not load flags: {error.message}</p>}
      {data && data.length === 0 && <p className="text-slate-500">No flagged emails.</p>}
      {data && data.length > 0 && (
        <table className="w-full rounded-xl border border-slate-200 bg-white text-sm" data-testid="flags-table">
          <thead className="bg-slate-100 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="px-3 py-2">Email</th>
              <th className="px-3 py-2">Flags</th>
              <th className="px-3 py-2">Updated</th>
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.email} data-testid={`flags-${row.email}`} className="border-t border-slate-100">
                <td className="px-3 py-2 font-mono">{row.email}</td>
                <td className="flex flex-wrap gap-2 px-3 py-2">
                  {row.flags.map((flag) => (
                    <span key={flag} className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
                      {flag}
                      <button
                        type="button"
                        aria-label={`Remove ${flag} from ${row.email}`}
                        className="text-amber-700 hover:text-red-700"
                        onClick={() => change.mutate({ method: 'DELETE', email: row.email, event: flag })}
                      >
                        ×
                      </button>
                    </span>
                  ))}
                </td>
                <td className="px-3 py-2 text-slate-600">{new Date(row.updated_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasNextPage && (
        <button
          type="button"
          onClick={() => fetchNextPage()}
          disabled={isFetchingNextPage}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 disabled:opacity-50"
        >
          {isFetchingNextPage ? 'Loading…' : `Show more (${data?.length ?? 0} shown)`}
        </button>
      )}
    </div>
  );
}
