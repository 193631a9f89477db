'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { OutboxPage } from '@/lib/mail/browse-outbox';
import { api } from '@/app/admin/_ui/api-client';
import { Badge, EmptyState, ErrorState, LoadingState, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatDateTime, plural } from '@/app/admin/_ui/format';

export function OutboxList() {
  const [open, setOpen] = useState<number | null>(null);
  const { data, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useInfiniteQuery({
    queryKey: ['outbox'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => api<OutboxPage>(`/admin/api/outbox${pageParam ? `?before=${pageParam}` : ''}`),
    getNextPageParam: (last) => (last.older ? String(last.older) : undefined),
  });
  if (isPending) return <LoadingState>Loading emails…</LoadingState>;
  if (error) return <ErrorState>Could not load the outbox: {error.message}</ErrorState>;
  const messages = data.pages.flatMap((p) => p.messages);
  if (messages.length === 0) return <EmptyState title="No emails yet">Failure notices of imports appear here.</EmptyState>;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">{plural(data.pages[0].total, 'email')}; without SMTP_URL they are kept here and not sent.</p>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" data-testid="outbox">
        {messages.map((m) => (
          <li key={m.id} className="px-4 py-3">
            <button type="button" aria-expanded={open === m.id} className="w-full text-left" onClick={() => setOpen(open === m.id ? null : m.id)}>
              <span className="break-anywhere block font-medium text-blue-900">{m.subject}</span>
              <span className="break-anywhere flex flex-wrap items-center gap-2 text-sm text-slate-700">
                To {m.recipient} · {formatDateTime(m.created_at)} {m.shop_name && <>· {m.shop_name}</>}
                {m.sent_at ? <Badge tone="green">Sent</Badge> : m.error ? <Badge tone="red">Not sent</Badge> : <Badge tone="grey">Kept</Badge>}
              </span>
            </button>
            {open === m.id && (
              <div className="mt-3 space-y-2">
                {m.error && <ErrorState>Sending failed: {m.error}</ErrorState>}
                <iframe title={`Email: ${m.subject}`} sandbox="" srcDoc={m.html} className="h-72 w-full rounded-lg border border-slate-200" />
              </div>
            )}
          </li>
        ))}
      </ul>
      {hasNextPage && (
        <button type="button" className={secondaryButtonClass} disabled={isFetchingNextPage} onClick={() => fetchNextPage()}>
          {isFetchingNextPage ? 'Loading…' : 'Older emails'}
        </button>
      )}
    </div>
  );
}
