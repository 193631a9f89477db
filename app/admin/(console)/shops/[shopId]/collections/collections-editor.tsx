'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Collection } from '@/lib/collections/manage-collections';

type Product = { id: string; name: string; price_formatted: string; group_id: string; image_url_resized: Record<string, string> };

const EXAMPLE = JSON.stringify({ groups: [{ categories: ['1'], discount: true, limit: 12 }, { brands: ['Acme'], price_max: 100, limit: 6 }] }, null, 2);

async function send(url: string, method: string, body?: unknown) {
  const response = await fetch(url, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await response.json().catch(() => null);
  if (!response.ok) throw new Error(json?.payload?.message ?? `HTTP ${response.status}`);
  return json;
}

function Preview({ shopId, id }: { shopId: string; id: number }) {
  const [location, setLocation] = useState('');
  const { data, error, isFetching } = useQuery({
    queryKey: ['collection-preview', shopId, id, location],
    queryFn: async (): Promise<Product[]> => {
      const query = new URLSearchParams({ shop_id: shopId, ...(location ? { location } : {}) });
      return (await send(`/collection/${id}?${query}`, 'GET')).products;
    },
  });
  return (
    <div className="space-y-2">
      <label className="text-sm">
        In location{' '}
        <input value={location} onChange={(e) => setLocation(e.target.value)} placeholder="any" className="w-32 rounded-md border border-slate-300 px-2 py-0.5" />
      </label>
      {isFetching && <span className="ml-2 text-sm text-slate-500">Loading…</span>}
      {error && <p className="text-sm text-red-700">{error.message}</p>}
      {data && data.length === 0 && <p className="text-sm text-slate-500">No product matches these rules right now.</p>}
      {data && data.length > 0 && (
        <ul className="grid grid-cols-3 gap-3 md:grid-cols-6" data-testid={`collection-products-${id}`}>
          {data.map((p) => (
            <li key={p.id} className="rounded-lg border border-slate-200 p-2 text-xs">
              {/* eslint-disable-next-line @next/next/no-img-element -- the service's own resizer */}
              <img src={p.image_url_resized['120']} alt={p.name} width={120} height={120} loading="lazy" className="mx-auto h-24 w-24 rounded bg-slate-100 object-contain" />
              <p className="mt-1 font-medium">{p.name}</p>
              <p>
                {p.price_formatted} · group {p.group_id}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CollectionForm({ initial, submitLabel, onSubmit, pending }: { initial: { name: string; rules: string }; submitLabel: string; onSubmit: (name: string, rules: unknown) => void; pending: boolean }) {
  const [jsonError, setJsonError] = useState<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    let rules: unknown;
    try {
      rules = JSON.parse(String(form.get('rules')));
    } catch (error) {
      setJsonError(`Rules are not JSON: ${(error as Error).message}`);
      return;
    }
    setJsonError(null);
    onSubmit(String(form.get('name')), rules);
  }
  return (
    <form onSubmit={submit} className="space-y-2">
      <label className="block text-sm font-medium">
        Name
        <input name="name" defaultValue={initial.name} required className="mt-1 block w-80 rounded-md border border-slate-300 px-3 py-1.5" />
      </label>
      <label className="block text-sm font-medium">
        Rules
        <textarea name="rules" defaultValue={initial.rules} rows={8} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs" />
      </label>
      {jsonError && (
        <p role="alert" className="text-sm text-red-700">
          {jsonError}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
        {submitLabel}
      </button>
    </form>
  );
}

export function CollectionsEditor({ shopId }: { shopId: string }) {
  const client = useQueryClient();
  const key = ['collections', shopId];
  const base = `/admin/api/shops/${shopId}/collections`;
  const { data, error } = useQuery({ queryKey: key, queryFn: async (): Promise<Collection[]> => (await send(base, 'GET')).collections });
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => {
    setProblem(null);
    client.invalidateQueries({ queryKey: key });
    client.invalidateQueries({ queryKey: ['collection-preview', shopId] });
  };
  const create = useMutation({ mutationFn: (body: { name: string; rules: unknown }) => send(base, 'POST', body), onSuccess: refresh, onError: (e) => setProblem(e.message) });
  const update = useMutation({
    mutationFn: ({ id, ...body }: { id: number; name: string; rules: unknown }) => send(`${base}/${id}`, 'PUT', body),
    onSuccess: refresh,
    onError: (e) => setProblem(e.message),
  });
  const remove = useMutation({ mutationFn: (id: number) => send(`${base}/${id}`, 'DELETE'), onSuccess: refresh, onError: (e) => setProblem(e.message) });

  return (
    <div className="space-y-6">
      {problem && (
        <p role="alert" data-testid="collections-problem" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {problem}
        </p>
      )}
      {error && <p className="text-red-700">Could not load collections: {error.message}</p>}
      {data?.map((collection) => (
        <article key={`${collection.id}:${String(collection.updated_at)}`} className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" data-testid={`collection-${collection.id}`}>
          <header className="flex items-baseline justify-between">
            <h2 className="text-lg font-semibold">
              #{collection.id} {collection.name}
            </h2>
            <button type="button" className="text-sm text-red-700 underline" onClick={() => confirm(`Delete collection #${collection.id}?`) && remove.mutate(collection.id)}>
              Delete
            </button>
          </header>
          <Preview shopId={shopId} id={collection.id} />
          <details>
            <summary className="cursor-pointer text-sm text-slate-600">Edit</summary>
            <CollectionForm
              initial={{ name: collection.name, rules: JSON.stringify(collection.rules, null, 2) }}
              submitLabel="Save collection"
              pending={update.isPending}
              onSubmit={(name, rules) => update.mutate({ id: collection.id, name, rules })}
            />
          </details>
        </article>
      ))}
      {data && data.length === 0 && <p className="text-slate-500">No collections yet.</p>}
      <section className="rounded-xl border border-dashed border-slate-300 p-4">
        <h2 className="mb-2 text-lg font-semibold">New collection</h2>
        <p className="mb-2 text-xs text-slate-500">
          A product is shown when it matches any group (every field of a group applies): categories (with their subcategories), brands, price_min, price_max, params, ids,
          exclude_ids, discount, limit.
        </p>
        <CollectionForm key={data?.length ?? 0} initial={{ name: '', rules: EXAMPLE }} submitLabel="Create collection" pending={create.isPending} onSubmit={(name, rules) => create.mutate({ name, rules })} />
      </section>
    </div>
  );
}
