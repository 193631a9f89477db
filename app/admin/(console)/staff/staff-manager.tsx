'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { StaffAccount } from '@/lib/staff/manage-staff';
import { api } from '@/app/admin/_ui/api-client';
import { ConfirmDialog } from '@/app/admin/_ui/confirm-dialog';
import { Badge, ErrorState, FormMessage, LoadingState, buttonClass, inputClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatDateTime } from '@/app/admin/_ui/format';

type Shop = { id: string; name: string };
type Message = { ok: boolean; text: string } | null;

/** Admin of every shop, or the shops ticked; technical notices. */
function AccessFields({ shops, initial }: { shops: Shop[]; initial?: StaffAccount }) {
  const [admin, setAdmin] = useState(initial?.is_admin ?? false);
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="is_admin" checked={admin} onChange={(e) => setAdmin(e.target.checked)} /> Admin of every shop (also manages shops and staff)
      </label>
      {!admin && (
        <fieldset className="rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium">Shops this person sees</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {shops.map((shop) => (
              <label key={shop.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="shops" value={shop.id} defaultChecked={initial?.shops.includes(shop.id)} /> {shop.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="technical_notices" defaultChecked={initial?.technical_notices} /> Emails about failed imports (technical notices)
      </label>
    </>
  );
}

const access = (form: FormData) => ({ is_admin: form.get('is_admin') === 'on', shops: form.getAll('shops').map(String), technical_notices: form.get('technical_notices') === 'on' });

function StaffRow({ account, shops, selfId, onChanged }: { account: StaffAccount; shops: Shop[]; selfId: number; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [confirming, setConfirming] = useState(false);
  const base = `/admin/api/staff/${account.id}`;
  const run = (work: () => Promise<unknown>, done: string) =>
    work().then(
      () => {
        setMessage({ ok: true, text: done });
        onChanged();
      },
      (e: Error) => setMessage({ ok: false, text: e.message }),
    );
  const names = account.is_admin ? 'Every shop' : account.shops.map((id) => shops.find((s) => s.id === id)?.name ?? id).join(', ');
  return (
    <li className="space-y-2 px-4 py-3" data-testid={`staff-${account.email}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="break-anywhere font-medium">{account.email}</span>
        {account.is_admin && <Badge tone="blue">Admin</Badge>}
        {account.technical_notices && <Badge tone="grey">Technical notices</Badge>}
        {account.id === selfId && <Badge tone="green">You</Badge>}
        <span className="ml-auto flex gap-2">
          <button type="button" className={secondaryButtonClass} aria-expanded={editing} onClick={() => setEditing(!editing)}>
            {editing ? 'Close' : 'Edit'} <span className="sr-only">{account.email}</span>
          </button>
          {account.id !== selfId && (
            <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(true)}>
              Remove <span className="sr-only">{account.email}</span>
            </button>
          )}
        </span>
      </div>
      <p className="text-sm text-slate-700">
        {names || 'No shop'} · since {formatDateTime(account.created_at)}
      </p>
      {editing && (
        <div className="grid gap-4 rounded-lg bg-slate-50 p-3 md:grid-cols-2">
          <form
            className="space-y-3"
            onSubmit={(e: FormEvent<HTMLFormElement>) => {
              e.preventDefault();
              run(() => api(base, { method: 'PUT', body: access(new FormData(e.currentTarget)) }), 'Access saved.');
            }}
          >
            <AccessFields shops={shops} initial={account} />
            <button type="submit" className={buttonClass}>
              Save access
            </button>
          </form>
          <form
            className="space-y-3"
            onSubmit={(e: FormEvent<HTMLFormElement>) => {
              e.preventDefault();
              const form = e.currentTarget;
              run(() => api(`${base}/password`, { method: 'PUT', body: { password: String(new FormData(form).get('password')) } }), 'Password set; their sessions ended.').then(() => form.reset());
            }}
          >
            <label className="block text-sm font-medium">
              New password
              <input name="password" type="password" autoComplete="new-password" minLength={8} required className={inputClass} />
            </label>
            <button type="submit" className={secondaryButtonClass}>
              Reset password
            </button>
          </form>
        </div>
      )}
      <FormMessage message={message} />
      <ConfirmDialog
        open={confirming}
        title={`Remove ${account.email}?`}
        confirmLabel="Remove account"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          run(() => api(base, { method: 'DELETE' }), 'Removed.');
        }}
      >
        They are signed out at once and can no longer sign in.
      </ConfirmDialog>
    </li>
  );
}

export function StaffManager({ shops, selfId }: { shops: Shop[]; selfId: number }) {
  const client = useQueryClient();
  const { data, error } = useQuery({ queryKey: ['staff'], queryFn: () => api<{ staff: StaffAccount[] }>('/admin/api/staff') });
  const [message, setMessage] = useState<Message>(null);
  const [formKey, setFormKey] = useState(0);
  const refresh = () => client.invalidateQueries({ queryKey: ['staff'] });
  const create = useMutation({
    mutationFn: (body: unknown) => api('/admin/api/staff', { method: 'POST', body }),
    onSuccess: () => {
      setMessage({ ok: true, text: 'Account created. Give them the password; they can sign in now.' });
      setFormKey(formKey + 1);
      refresh();
    },
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  return (
    <div className="space-y-6">
      {error && <ErrorState>Could not load staff: {error.message}</ErrorState>}
      {!data && !error && <LoadingState>Loading staff…</LoadingState>}
      {data && (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white" data-testid="staff-list">
          {data.staff.map((account) => (
            <StaffRow key={`${account.id}:${account.is_admin}:${account.shops.join()}:${account.technical_notices}`} account={account} shops={shops} selfId={selfId} onChanged={refresh} />
          ))}
        </ul>
      )}
      <form
        key={formKey}
        className="space-y-3 rounded-xl border border-dashed border-slate-300 bg-white p-4"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          setMessage(null);
          create.mutate({ email: String(form.get('email')), password: String(form.get('password')), ...access(form) });
        }}
      >
        <h2 className="text-lg font-semibold">Add a staff member</h2>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block text-sm font-medium">
            Email
            <input name="email" type="email" required autoComplete="off" className={inputClass} />
          </label>
          <label className="block text-sm font-medium">
            First password
            <input name="password" type="password" required minLength={8} autoComplete="new-password" className={inputClass} />
          </label>
        </div>
        <AccessFields shops={shops} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={create.isPending} className={buttonClass}>
            Add staff member
          </button>
          <FormMessage message={message} />
        </div>
      </form>
    </div>
  );
}
