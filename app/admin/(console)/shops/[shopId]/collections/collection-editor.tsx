'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { notFound, useRouter } from 'next/navigation';
import { useDeferredValue, useState } from 'react';
import type { RulesPreview } from '@/lib/collections/collection-previews';
import type { Collection } from '@/lib/collections/manage-collections';
import type { CollectionRules, RuleGroup } from '@/lib/collections/schemas';
import type { Trees } from '@/lib/catalog/browse-trees';
import { api, ApiError } from '@/app/admin/_ui/api-client';
import { ConfirmDialog } from '@/app/admin/_ui/confirm-dialog';
import { ErrorState, FormMessage, LoadingState, buttonClass, inputClass, linkClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount, plural } from '@/app/admin/_ui/format';
import { ProductImage } from '@/app/admin/_ui/product-image';
import { GroupEditor, type Choices } from './rule-builder';

type Facets = { brands: { name: string; count: number }[]; filters: Record<string, { values: Record<string, number>; ranges?: unknown }> };

export function CollectionEditor({ shopId, currency, collectionId }: { shopId: string; currency: string; collectionId?: number }) {
  const base = `/admin/api/shops/${shopId}/collections`;
  const existing = useQuery({ queryKey: ['collection', shopId, collectionId], queryFn: () => api<Collection>(`${base}/${collectionId}`), enabled: collectionId !== undefined, retry: false });
  const trees = useQuery({ queryKey: ['trees', shopId], queryFn: () => api<Trees>(`/admin/api/shops/${shopId}/catalog/trees`) });
  const facets = useQuery({ queryKey: ['facets', shopId], queryFn: () => api<Facets>(`/admin/api/shops/${shopId}/listing-preview?limit=1&brand_limit=1000`) });
  if (existing.error instanceof ApiError && existing.error.status === 404) notFound();
  if (existing.error) return <ErrorState>{existing.error.message}</ErrorState>;
  if ((collectionId !== undefined && !existing.data) || !trees.data || !facets.data) return <LoadingState>Loading the collection…</LoadingState>;
  const choices: Choices = {
    categories: trees.data.categories,
    brands: facets.data.brands.map((b) => [b.name, b.count]),
    params: Object.fromEntries(Object.entries(facets.data.filters).filter(([, f]) => !f.ranges).map(([name, f]) => [name, Object.entries(f.values)])),
  };
  return <Editor shopId={shopId} currency={currency} collection={existing.data} choices={choices} locations={trees.data.locations} />;
}

