'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { ShopSettings } from '@/lib/shops/shop-settings';
import { api } from '@/app/admin/_ui/api-client';
import { ConfirmDialog } from '@/app/admin/_ui/confirm-dialog';
import { ErrorState, FormMessage, LoadingState, buttonClass, inputClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { SecretOnce } from '@/app/admin/_ui/secret-once';

export function ShopSettingsForm({ shopId }: { shopId: string }) {
  const client = useQueryClient();
  const router = useRouter();
  const key = ['shop-settings', shopId];
  const { data, error } = useQuery({ queryKey: key, queryFn: () => api<ShopSettings>(`/admin/api/shops/${shopId}/settings`) });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: unknown) => api<ShopSettings>(`/admin/api/shops/${shopId}/settings`, { method: 'PUT', body }),
    onSuccess: (saved) => {
      client.setQueryData(key, saved);
      setMessage({ ok: true, text: 'Saved.' });
      router.refresh(); // the page's title shows the name
    },
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  const rotate = useMutation({
    mutationFn: () => api<{ shop_secret: string }>(`/admin/api/shops/${shopId}/secret`, { method: 'POST' }),
    onSuccess: (answer) => setSecret(answer.shop_secret),
  });

  if (error) return <ErrorState>Could not load the settings: {error.message}</ErrorState>;
  if (!data) return <LoadingState>Loading settings…</LoadingState>;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setMessage(null);
    save.mutate({ name: String(form.get('name')), currency: String(form.get('currency')), listing_extended_default: form.get('extended') === 'on' });
  }

  return (
    <div className="max-w-2xl space-y-8">
      <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4" key={JSON.stringify(data)}>
        <h2 className="text-lg font-semibold">Shop</h2>
        <label className="block text-sm font-medium">
          Name
          <input name="name" defaultValue={data.name} required maxLength={200} className={inputClass} />
        </label>
        <label className="block text-sm font-medium">
          Currency (ISO 4217 code)
          <input name="currency" defaultValue={data.currency} required maxLength={3} className={`${inputClass} w-28 uppercase`} />
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="extended" defaultChecked={data.listing_extended_default} /> Full products when a listing request does not say <code>extended</code> (what the
          mobile SDKs expect)
        </label>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={save.isPending} className={buttonClass}>
            Save settings
          </button>
          <FormMessage message={message} />
        </div>
      </form>

      <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" aria-labelledby="secret-title">
        <h2 id="secret-title" className="text-lg font-semibold">
          Shop secret
        </h2>
        <p className="text-sm text-slate-700">
          The shop&apos;s import client sends its id and secret with every import. A new secret replaces the old one at once: imports still sending the old one are refused.
        </p>
        {secret ? (
          <SecretOnce shopId={shopId} secret={secret} />
        ) : (
          <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(true)}>
            Replace the secret…
          </button>
        )}
        {rotate.error && <ErrorState>{rotate.error.message}</ErrorState>}
      </section>
      <ConfirmDialog
        open={confirming}
        title="Replace the shop secret?"
        confirmLabel="Replace the secret"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          rotate.mutate();
        }}
      >
        The current secret stops working now. Update the shop&apos;s import client with the new one.
      </ConfirmDialog>
    </div>
  );
}
