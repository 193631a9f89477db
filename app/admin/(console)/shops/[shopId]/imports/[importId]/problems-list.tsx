'use client';

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { ProblemsPage } from '@/lib/imports/import-details';
import { api } from '@/app/admin/_ui/api-client';
import { ErrorState, inputClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount } from '@/app/admin/_ui/format';

/** An import's errors or warnings: searchable, 100 a page. */
export function ProblemsList({ shopId, importId, kind, count, total }: { shopId: string; importId: number; kind: 'errors' | 'warnings'; count: number; total: number }) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const search = useDeferredValue(q);
  const title = kind === 'errors' ? 'Errors' : 'Warnings';
  const { data, error } = useQuery({
    queryKey: ['import-problems', shopId, importId, kind, search, page],
    queryFn: () => api<ProblemsPage>(`/admin/api/shops/${shopId}/imports/${importId}/problems?${new URLSearchParams({ kind, q: search, page: String(page) })}`),
    enabled: count > 0,
    placeholderData: (previous) => previous,
  });
  return (
    <section aria-labelledby={`${kind}-title`} data-testid={`import-${kind}`}>
      <h2 id={`${kind}-title`} className="mb-2 text-lg font-semibold">
        {title} <span className="font-normal text-slate-600">({formatCount(total)})</span>
      </h2>
      {count === 0 ? (
        <p className="text-sm text-slate-700">{kind === 'errors' ? 'No item was rejected.' : 'No warnings.'}</p>
      ) : (
        <div className="space-y-2">
          {total > count && (
            <p className="text-sm text-slate-700">
              The first {formatCount(count)} of {formatCount(total)} are kept.
            </p>
          )}
          <label className="block max-w-md text-sm font-medium">
            Search {kind}
            <input
              type="search"
              value={q}
              onChange={(e) => {
                setQ(e.target.value);
                setPage(1);
              }}
              placeholder="Item id or words of the message"
              className={inputClass}
            />
          </label>
          {error && <ErrorState>{error.message}</ErrorState>}
          {data && (
            <>
              <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
                {data.problems.length === 0 && <li className="px-3 py-2 text-slate-700">Nothing matches “{search}”.</li>}
                {data.problems.map((p) => (
                  <li key={p.n} className="break-anywhere px-3 py-1.5">
                    {p.position !== undefined && <span className="text-slate-600">Item {formatCount(p.position + 1)}</span>}
                    {p.item_id && <span className="text-slate-600">{p.position !== undefined ? ', ' : ''}id <code>{p.item_id}</code></span>}
                    {(p.position !== undefined || p.item_id) && ': '}
                    {p.message}
                  </li>
                ))}
              </ol>
              {data.pages > 1 && (
                <nav aria-label={`Pages of ${kind}`} className="flex items-center gap-3 text-sm">
                  <button type="button" className={secondaryButtonClass} disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    Previous
                  </button>
                  <span>
                    Page {data.page} of {data.pages} ({formatCount(data.total)} {search ? 'matching' : 'in all'})
                  </span>
                  <button type="button" className={secondaryButtonClass} disabled={page >= data.pages} onClick={() => setPage(page + 1)}>
                    Next
                  </button>
                </nav>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}
