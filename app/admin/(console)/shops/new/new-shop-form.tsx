'use client';

import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { api } from '@/app/admin/_ui/api-client';
import { FormMessage, buttonClass, inputClass, linkClass } from '@/app/admin/_ui/feedback';
import { SecretOnce } from '@/app/admin/_ui/secret-once';

export function NewShopForm() {
  const [created, setCreated] = useState<{ shop_id: string; shop_secret: string } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setMessage(null);
    try {
      setCreated(
        await api('/admin/api/shops', {
          method: 'POST',
          body: { name: String(form.get('name')), currency: String(form.get('currency')), listingExtendedDefault: form.get('extended') === 'on' },
        }),
      );
    } catch (error) {
      setMessage({ ok: false, text: (error as Error).message.replace(/^name: is required$/, 'Give the shop a name') });
    } finally {
      setPending(false);
    }
  }

  if (created) {
    return (
      <div className="space-y-4">
        <p role="status" className="text-emerald-800">
          The shop is created.
        </p>
        <SecretOnce shopId={created.shop_id} secret={created.shop_secret} />
        <Link href={`/admin/shops/${created.shop_id}`} className={linkClass}>
          Open the shop
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4 rounded-xl border border-slate-200 bg-white p-4">
      <label className="block text-sm font-medium">
        Name
        <input name="name" required maxLength={200} className={inputClass} />
      </label>
      <label className="block text-sm font-medium">
        Currency (ISO 4217 code)
        <input name="currency" defaultValue="EUR" required maxLength={3} className={`${inputClass} w-28 uppercase`} />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="extended" /> Full products when a listing request does not say <code>extended</code> (what the mobile SDKs expect)
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={buttonClass}>
          {pending ? 'Creating…' : 'Create shop'}
        </button>
        <FormMessage message={message} />
      </div>
    </form>
  );
}
