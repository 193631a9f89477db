'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ListingSettings } from '@/lib/shops/listing-settings';

export function ListingSettingsForm({ shopId }: { shopId: string }) {
  const client = useQueryClient();
  const key = ['listing-settings', shopId];
  const { data, error } = useQuery({
    queryKey: key,
    queryFn: async (): Promise<ListingSettings> => {
      const response = await fetch(`/admin/api/shops/${shopId}/listing-settings`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
  });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const save = useMutation({
    mutationFn: async (body: Record<string, unknown>) => {
      const response = await fetch(`/admin/api/shops/${shopId}/listing-settings`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const json = await response.json();
      if (!response.ok) throw new Error(json?.payload?.message ?? `HTTP ${response.status}`);
      return json as ListingSettings;
    },
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      client.invalidateQueries({ queryKey: ['listing-preview', shopId] });
      setMessage({ ok: true, text: 'Saved. Storefronts see it within seconds.' });
    },
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });

  if (error) return <p className="text-red-700">Could not load the listing settings: {error.message}</p>;
  if (!data) return <p className="text-slate-500">Loading settings…</p>;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setMessage(null);
    save.mutate({
      listing_extended_default: form.get('listing_extended_default') === 'on',
      listing_template: String(form.get('listing_template') ?? ''),
      collection_template: String(form.get('collection_template') ?? ''),
    });
  }

  return (
    <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4" key={JSON.stringify(data)}>
      <h2 className="text-lg font-semibold">Settings</h2>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="listing_extended_default" defaultChecked={data.listing_extended_default} />
        Full products when a request does not say <code>extended</code> (what the mobile SDKs expect)
      </label>
      <label className="block text-sm font-medium">
        Listing template (Liquid; leave empty for the built-in one)
        <textarea name="listing_template" defaultValue={data.listing_template ?? ''} placeholder={data.default_listing_template} rows={8} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs" />
      </label>
      <label className="block text-sm font-medium">
        Collection template (Liquid; leave empty for the built-in one)
        <textarea name="collection_template" defaultValue={data.collection_template ?? ''} placeholder={data.default_collection_template} rows={6} className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs" />
      </label>
      <p className="text-xs text-slate-500">
        Templates see <code>products</code> (every field of the listing&apos;s products), <code>products_total</code> and <code>shop.name</code>; values are HTML-escaped.
      </p>
      <div className="flex items-center gap-3">
        <button type="submit" disabled={save.isPending} className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50">
          Save settings
        </button>
        {message && (
          <p role={message.ok ? 'status' : 'alert'} className={`text-sm ${message.ok ? 'text-emerald-700' : 'text-red-700'}`}>
            {message.text}
          </p>
        )}
      </div>
    </form>
  );
}
