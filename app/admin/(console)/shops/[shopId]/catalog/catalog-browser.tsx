'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import type { ProductsPage } from '@/lib/catalog/browse-products';
import type { Trees } from '@/lib/catalog/browse-trees';
import { api } from '@/app/admin/_ui/api-client';
import { useQueryState } from '@/app/admin/_ui/query-state';
import { Badge, EmptyState, ErrorState, LoadingState, inputClass, linkClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount, formatNumber, plural } from '@/app/admin/_ui/format';
import { TreeList, pathName } from '@/app/admin/_ui/tree-list';

const VIEWS = [
  ['products', 'Products'],
  ['categories', 'Categories'],
  ['locations', 'Locations'],
] as const;

export function CatalogBrowser({ shopId }: { shopId: string }) {
  const { search, go } = useQueryState();
  const view = search.get('view') ?? 'products';
  const trees = useQuery({ queryKey: ['trees', shopId], queryFn: () => api<Trees>(`/admin/api/shops/${shopId}/catalog/trees`) });

  return (
    <div className="space-y-4">
      <nav aria-label="Catalog views" className="flex flex-wrap gap-2">
        {VIEWS.map(([key, label]) => (
          <button key={key} type="button" aria-pressed={view === key} onClick={() => go({ view: key === 'products' ? null : key })} className={`rounded-full border px-3 py-1 text-sm ${view === key ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-800'}`}>
            {label}
          </button>
        ))}
      </nav>
      {view === 'products' && <ProductsView shopId={shopId} trees={trees.data} search={search} go={go} />}
      {view !== 'products' && trees.isPending && <LoadingState>Counting products per node…</LoadingState>}
      {view !== 'products' && trees.error && <ErrorState>{trees.error.message}</ErrorState>}
      {view === 'categories' && trees.data && <TreeView nodes={trees.data.categories} kind="categories" onPick={(id) => go({ view: null, category: id, q: null, brand: null, availability: null })} />}
      {view === 'locations' && trees.data && <TreeView nodes={trees.data.locations} kind="locations" />}
    </div>
  );
}

function TreeView({ nodes, kind, onPick }: { nodes: Trees['categories']; kind: 'categories' | 'locations'; onPick?: (id: string) => void }) {
  if (nodes.length === 0) return <EmptyState title={`No ${kind} yet`}>They arrive with the shop&apos;s {kind} imports.</EmptyState>;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4" data-testid={`${kind}-tree`}>
      <p className="mb-2 text-sm text-slate-700">
        {plural(nodes.length, kind === 'categories' ? 'category' : 'location', kind)}; the numbers are products {kind === 'categories' ? 'in each and below it' : 'with an offer there or below (products without offers are everywhere)'}, in stock of all.
      </p>
      <TreeList
        nodes={nodes}
        label={kind === 'categories' ? 'Category tree' : 'Location tree'}
        openDepth={2}
        render={(node) => (
          <span className="inline-flex flex-wrap items-baseline gap-2">
            {onPick ? (
              <button type="button" className={linkClass} onClick={(e) => (e.preventDefault(), onPick(node.id))}>
                {node.name}
              </button>
            ) : (
              <span>{node.name}</span>
            )}
            <span className="font-mono text-xs text-slate-600">{node.id}</span>
            <span className="text-xs text-slate-700" data-testid={`count-${node.id}`}>
              {formatCount(node.in_stock)} / {formatCount(node.products)}
            </span>
          </span>
        )}
      />
    </div>
  );
}

