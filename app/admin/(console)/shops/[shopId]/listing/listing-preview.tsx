'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import type { Trees } from '@/lib/catalog/browse-trees';
import { ApiError } from '@/app/admin/_ui/api-client';
import { ErrorState, LoadingState, inputClass, linkClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount, plural } from '@/app/admin/_ui/format';
import { TreeList, pathName } from '@/app/admin/_ui/tree-list';
import { api } from '@/app/admin/_ui/api-client';
import { useQueryState } from '@/app/admin/_ui/query-state';
import { ProductImage } from '@/app/admin/_ui/product-image';
import { FacetList } from './facet-list';
import { SORTS, controlOf, storefrontUrl } from './listing-labels';

type Card = { id: string; name: string; brand: string; price_formatted: string; oldprice: number; oldprice_formatted: string; discount_percent: number; stock_quantity: number; image_url_resized: Record<string, string> };
type Filter = { count: number; values: Record<string, number>; ranges?: { min: number; max: number } };
type Listing = {
  html: string;
  requests_count: number;
  products_total: number;
  price_range: { min: number; max: number };
  price_ranges: { from?: number; to?: number; count: number }[];
  price_median: number;
  products: Card[];
  categories: { id: string; name: string; count: number }[];
  locations: { id: string; name: string }[];
  brands: { name: string; count: number }[];
  filters: Record<string, Filter>;
  industrial_filters: { fashion_sizes: { size: string; count: number }[]; colors: { color: string; count: number }[] };
};
type Answer = { listing: Listing; engineMs: number };

const LIMIT = 24;
const VIEWS = [
  ['products', 'Products'],
  ['html', 'Template HTML'],
  ['json', 'As JSON'],
  ['curl', 'As curl'],
] as const;

async function fetchPreview(shopId: string, query: string): Promise<Answer> {
  const response = await fetch(`/admin/api/shops/${shopId}/listing-preview?${query}`);
  if (response.status === 401) {
    // The one way of an ended session (api-client): sign in, come back here.
    await api(`/admin/api/shops/${shopId}/listing-preview?${query}`);
  }
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(json?.payload?.message ?? `The server answered HTTP ${response.status}`, response.status);
  return { listing: json, engineMs: Number(response.headers.get('x-engine-ms') ?? 0) };
}

const list = (value: string | null) => (value ? value.split(',').filter(Boolean) : []);

function Problem({ error, control }: { error: Error | null; control: string }) {
  if (!error || controlOf(error.message) !== control) return null;
  return (
    <p role="alert" className="mt-1 text-sm text-red-800">
      {error.message}
    </p>
  );
}

