'use client';

import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

type Card = { id: string; name: string; price_formatted: string; oldprice: number; oldprice_formatted: string; discount: number; image_url_resized: Record<string, string>; url: string };
type Filter = { count: number; priority: number; values: Record<string, number>; ranges?: { min: number; max: number } };
type Listing = {
  html: string;
  requests_count: number;
  products_total: number;
  price_range: { min: number; max: number };
  price_median: number;
  products: Card[];
  categories: { id: string; name: string; count: number }[];
  brands: { name: string; count: number }[];
  filters: Record<string, Filter>;
  debug?: { products: { id: string; sort_key: number | null }[] };
};

type Query = { text: Record<string, string>; brands: string[]; filters: Record<string, string[]>; page: number };

const SORTS = ['sales_rate', 'price', 'discount', 'date', 'price_margin', 'rating', 'relevance'];

function toSearch(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query.text)) if (value.trim() !== '') params.set(key, value.trim());
  if (query.brands.length) params.set('brands', query.brands.join(','));
  if (Object.keys(query.filters).length) params.set('filters', JSON.stringify(query.filters));
  params.set('page', String(query.page));
  return params.toString();
}

export function ListingPreview({ shopId }: { shopId: string }) {
  const [query, setQuery] = useState<Query>({ text: {}, brands: [], filters: {}, page: 1 });
  const [showHtml, setShowHtml] = useState(false);
  const search = toSearch(query);
  const { data, error, isFetching } = useQuery({
    queryKey: ['listing-preview', shopId, search],
    queryFn: async (): Promise<Listing> => {
      const response = await fetch(`/admin/api/shops/${shopId}/listing-preview?${search}`);
      const json = await response.json();
      if (!response.ok) throw new Error(json?.payload?.message ?? `HTTP ${response.status}`);
      return json;
    },
    placeholderData: (previous) => previous,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text: Record<string, string> = {};
    for (const [key, value] of form) text[key] = String(value);
    text.collapse = form.get('collapse') === 'on' ? 'true' : 'false';
    setQuery({ ...query, text, page: 1 });
  }
  const toggleFilter = (name: string, value: string) => {
    const current = query.filters[name] ?? [];
    const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
    const filters = { ...query.filters, [name]: next };
    if (next.length === 0) delete filters[name];
    setQuery({ ...query, filters, page: 1 });
  };
  const toggleBrand = (brand: string) =>
    setQuery({ ...query, brands: query.brands.includes(brand) ? query.brands.filter((b) => b !== brand) : [...query.brands, brand], page: 1 });
  const sortKeys = new Map((data?.debug?.products ?? []).map((p) => [p.id, p.sort_key]));
  const pages = data ? Math.max(1, Math.ceil(data.products_total / 24)) : 1;

  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">Preview</h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm">
        {['search_query', 'categories', 'locations', 'price_min', 'price_max'].map((name) => (
          <label key={name} className="font-medium">
            {name}
            <input name={name} defaultValue={query.text[name] ?? ''} className="mt-1 block w-36 rounded-md border border-slate-300 px-2 py-1" />
          </label>
        ))}
        <label className="font-medium">
          sort_by
          <select name="sort_by" defaultValue={query.text.sort_by ?? ''} className="mt-1 block rounded-md border border-slate-300 px-2 py-1">
            <option value="">default</option>
            {SORTS.map((sort) => (
              <option key={sort}>{sort}</option>
            ))}
          </select>
        </label>
        <label className="font-medium">
          sort_dir
          <select name="sort_dir" defaultValue={query.text.sort_dir ?? 'desc'} className="mt-1 block rounded-md border border-slate-300 px-2 py-1">
            <option>desc</option>
            <option>asc</option>
          </select>
        </label>
        <label className="flex items-center gap-1">
          <input type="checkbox" name="collapse" defaultChecked={query.text.collapse !== 'false'} /> one per variant group
        </label>
        <button type="submit" className="rounded-md bg-slate-900 px-3 py-1.5 font-medium text-white">
          Show
        </button>
        {isFetching && <span className="text-slate-500">Loading…</span>}
      </form>
      {error && (
        <p role="alert" className="text-red-700">
          {error.message}
        </p>
      )}
      {data && (
        <div className="grid grid-cols-[16rem_1fr] gap-6">
          <aside className="space-y-4 text-sm" data-testid="preview-facets">
            <div>
              <h3 className="font-semibold">Categories</h3>
              <ul>
                {data.categories.slice(0, 15).map((c) => (
                  <li key={c.id} className="flex justify-between">
                    <span>{c.name}</span>
                    <span className="text-slate-500">{c.count}</span>
                  </li>
                ))}
              </ul>
            </div>
            <div>
              <h3 className="font-semibold">Brands</h3>
              {data.brands.slice(0, 15).map((b) => (
                <label key={b.name} className="flex items-center gap-2">
                  <input type="checkbox" checked={query.brands.some((x) => x.toLowerCase() === b.name.toLowerCase())} onChange={() => toggleBrand(b.name)} />
                  <span className="flex-1">{b.name}</span>
                  <span className="text-slate-500">{b.count}</span>
                </label>
              ))}
            </div>
            {Object.entries(data.filters).map(([name, filter]) => (
              <div key={name}>
                <h3 className="font-semibold">
                  {name} <span className="font-normal text-slate-500">({filter.count})</span>
                </h3>
                {filter.ranges && (
                  <p className="text-slate-600">
                    {filter.ranges.min} – {filter.ranges.max}
                  </p>
                )}
                {Object.entries(filter.values)
                  .slice(0, 12)
                  .map(([value, count]) => (
                    <label key={value} className="flex items-center gap-2">
                      <input type="checkbox" aria-label={`${name}: ${value}`} checked={query.filters[name]?.includes(value) ?? false} onChange={() => toggleFilter(name, value)} />
                      <span className="flex-1">{value}</span>
                      <span className="text-slate-500">{count}</span>
                    </label>
                  ))}
              </div>
            ))}
          </aside>
          <div className="space-y-4">
            <p className="text-sm text-slate-600" data-testid="preview-summary">
              {data.products_total} products · prices {data.price_range.min}–{data.price_range.max}, median {data.price_median} · {data.requests_count} engine queries
              <button type="button" className="ml-4 underline" onClick={() => setShowHtml(!showHtml)}>
                {showHtml ? 'Show products' : 'Show the template’s HTML'}
              </button>
            </p>
            {showHtml ? (
              <iframe title="Rendered listing template" sandbox="" srcDoc={data.html} className="h-[32rem] w-full rounded-xl border border-slate-200 bg-white" />
            ) : (
              <ul className="grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="preview-products">
                {data.products.map((p) => (
                  <li key={p.id} className="rounded-xl border border-slate-200 bg-white p-3 text-sm">
                    {/* eslint-disable-next-line @next/next/no-img-element -- the service's own resizer */}
                    <img src={p.image_url_resized['160']} alt={p.name} width={160} height={160} loading="lazy" className="mx-auto h-40 w-40 rounded bg-slate-100 object-contain" />
                    <p className="mt-2 font-medium">{p.name}</p>
                    <p>
                      {p.price_formatted} {p.oldprice > 0 && <s className="text-slate-500">{p.oldprice_formatted}</s>} {p.discount > 0 && <span className="text-emerald-700">−{p.discount}%</span>}
                    </p>
                    <p className="font-mono text-xs text-slate-500">
                      {p.id} · sort key {String(sortKeys.get(p.id) ?? '–')}
                    </p>
                  </li>
                ))}
              </ul>
            )}
            <div className="flex items-center gap-3 text-sm">
              <button type="button" disabled={query.page <= 1} onClick={() => setQuery({ ...query, page: query.page - 1 })} className="rounded border px-2 py-1 disabled:opacity-40">
                Previous
              </button>
              <span>
                Page {query.page} of {pages}
              </span>
              <button type="button" disabled={query.page >= pages} onClick={() => setQuery({ ...query, page: query.page + 1 })} className="rounded border px-2 py-1 disabled:opacity-40">
                Next
              </button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
