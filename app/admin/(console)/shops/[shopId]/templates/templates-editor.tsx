'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ShopTemplate, TemplateKind } from '@/lib/storefront/shop-templates';
import { api } from '@/app/admin/_ui/api-client';
import { ConfirmDialog } from '@/app/admin/_ui/confirm-dialog';
import { ErrorState, FormMessage, LoadingState, buttonClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatDateTime } from '@/app/admin/_ui/format';
import { useQueryState } from '@/app/admin/_ui/query-state';

type Templates = Record<TemplateKind, ShopTemplate>;

export function TemplatesEditor({ shopId }: { shopId: string }) {
  const { search, go } = useQueryState();
  const kind: TemplateKind = search.get('kind') === 'collection' ? 'collection' : 'listing';
  const { data, error } = useQuery({ queryKey: ['templates', shopId], queryFn: () => api<Templates>(`/admin/api/shops/${shopId}/templates`) });
  // Kept here: a save gives the editor a new version, and a fresh editor.
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Template" className="flex gap-2">
        {(['listing', 'collection'] as const).map((k) => (
          <button key={k} type="button" role="tab" aria-selected={kind === k} onClick={() => (setMessage(null), go({ kind: k === 'listing' ? null : k }))} className={`rounded-md border px-3 py-1 text-sm ${kind === k ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-800'}`}>
            {k === 'listing' ? 'Listing template' : 'Collection template'}
          </button>
        ))}
      </div>
      {error && <ErrorState>Could not load the templates: {error.message}</ErrorState>}
      {!data && !error && <LoadingState>Loading templates…</LoadingState>}
      {data && <Editor key={`${kind}:${data[kind].versions[0]?.id ?? 0}`} shopId={shopId} template={data[kind]} message={message} setMessage={setMessage} />}
    </div>
  );
}

function Editor({ shopId, template, message, setMessage }: { shopId: string; template: ShopTemplate; message: { ok: boolean; text: string } | null; setMessage: (message: { ok: boolean; text: string } | null) => void }) {
  const client = useQueryClient();
  // The built-in template is where editing starts when the shop has none of its own.
  const [draft, setDraft] = useState(template.source ?? template.default_source);
  const [preview, setPreview] = useState<{ html: string } | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const onSaved = (saved: Record<TemplateKind, ShopTemplate>, text: string) => {
    client.setQueryData(['templates', shopId], saved);
    client.invalidateQueries({ queryKey: ['listing-preview', shopId] });
    setMessage({ ok: true, text });
  };
  const save = useMutation({
    mutationFn: (source: string | null) => api<Record<TemplateKind, ShopTemplate>>(`/admin/api/shops/${shopId}/templates`, { method: 'PUT', body: { kind: template.kind, source } }),
    onSuccess: (saved, source) => onSaved(saved, source === null ? 'The built-in template is back. Storefronts see it within seconds.' : 'Saved. Storefronts see it within seconds.'),
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });
  const restore = useMutation({
    mutationFn: (version: number) => api<Record<TemplateKind, ShopTemplate>>(`/admin/api/shops/${shopId}/templates/restore`, { method: 'POST', body: { kind: template.kind, version } }),
    onSuccess: (saved, version) => onSaved(saved, `Version ${version} restored.`),
    onError: (e) => setMessage({ ok: false, text: e.message }),
  });

  async function showPreview() {
    setPreviewError(null);
    try {
      const listing = await api<{ products: unknown[]; products_total: number }>(`/admin/api/shops/${shopId}/listing-preview?limit=12`);
      setPreview(await api<{ html: string }>(`/admin/api/shops/${shopId}/templates/preview`, { method: 'POST', body: { kind: template.kind, source: draft, products: listing.products, products_total: listing.products_total } }));
    } catch (error) {
      setPreview(null);
      setPreviewError((error as Error).message);
    }
  }

  const changed = draft !== (template.source ?? template.default_source);
  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <div className="min-w-0 space-y-3">
        <p className="text-sm text-slate-700">
          {template.source === null ? 'The shop uses the built-in template; edit it here to make it your own.' : 'The shop uses its own template.'} Templates see <code>products</code> (every field of the
          listing&apos;s products), <code>products_total</code>
          {template.kind === 'collection' && (
            <>
              , <code>collection.name</code>
            </>
          )}{' '}
          and <code>shop.name</code>; values are HTML-escaped.
        </p>
        <label className="block text-sm font-medium">
          {template.kind === 'listing' ? 'Listing template (Liquid)' : 'Collection template (Liquid)'}
          <textarea value={draft} onChange={(e) => setDraft(e.target.value)} rows={16} spellCheck={false} className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-xs" />
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={secondaryButtonClass} onClick={showPreview}>
            Preview the draft
          </button>
          <button type="button" className={buttonClass} disabled={save.isPending} onClick={() => (setMessage(null), save.mutate(draft))}>
            Save template
          </button>
          {template.source !== null && (
            <button type="button" className={secondaryButtonClass} onClick={() => setConfirmReset(true)}>
              Use the built-in template
            </button>
          )}
          {changed && <span className="text-sm text-amber-900">Not saved yet</span>}
        </div>
        <FormMessage message={message} />
        {previewError && <ErrorState>{previewError}</ErrorState>}
        {preview && (
          <section aria-label="Draft preview" className="space-y-2">
            <h3 className="font-semibold">The draft on the listing&apos;s first products</h3>
            <iframe title="Draft preview" sandbox="" srcDoc={preview.html} className="h-96 w-full rounded-xl border border-slate-200 bg-white" />
            <details>
              <summary className="cursor-pointer text-sm">Its HTML</summary>
              <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-950 p-3 text-xs text-slate-100" data-testid="draft-html">
                {preview.html}
              </pre>
            </details>
          </section>
        )}
      </div>
      <section aria-labelledby="versions-title" className="min-w-0">
        <h3 id="versions-title" className="mb-2 font-semibold">
          Versions
        </h3>
        {template.versions.length === 0 ? (
          <p className="text-sm text-slate-700">No version saved in the app yet.</p>
        ) : (
          <ol className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white text-sm" data-testid="template-versions">
            {template.versions.map((v, i) => (
              <li key={v.id} className="space-y-1 px-3 py-2">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">Version {v.id}</span>
                  {i === 0 && <span className="rounded bg-emerald-100 px-1.5 text-xs text-emerald-900">current</span>}
                  <span className="text-slate-600">
                    {formatDateTime(v.saved_at)}
                    {v.saved_by ? ` by ${v.saved_by}` : ' (before versions were kept)'}
                  </span>
                </p>
                <details>
                  <summary className="cursor-pointer text-slate-700">{v.source === null ? 'The built-in template' : `${v.source.length.toLocaleString('en-US')} characters`}</summary>
                  <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs">{v.source ?? template.default_source}</pre>
                </details>
                {i > 0 && (
                  <button type="button" className={secondaryButtonClass} onClick={() => (setMessage(null), restore.mutate(v.id))}>
                    Restore version {v.id}
                  </button>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
      <ConfirmDialog
        open={confirmReset}
        title="Use the built-in template?"
        confirmLabel="Use the built-in template"
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => {
          setConfirmReset(false);
          setMessage(null);
          save.mutate(null);
        }}
      >
        Storefronts get the built-in template again. The shop&apos;s own stays in the versions and can be restored.
      </ConfirmDialog>
    </div>
  );
}
