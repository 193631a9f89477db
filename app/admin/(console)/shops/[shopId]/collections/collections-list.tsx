'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { CollectionSummary } from '@/lib/collections/collection-previews';
import type { Trees } from '@/lib/catalog/browse-trees';
import { api } from '@/app/admin/_ui/api-client';
import { EmptyState, ErrorState, LoadingState, buttonClass, linkClass } from '@/app/admin/_ui/feedback';
import { formatDateTime, plural } from '@/app/admin/_ui/format';
import { rulesSummary } from './rule-summary';

export function CollectionsList({ shopId }: { shopId: string }) {
  const { data, error, isPending } = useQuery({ queryKey: ['collections', shopId], queryFn: () => api<{ collections: CollectionSummary[] }>(`/admin/api/shops/${shopId}/collections`) });
  const trees = useQuery({ queryKey: ['trees', shopId], queryFn: () => api<Trees>(`/admin/api/shops/${shopId}/catalog/trees`) });
  const names = new Map((trees.data?.categories ?? []).map((n) => [n.id, n.name]));
  const base = `/admin/shops/${shopId}/collections`;
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Link href={`${base}/new`} className={buttonClass}>
          New collection
        </Link>
      </div>
      {isPending && <LoadingState>Loading collections…</LoadingState>}
      {error && <ErrorState>Could not load collections: {error.message}</ErrorState>}
      {data && data.collections.length === 0 && <EmptyState title="No collections yet">A collection shows the products its rules pick, e.g. boots on sale under €100.</EmptyState>}
      {data && data.collections.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" data-testid="collections-list">
          {data.collections.map((c) => (
            <li key={c.id} className="space-y-1 px-4 py-3" data-testid={`collection-${c.id}`}>
              <p className="flex flex-wrap items-baseline gap-x-3">
                <Link href={`${base}/${c.id}`} className={`font-medium ${linkClass}`}>
                  {c.name}
                </Link>
                <span className="text-sm text-slate-700">{plural(c.products, 'product')}</span>
                <span className="text-xs text-slate-600">
                  id {c.id} · changed {formatDateTime(c.updated_at)}
                </span>
              </p>
              <ul className="text-sm text-slate-700">
                {rulesSummary(c.rules, (id) => names.get(id) ?? id).map((line, i) => (
                  <li key={i}>
                    {c.rules.groups.length > 1 ? `${i === 0 ? '' : 'or '}` : ''}
                    {line}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