export function ListingPreview({ shopId, currency }: { shopId: string; currency: string }) {
  const { search, go, clear } = useQueryState();

  const apiQuery = new URLSearchParams(search);
  apiQuery.delete('view');
  apiQuery.set('category_limit', '1000');
  apiQuery.set('brand_limit', '1000');
  const { data, error, isFetching, isPending } = useQuery({
    queryKey: ['listing-preview', shopId, apiQuery.toString()],
    queryFn: () => fetchPreview(shopId, apiQuery.toString()),
    placeholderData: keepPreviousData,
    retry: false,
  });
  // An answer that failed leaves the last good one on screen, the error beside its control.
  const [lastGood, setLastGood] = useState<Answer | undefined>(undefined);
  if (data && data !== lastGood) setLastGood(data);
  const shown = data ?? lastGood;
  const trees = useQuery({ queryKey: ['trees', shopId], queryFn: () => api<Trees>(`/admin/api/shops/${shopId}/catalog/trees`) });
  const units = useQuery({ queryKey: ['units', shopId], queryFn: () => api<{ units: Record<string, string> }>(`/admin/api/shops/${shopId}/catalog/units`) });
  const [text, setText] = useState(search.get('search_query') ?? '');
  const [prices, setPrices] = useState({ min: search.get('price_min') ?? '', max: search.get('price_max') ?? '' });

  const filters: Record<string, string[]> = (() => {
    try {
      return JSON.parse(search.get('filters') ?? '{}');
    } catch {
      return {};
    }
  })();
  const setFilters = (next: Record<string, string[]>) => go({ filters: Object.keys(next).length ? JSON.stringify(next) : null });
  const toggleIn = (key: string, value: string) => {
    const current = list(search.get(key));
    const has = current.some((v) => v.toLowerCase() === value.toLowerCase());
    const next = has ? current.filter((v) => v.toLowerCase() !== value.toLowerCase()) : [...current, value];
    go({ [key]: next.join(',') || null });
  };
  const toggleParam = (name: string, value: string) => {
    const current = filters[name] ?? [];
    const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
    const all = { ...filters, [name]: next };
    if (next.length === 0) delete all[name];
    setFilters(all);
  };

  const categoryNodes = new Map((trees.data?.categories ?? []).map((n) => [n.id, n]));
  const locationNodes = new Map((trees.data?.locations ?? []).map((n) => [n.id, n]));
  const sort = search.get('sort_by') ? `${search.get('sort_by')}:${search.get('sort_dir') ?? 'desc'}` : '';
  const view = search.get('view') ?? 'products';
  const page = Number(search.get('page') ?? 1);
  const money = (value: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);

  // Everything chosen, each removable on its own.
  const chips: { label: string; remove: () => void }[] = [];
  if (search.get('search_query')) chips.push({ label: `Search: ${search.get('search_query')}`, remove: () => (setText(''), go({ search_query: null, sort_by: search.get('sort_by') === 'relevance' ? null : search.get('sort_by') })) });
  for (const id of list(search.get('categories'))) chips.push({ label: `Category: ${categoryNodes.get(id) ? pathName(categoryNodes, categoryNodes.get(id)!) : id}`, remove: () => toggleIn('categories', id) });
  for (const id of list(search.get('locations'))) chips.push({ label: `Location: ${locationNodes.get(id)?.name ?? id}`, remove: () => toggleIn('locations', id) });
  for (const brand of list(search.get('brands'))) chips.push({ label: `Brand: ${brand}`, remove: () => toggleIn('brands', brand) });
  for (const color of list(search.get('colors'))) chips.push({ label: `Colour: ${color}`, remove: () => toggleIn('colors', color) });
  for (const size of list(search.get('fashion_sizes'))) chips.push({ label: `Size: ${size}`, remove: () => toggleIn('fashion_sizes', size) });
  for (const [name, values] of Object.entries(filters)) for (const value of values) chips.push({ label: `${name}: ${value}`, remove: () => toggleParam(name, value) });
  if (search.get('price_min') || search.get('price_max')) {
    chips.push({ label: `Price: ${search.get('price_min') ?? '0'} – ${search.get('price_max') ?? 'any'}`, remove: () => (setPrices({ min: '', max: '' }), go({ price_min: null, price_max: null })) });
  }
  if (search.get('available') === 'false') chips.push({ label: 'Out of stock included', remove: () => go({ available: null }) });
  if (search.get('collapse') === 'false') chips.push({ label: 'Every variant', remove: () => go({ collapse: null }) });

  const listing = shown?.listing;
  const resultCounts = new Map((listing?.categories ?? []).map((c) => [c.id, c.count]));

  return (
    <div className="space-y-4">
      <form
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm md:grid-cols-[2fr_1fr_1fr]"
        aria-label="Search and sort"
        onSubmit={(e) => {
          e.preventDefault();
          go({ search_query: text.trim() || null });
        }}
      >
        <div>
          <label htmlFor="preview-search" className="font-medium">
            Search
          </label>
          <div className="mt-1 flex gap-2">
            <input id="preview-search" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Words in names, brands, params…" className={`${inputClass} mt-0`} />
            <button type="submit" className={secondaryButtonClass}>
              Search
            </button>
          </div>
          <Problem error={error} control="search_query" />
        </div>
        <div>
          <label htmlFor="preview-sort" className="font-medium">
            Sort by
          </label>
          <select
            id="preview-sort"
            className={inputClass}
            value={sort}
            onChange={(e) => {
              const [by, dir] = e.target.value.split(':');
              go({ sort_by: by || null, sort_dir: by ? dir : null });
            }}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value} disabled={s.value.startsWith('relevance') && !search.get('search_query')}>
                {s.label}
                {s.value.startsWith('relevance') && !search.get('search_query') ? ' (search first)' : ''}
              </option>
            ))}
          </select>
          <Problem error={error} control="sort_by" />
        </div>
        <div>
          <label htmlFor="preview-location" className="font-medium">
            Location
          </label>
          <select id="preview-location" className={inputClass} value={list(search.get('locations'))[0] ?? ''} onChange={(e) => go({ locations: e.target.value || null })}>
            <option value="">Any location</option>
            {(trees.data?.locations ?? []).map((node) => (
              <option key={node.id} value={node.id}>
                {' '.repeat(node.depth * 2)}
                {node.name}
              </option>
            ))}
          </select>
          <Problem error={error} control="locations" />
        </div>
      </form>

      {chips.length > 0 && (
        <div className="flex flex-wrap items-center gap-2" data-testid="preview-chips" role="group" aria-label="Chosen filters">
          {chips.map((chip) => (
            <button key={chip.label} type="button" onClick={chip.remove} className="break-anywhere rounded-full border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-100" aria-label={`Remove ${chip.label}`}>
              {chip.label} <span aria-hidden="true">×</span>
            </button>
          ))}
          <button type="button" className={`text-sm ${linkClass}`} onClick={() => (setText(''), setPrices({ min: '', max: '' }), clear())}>
            Clear all
          </button>
        </div>
      )}
      {error && controlOf(error.message) === 'general' && <ErrorState>{error.message}</ErrorState>}
      {isPending && <LoadingState>Asking the listing…</LoadingState>}

      {listing && (
        <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
          <aside className="min-w-0 space-y-5 text-sm" data-testid="preview-facets" aria-label="Filters">
            <section aria-labelledby="facet-categories">
              <h3 id="facet-categories" className="mb-1 font-semibold">
                Category
              </h3>
              {list(search.get('categories')).length > 0 && (
                <button type="button" className={`mb-1 ${linkClass}`} onClick={() => go({ categories: null })}>
                  All categories
                </button>
              )}
              <TreeList
                nodes={trees.data?.categories ?? []}
                label="Category tree"
                openDepth={2}
                render={(node) => {
                  const chosen = list(search.get('categories')).includes(node.id);
                  return (
                    <span className="inline-flex gap-2">
                      <button type="button" aria-pressed={chosen} className={`text-left ${chosen ? 'font-semibold text-slate-950' : 'text-blue-800 hover:underline'}`} onClick={(e) => (e.preventDefault(), go({ categories: chosen ? null : node.id }))}>
                        {node.name}
                      </button>
                      <span className="text-slate-600 tabular-nums">{formatCount(resultCounts.get(node.id) ?? 0)}</span>
                    </span>
                  );
                }}
              />
              <Problem error={error} control="categories" />
            </section>
            <section aria-labelledby="facet-price" className="space-y-2">
              <h3 id="facet-price" className="font-semibold">
                Price
              </h3>
              <ul className="flex h-20 items-end gap-1" aria-label="Prices in the result">
                {listing.price_ranges.map((bucket, i) => {
                  const most = Math.max(...listing.price_ranges.map((b) => b.count), 1);
                  const label = `${bucket.from !== undefined ? money(bucket.from) : 'under'} – ${bucket.to !== undefined ? money(bucket.to) : 'and more'}: ${plural(bucket.count, 'product')}`;
                  const chosen = search.get('price_min') === String(bucket.from ?? '') && search.get('price_max') === String(bucket.to ?? '');
                  return (
                    <li key={i} className="flex h-full flex-1 items-end">
                      <button
                        type="button"
                        title={label}
                        aria-label={`Prices ${label}`}
                        aria-pressed={chosen}
                        onClick={() => {
                          setPrices({ min: String(bucket.from ?? ''), max: String(bucket.to ?? '') });
                          go({ price_min: bucket.from !== undefined ? String(bucket.from) : null, price_max: bucket.to !== undefined ? String(bucket.to) : null });
                        }}
                        className={`w-full rounded-t ${chosen ? 'bg-blue-800' : 'bg-slate-400 hover:bg-slate-600'}`}
                        style={{ height: `${Math.max(6, (bucket.count / most) * 100)}%` }}
                      />
                    </li>
                  );
                })}
              </ul>
              <form
                className="flex items-end gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  go({ price_min: prices.min.trim() || null, price_max: prices.max.trim() || null });
                }}
              >
                <label className="min-w-0 flex-1">
                  From
                  <input inputMode="decimal" value={prices.min} onChange={(e) => setPrices({ ...prices, min: e.target.value })} className={inputClass} placeholder={String(listing.price_range.min)} />
                </label>
                <label className="min-w-0 flex-1">
                  To
                  <input inputMode="decimal" value={prices.max} onChange={(e) => setPrices({ ...prices, max: e.target.value })} className={inputClass} placeholder={String(listing.price_range.max)} />
                </label>
                <button type="submit" className={secondaryButtonClass}>
                  Apply
                </button>
              </form>
              <Problem error={error} control="price_min" />
              <Problem error={error} control="price_max" />
            </section>
            <FacetList title="Brand" testId="facet-brands" values={listing.brands.map((b) => [b.name, b.count])} selected={list(search.get('brands'))} onToggle={(v) => toggleIn('brands', v)} />
            {(listing.industrial_filters.colors.length > 0 || list(search.get('colors')).length > 0) && (
              <FacetList title="Colour" values={listing.industrial_filters.colors.map((c) => [c.color, c.count])} selected={list(search.get('colors'))} onToggle={(v) => toggleIn('colors', v)} />
            )}
            {(listing.industrial_filters.fashion_sizes.length > 0 || list(search.get('fashion_sizes')).length > 0) && (
              <FacetList title="Size" values={listing.industrial_filters.fashion_sizes.map((s) => [s.size, s.count])} selected={list(search.get('fashion_sizes'))} onToggle={(v) => toggleIn('fashion_sizes', v)} />
            )}
            {Object.entries(listing.filters).map(([name, filter]) =>
              filter.ranges ? (
                <div key={name}>
                  <h3 className="font-semibold">{name}</h3>
                  <p className="text-slate-700" data-testid={`range-${name}`}>
                    {formatCount(filter.ranges.min)} – {formatCount(filter.ranges.max)} {units.data?.units[name] ?? ''} <span className="text-slate-600">({plural(filter.count, 'product')})</span>
                  </p>
                </div>
              ) : (
                <FacetList key={name} title={name} values={Object.entries(filter.values)} selected={filters[name] ?? []} onToggle={(v) => toggleParam(name, v)} />
              ),
            )}
            {/* Selected params the result no longer has still show, to be unticked. */}
            {Object.entries(filters)
              .filter(([name]) => !listing.filters[name])
              .map(([name, values]) => (
                <FacetList key={name} title={name} values={[]} selected={values} onToggle={(v) => toggleParam(name, v)} />
              ))}
            <fieldset className="space-y-1">
              <legend className="mb-1 font-semibold">Options</legend>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={search.get('collapse') !== 'false'} onChange={(e) => go({ collapse: e.target.checked ? null : 'false' })} /> One product per variant group
              </label>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={search.get('available') === 'false'} onChange={(e) => go({ available: e.target.checked ? 'false' : null })} /> Include products out of stock
              </label>
            </fieldset>
            <Problem error={error} control="filters" />
          </aside>

          <div className="min-w-0 space-y-4">
            <p className="text-sm text-slate-700" data-testid="preview-summary" aria-live="polite">
              <strong className="text-slate-950">{plural(listing.products_total, 'product')}</strong>
              {listing.products_total > 0 && (
                <>
                  {' '}
                  · prices {money(listing.price_range.min)}–{money(listing.price_range.max)}, median {money(listing.price_median)}
                </>
              )}{' '}
              · {shown!.engineMs.toFixed(0)} ms, {plural(listing.requests_count, 'engine query', 'engine queries')}
              {isFetching && <span className="ml-2 text-slate-600">Updating…</span>}
            </p>
            <div role="tablist" aria-label="Show the answer as" className="flex flex-wrap gap-2">
              {VIEWS.map(([key, label]) => (
                <button key={key} type="button" role="tab" aria-selected={view === key} onClick={() => go({ view: key === 'products' ? null : key }, true)} className={`rounded-md border px-3 py-1 text-sm ${view === key ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-800'}`}>
                  {label}
                </button>
              ))}
            </div>
            {view === 'products' && <Cards shopId={shopId} cards={listing.products} />}
            {view === 'html' && <HtmlView html={listing.html} />}
            {view === 'json' && <Code label="The storefront's answer">{JSON.stringify({ ...listing, debug: undefined }, null, 2)}</Code>}
            {view === 'curl' && <Code label="The storefront's request">{`curl '${storefrontUrl(window.location.origin, shopId, search)}'`}</Code>}
            {view === 'products' && listing.products_total > LIMIT && (
              <nav aria-label="Pages of the listing" className="flex items-center gap-3 text-sm">
                <button type="button" className={secondaryButtonClass} disabled={page <= 1} onClick={() => go({ page: page > 2 ? String(page - 1) : null })}>
                  Previous
                </button>
                <span>
                  Page {page} of {formatCount(Math.ceil(listing.products_total / LIMIT))}
                </span>
                <button type="button" className={secondaryButtonClass} disabled={page * LIMIT >= listing.products_total} onClick={() => go({ page: String(page + 1) })}>
                  Next
                </button>
              </nav>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function Cards({ shopId, cards }: { shopId: string; cards: Card[] }) {
  if (cards.length === 0) return <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">No product matches. Remove a filter above.</p>;
  return (
    <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="preview-products">
      {cards.map((p) => (
        <li key={p.id} className="rounded-xl border border-slate-200 bg-white p-3 text-sm">
          <ProductImage src={p.image_url_resized['160']} alt="" size={160} className="mx-auto" />
          {p.brand && <p className="mt-2 text-xs uppercase text-slate-600">{p.brand}</p>}
          <Link href={`/admin/shops/${shopId}/catalog/product?id=${encodeURIComponent(p.id)}`} className={`break-anywhere block font-medium ${linkClass}`}>
            {p.name}
          </Link>
          <p className="mt-1">
            <span className="font-semibold">{p.price_formatted}</span> {p.oldprice > 0 && <s className="text-slate-600">{p.oldprice_formatted}</s>}{' '}
            {p.discount_percent > 0 && <span className="rounded bg-emerald-100 px-1 text-emerald-900">−{p.discount_percent}%</span>}
          </p>
          {p.stock_quantity > 0 && <p className="text-xs text-slate-700">{formatCount(p.stock_quantity)} in stock</p>}
        </li>
      ))}
    </ul>
  );
}

function HtmlView({ html }: { html: string }) {
  const [rendered, setRendered] = useState(false);
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={rendered} onChange={(e) => setRendered(e.target.checked)} /> Show it rendered
      </label>
      {rendered ? (
        <iframe title="The template's HTML, rendered" sandbox="" srcDoc={html} className="h-[32rem] w-full rounded-xl border border-slate-200 bg-white" />
      ) : (
        <Code label="The template's HTML">{html}</Code>
      )}
    </div>
  );
}

function Code({ label, children }: { label: string; children: ReactNode }) {
  return (
    <figure>
      <figcaption className="mb-1 text-sm text-slate-700">{label}</figcaption>
      <pre tabIndex={0} className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-all rounded-xl border border-slate-200 bg-slate-950 p-3 text-xs text-slate-100" data-testid="preview-code">
        {children}
      </pre>
    </figure>
  );
}