function ProductsView({ shopId, trees, search, go }: { shopId: string; trees?: Trees; search: URLSearchParams; go: (changes: Record<string, string | null>) => void }) {
  const query = new URLSearchParams();
  for (const key of ['q', 'category', 'brand', 'availability', 'page']) if (search.get(key)) query.set(key, search.get(key)!);
  const [text, setText] = useState(search.get('q') ?? '');
  const { data, error, isPending } = useQuery({
    queryKey: ['catalog-products', shopId, query.toString()],
    queryFn: () => api<ProductsPage>(`/admin/api/shops/${shopId}/catalog/products?${query}`),
    placeholderData: (previous) => previous,
  });
  const brands = useQuery({ queryKey: ['brands', shopId], queryFn: () => api<{ brands: { name: string; products: number }[] }>(`/admin/api/shops/${shopId}/catalog/brands`) });
  const byId = new Map((trees?.categories ?? []).map((n) => [n.id, n]));
  const page = Number(search.get('page') ?? 1);
  return (
    <div className="space-y-4">
      <form
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-4"
        aria-label="Find products"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: text.trim() || null, page: null });
        }}
      >
        <label className="font-medium">
          Id or name
          <span className="mt-1 flex gap-2">
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} className={`${inputClass} mt-0`} />
            <button type="submit" className={secondaryButtonClass}>
              Search
            </button>
          </span>
        </label>
        <label className="font-medium">
          Category (and below)
          <select className={inputClass} value={search.get('category') ?? ''} onChange={(e) => go({ category: e.target.value || null, page: null })}>
            <option value="">Any category</option>
            {(trees?.categories ?? []).map((node) => (
              <option key={node.id} value={node.id}>
                {pathName(byId, node)} ({formatCount(node.products)})
              </option>
            ))}
          </select>
        </label>
        <label className="font-medium">
          Brand
          <select className={inputClass} value={search.get('brand') ?? ''} onChange={(e) => go({ brand: e.target.value || null, page: null })}>
            <option value="">Any brand</option>
            {(brands.data?.brands ?? []).map((b) => (
              <option key={b.name} value={b.name}>
                {b.name} ({formatCount(b.products)})
              </option>
            ))}
          </select>
        </label>
        <label className="font-medium">
          Availability
          <select className={inputClass} value={search.get('availability') ?? ''} onChange={(e) => go({ availability: e.target.value || null, page: null })}>
            <option value="">In stock or not</option>
            <option value="in_stock">In stock</option>
            <option value="out_of_stock">Out of stock</option>
          </select>
        </label>
      </form>
      {isPending && <LoadingState>Loading products…</LoadingState>}
      {error && <ErrorState>{error.message}</ErrorState>}
      {data && data.products.length === 0 && <EmptyState title="No product matches">Try other words or filters.</EmptyState>}
      {data && data.products.length > 0 && (
        <>
          <p className="text-sm text-slate-700" data-testid="products-total">
            {plural(data.total, 'product')}
          </p>
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white" data-testid="catalog-products">
            {data.products.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 text-sm">
                <Link href={`/admin/shops/${shopId}/catalog/product?id=${encodeURIComponent(p.id)}`} className={`break-anywhere min-w-0 flex-1 font-medium ${linkClass}`}>
                  {p.name}
                </Link>
                <span className="break-anywhere font-mono text-xs text-slate-600">{p.id}</span>
                <span className="text-slate-700">{p.brand ?? '—'}</span>
                <span className="tabular-nums">
                  {formatNumber(p.price)}
                  {p.oldprice ? <s className="ml-1 text-slate-600">{formatNumber(p.oldprice)}</s> : null}
                </span>
                <Badge tone={p.available ? 'green' : 'grey'}>{p.available ? 'In stock' : 'Out of stock'}</Badge>
              </li>
            ))}
          </ul>
          <nav aria-label="Pages of products" className="flex items-center gap-3 text-sm">
            <button type="button" className={secondaryButtonClass} disabled={page <= 1} onClick={() => go({ page: page > 2 ? String(page - 1) : null })}>
              Previous
            </button>
            <span>
              Page {page} of {formatCount(data.pages)}
            </span>
            <button type="button" className={secondaryButtonClass} disabled={page >= data.pages} onClick={() => go({ page: String(page + 1) })}>
              Next
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