function Editor({ shopId, currency, collection, choices, locations }: { shopId: string; currency: string; collection?: Collection; choices: Choices; locations: Trees['locations'] }) {
  const router = useRouter();
  const client = useQueryClient();
  const base = `/admin/api/shops/${shopId}/collections`;
  const [name, setName] = useState(collection?.name ?? '');
  const [rules, setRules] = useState<CollectionRules>(collection?.rules ?? { groups: [{ limit: 24 }] });
  const [mode, setMode] = useState<'builder' | 'json'>('builder');
  const [json, setJson] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [location, setLocation] = useState('');
  const [page, setPage] = useState(1);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const draft = useDeferredValue(rules);

  const preview = useQuery({
    queryKey: ['collection-preview', shopId, JSON.stringify(draft), location, page],
    queryFn: () => api<RulesPreview>(`${base}/preview`, { method: 'POST', body: { rules: draft, location: location || null, page } }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const save = useMutation({
    mutationFn: () => (collection ? api(`${base}/${collection.id}`, { method: 'PUT', body: { name, rules } }) : api<{ id: number }>(base, { method: 'POST', body: { name, rules } })),
    onSuccess: (saved) => {
      client.invalidateQueries({ queryKey: ['collections', shopId] });
      if (collection) {
        client.invalidateQueries({ queryKey: ['collection', shopId, collection.id] });
        setMessage({ ok: true, text: 'Saved. Storefronts see the new rules within seconds.' });
        router.refresh(); // the title shows the name
      } else router.push(`/admin/shops/${shopId}/collections/${(saved as { id: number }).id}?created=1`);
    },
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  const remove = useMutation({
    mutationFn: () => api(`${base}/${collection!.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ['collections', shopId] });
      router.push(`/admin/shops/${shopId}/collections`);
    },
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });

  const switchTo = (next: 'builder' | 'json') => {
    if (next === 'json') {
      setJson(JSON.stringify(rules, null, 2));
      setJsonError(null);
      setMode('json');
      return;
    }
    try {
      const parsed = JSON.parse(json);
      if (!parsed || !Array.isArray(parsed.groups)) throw new Error('the rules need a "groups" list');
      setRules(parsed);
      setMode('builder');
    } catch (error) {
      setJsonError(`The JSON cannot be used: ${(error as Error).message}`);
    }
  };
  const setGroup = (i: number, group: RuleGroup) => setRules({ groups: rules.groups.map((g, j) => (j === i ? group : g)) });
  const money = (value: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(value);
  const created = typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('created') === '1';

  return (
    <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
      <form
        className="min-w-0 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          setMessage(null);
          if (mode === 'json') {
            try {
              setRules(JSON.parse(json));
            } catch (error) {
              setJsonError(`The JSON cannot be used: ${(error as Error).message}`);
              return;
            }
          }
          save.mutate();
        }}
      >
        {created && !message && (
          <p role="status" className="text-emerald-800">
            Collection created.
          </p>
        )}
        <label className="block text-sm font-medium">
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} className={`${inputClass} sm:w-96`} />
        </label>
        <div role="tablist" aria-label="Edit the rules with" className="flex gap-2">
          <button type="button" role="tab" aria-selected={mode === 'builder'} onClick={() => switchTo('builder')} className={`rounded-md border px-3 py-1 text-sm ${mode === 'builder' ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white'}`}>
            Rule builder
          </button>
          <button type="button" role="tab" aria-selected={mode === 'json'} onClick={() => switchTo('json')} className={`rounded-md border px-3 py-1 text-sm ${mode === 'json' ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white'}`}>
            JSON (advanced)
          </button>
        </div>
        {mode === 'builder' ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">A product is shown when it is in stock and matches any group; within a group, everything set must hold.</p>
            {rules.groups.map((group, i) => (
              <GroupEditor key={i} index={i} group={group} choices={choices} onChange={(g) => setGroup(i, g)} onRemove={rules.groups.length > 1 ? () => setRules({ groups: rules.groups.filter((_, j) => j !== i) }) : undefined} />
            ))}
            <button type="button" className={secondaryButtonClass} onClick={() => setRules({ groups: [...rules.groups, { limit: 24 }] })}>
              Add a group (or…)
            </button>
          </div>
        ) : (
          <label className="block text-sm font-medium">
            Rules as JSON
            <textarea
              value={json}
              onChange={(e) => {
                setJson(e.target.value);
                try {
                  setRules(JSON.parse(e.target.value));
                  setJsonError(null);
                } catch {
                  // still being typed
                }
              }}
              rows={14}
              spellCheck={false}
              className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-xs"
            />
          </label>
        )}
        {jsonError && (
          <p role="alert" className="text-sm text-red-800">
            {jsonError}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={save.isPending} className={buttonClass}>
            {collection ? 'Save collection' : 'Create collection'}
          </button>
          {collection && (
            <button type="button" className={secondaryButtonClass} onClick={() => setConfirmDelete(true)}>
              Delete collection
            </button>
          )}
          <Link href={`/admin/shops/${shopId}/collections`} className={`text-sm ${linkClass}`}>
            All collections
          </Link>
        </div>
        <FormMessage message={message} />
      </form>

      <section aria-labelledby="preview-title" className="min-w-0 space-y-3">
        <h2 id="preview-title" className="text-lg font-semibold">
          What it shows
        </h2>
        <label className="block text-sm font-medium">
          In location
          <select value={location} onChange={(e) => (setLocation(e.target.value), setPage(1))} className={inputClass}>
            <option value="">Anywhere</option>
            {locations.map((node) => (
              <option key={node.id} value={node.id}>
                {' '.repeat(node.depth * 2)}
                {node.name}
              </option>
            ))}
          </select>
        </label>
        {preview.error && <ErrorState>{preview.error.message}</ErrorState>}
        {preview.data && (
          <>
            <p className="font-medium" data-testid="collection-count">
              {plural(preview.data.total, 'product')}
            </p>
            {preview.data.warnings.length > 0 && (
              <ul className="space-y-1 rounded-lg bg-amber-50 p-3 text-sm text-amber-950" data-testid="collection-warnings">
                {preview.data.warnings.map((w) => (
                  <li key={w}>⚠ {w}</li>
                ))}
              </ul>
            )}
            <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3" data-testid="collection-products">
              {preview.data.products.map((p) => (
                <li key={p.id} className="rounded-lg border border-slate-200 bg-white p-2 text-xs">
                  <ProductImage src={p.picture} alt="" size={112} className="mx-auto" />
                  <p className="break-anywhere mt-1 font-medium">{p.name}</p>
                  <p>
                    {money(p.price)} · group {p.group + 1}
                  </p>
                </li>
              ))}
            </ul>
            {preview.data.pages > 1 && (
              <nav aria-label="Pages of the collection" className="flex items-center gap-3 text-sm">
                <button type="button" className={secondaryButtonClass} disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span>
                  Page {page} of {formatCount(preview.data.pages)}
                </span>
                <button type="button" className={secondaryButtonClass} disabled={page >= preview.data.pages} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </nav>
            )}
          </>
        )}
      </section>
      {collection && (
        <ConfirmDialog open={confirmDelete} title={`Delete “${collection.name}”?`} confirmLabel="Delete collection" onCancel={() => setConfirmDelete(false)} onConfirm={() => (setConfirmDelete(false), remove.mutate())}>
          Storefronts asking for collection {collection.id} get “Collection not found” from now on.
        </ConfirmDialog>
      )}
    </div>
  );
}
