'use client';

import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import type { presentImportDetail } from '@/lib/imports/import-records';

type ImportRow = ReturnType<typeof presentImportDetail>;

const statusStyle: Record<ImportRow['status'], string> = {
  queued: 'bg-slate-100 text-slate-700',
  running: 'bg-blue-100 text-blue-800',
  done: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
};

function duration(row: ImportRow): string {
  if (!row.started_at) return '—';
  const end = row.finished_at ? Date.parse(row.finished_at) : Date.now();
  const ms = end - Date.parse(row.started_at);
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

async function fetchImports(shopId: string): Promise<ImportRow[]> {
  const response = await fetch(`/admin/api/shops/${shopId}/imports`);
  if (response.status === 401) {
    window.location.href = '/admin/login';
    return [];
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()).imports;
}

function Problems({ title, items }: { title: string; items: ImportRow['errors'] }) {
  if (items.length === 0) return null;
  return (
    <div>
      <h3 className="mb-1 font-medium">{title}</h3>
      <ul className="max-h-64 space-y-1 overflow-auto font-mono text-xs">
        {items.map((p, i) => (
          <li key={i}>
            {p.position !== undefined && <span className="text-slate-500">#{p.position} </span>}
            {p.item_id && <span className="text-slate-500">id {p.item_id}: </span>}
            {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ImportsTable({ shopId }: { shopId: string }) {
  const [open, setOpen] = useState<number | null>(null);
  const { data, error, isPending } = useQuery({
    queryKey: ['imports', shopId],
    queryFn: () => fetchImports(shopId),
    // Poll quickly while something is in flight, slowly otherwise so new imports still show up.
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'queued' || r.status === 'running') ? 1000 : 3000),
  });

  if (isPending) return <p className="text-slate-500">Loading imports…</p>;
  if (error) return <p className="text-red-700">Could not load imports: {String(error.message)}</p>;
  if (data.length === 0) {
    return <p className="text-slate-500">No imports yet. They appear here as soon as the shop sends one.</p>;
  }
  return (
    <table className="w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-sm" data-testid="imports-table">
      <thead className="bg-slate-100 text-left text-xs uppercase text-slate-500">
        <tr>
          <th className="px-3 py-2">#</th>
          <th className="px-3 py-2">Operation</th>
          <th className="px-3 py-2">Status</th>
          <th className="px-3 py-2">Received</th>
          <th className="px-3 py-2">Duration</th>
          <th className="px-3 py-2 text-right">Items</th>
          <th className="px-3 py-2 text-right">Applied</th>
          <th className="px-3 py-2 text-right">Rejected</th>
          <th className="px-3 py-2 text-right">Warnings</th>
        </tr>
      </thead>
      <tbody>
        {data.map((row) => (
          <Fragment key={row.id}>
            <tr
              data-testid={`import-${row.id}`}
              className="cursor-pointer border-t border-slate-100 hover:bg-slate-50"
              onClick={() => setOpen(open === row.id ? null : row.id)}
            >
              <td className="px-3 py-2 font-mono">{row.id}</td>
              <td className="px-3 py-2 font-mono">{row.operation}</td>
              <td className="px-3 py-2">
                <span data-testid="import-status" className={`rounded-full px-2 py-0.5 text-xs font-medium ${statusStyle[row.status]}`}>
                  {row.status}
                </span>
              </td>
              <td className="px-3 py-2 text-slate-600">{row.received_at ? new Date(row.received_at).toLocaleString() : '—'}</td>
              <td className="px-3 py-2 text-slate-600">{duration(row)}</td>
              <td className="px-3 py-2 text-right">{row.items_total ?? '—'}</td>
              <td className="px-3 py-2 text-right">{row.items_applied ?? '—'}</td>
              <td className={`px-3 py-2 text-right ${row.items_rejected ? 'font-semibold text-red-700' : ''}`}>{row.items_rejected ?? '—'}</td>
              <td className="px-3 py-2 text-right">{row.warnings.length}</td>
            </tr>
            {open === row.id && (
              <tr className="border-t border-slate-100 bg-slate-50">
                <td colSpan={9} className="space-y-3 px-5 py-4">
                  {row.message && <p className="font-medium">{row.message}</p>}
                  <Problems title="Errors" items={row.errors} />
                  <Problems title="Warnings" items={row.warnings} />
                  {row.webhook && (
                    <div>
                      <h3 className="mb-1 font-medium">Webhook {row.webhook}</h3>
                      <ul className="font-mono text-xs">
                        {row.webhook_attempts.length === 0 && <li>not sent yet</li>}
                        {row.webhook_attempts.map((a, i) => (
                          <li key={i}>
                            {new Date(a.at).toLocaleString()}: {a.outcome}
                            {a.status ? ` (HTTP ${a.status})` : ''}
                            {a.message ? ` – ${a.message}` : ''}
                          </li>
                        ))}
                      </ul>
                    </div>
                  )}
                  <p className="text-xs text-slate-500">Request body: {(row.body_bytes / 1024).toFixed(1)} KiB, stored.</p>
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
