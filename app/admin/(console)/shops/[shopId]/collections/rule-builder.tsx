'use client';

import { useState } from 'react';
import type { RuleGroup } from '@/lib/collections/schemas';
import type { TreeNode } from '@/lib/catalog/browse-trees';
import { inputClass, secondaryButtonClass } from '@/app/admin/_ui/feedback';
import { formatCount } from '@/app/admin/_ui/format';
import { pathName } from '@/app/admin/_ui/tree-list';

export type Choices = { categories: TreeNode[]; brands: [string, number][]; params: Record<string, [string, number][]> };

const ids = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/** Ticks from a list that may be long: filtered by what is typed. */
function Picker({ label, options, chosen, onChange }: { label: string; options: { value: string; label: string; count?: number }[]; chosen: string[]; onChange: (next: string[]) => void }) {
  const [filter, setFilter] = useState('');
  const shown = options.filter((o) => chosen.includes(o.value) || o.label.toLowerCase().includes(filter.toLowerCase())).slice(0, 200);
  return (
    <details className="rounded-md border border-slate-300 bg-white">
      <summary className="cursor-pointer px-3 py-1.5 text-sm">
        {label}: {chosen.length ? chosen.map((v) => options.find((o) => o.value === v)?.label ?? v).join(', ') : <span className="text-slate-600">any</span>}
      </summary>
      <div className="space-y-1 border-t border-slate-200 p-2">
        <input type="search" aria-label={`Find ${label.toLowerCase()}`} value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Type to narrow" className={`${inputClass} mt-0`} />
        <div className="max-h-48 overflow-auto">
          {shown.map((o) => (
            <label key={o.value} className="flex items-center gap-2 text-sm">
              <input type="checkbox" aria-label={o.label} checked={chosen.includes(o.value)} onChange={() => onChange(chosen.includes(o.value) ? chosen.filter((v) => v !== o.value) : [...chosen, o.value])} />
              <span className="break-anywhere flex-1">{o.label}</span>
              {o.count !== undefined && <span className="text-slate-600">{formatCount(o.count)}</span>}
            </label>
          ))}
          {shown.length === 0 && <p className="text-sm text-slate-600">Nothing matches.</p>}
        </div>
      </div>
    </details>
  );
}

/** One rule group: every field set must hold for a product to be picked by it. */
export function GroupEditor({ index, group, choices, onChange, onRemove }: { index: number; group: RuleGroup; choices: Choices; onChange: (group: RuleGroup) => void; onRemove?: () => void }) {
  const set = (changes: Partial<RuleGroup>) => {
    const next: Record<string, unknown> = { ...group, ...changes };
    for (const [key, value] of Object.entries(next)) if (value === undefined || (Array.isArray(value) && value.length === 0)) delete next[key];
    onChange(next as RuleGroup);
  };
  const byId = new Map(choices.categories.map((n) => [n.id, n]));
  const [paramName, setParamName] = useState(Object.keys(choices.params)[0] ?? '');
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const n = index + 1;
  return (
    <fieldset className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" data-testid={`group-${n}`}>
      <legend className="px-1 font-semibold">Group {n}</legend>
      <Picker label="Categories" options={choices.categories.map((c) => ({ value: c.id, label: pathName(byId, c), count: c.in_stock }))} chosen={group.categories ?? []} onChange={(v) => set({ categories: v })} />
      <Picker label="Brands" options={choices.brands.map(([b, count]) => ({ value: b, label: b, count }))} chosen={group.brands ?? []} onChange={(v) => set({ brands: v })} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <label className="text-sm font-medium">
          Price from
          <input type="number" min={0} step="any" value={group.price_min ?? ''} onChange={(e) => set({ price_min: number(e.target.value) })} className={inputClass} />
        </label>
        <label className="text-sm font-medium">
          Price up to
          <input type="number" min={0} step="any" value={group.price_max ?? ''} onChange={(e) => set({ price_max: number(e.target.value) })} className={inputClass} />
        </label>
        <label className="text-sm font-medium">
          Discount
          <select value={group.discount === undefined ? '' : String(group.discount)} onChange={(e) => set({ discount: e.target.value === '' ? undefined : e.target.value === 'true' })} className={inputClass}>
            <option value="">Any</option>
            <option value="true">On sale only</option>
            <option value="false">Not on sale</option>
          </select>
        </label>
        <label className="text-sm font-medium">
          At most
          <input type="number" min={1} max={1000} value={group.limit ?? ''} onChange={(e) => set({ limit: number(e.target.value) })} className={inputClass} placeholder="no limit" />
        </label>
      </div>
      {Object.keys(choices.params).length > 0 && (
        <div className="space-y-2">
          <label className="block text-sm font-medium">
            Param
            <select value={paramName} onChange={(e) => setParamName(e.target.value)} className={`${inputClass} sm:w-64`}>
              {Object.keys(choices.params).map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </label>
          {paramName && (
            <Picker
              label={`${paramName} values`}
              options={(choices.params[paramName] ?? []).map(([v, count]) => ({ value: v, label: v, count }))}
              chosen={group.params?.[paramName] ?? []}
              onChange={(values) => {
                const params = { ...(group.params ?? {}), [paramName]: values };
                if (values.length === 0) delete params[paramName];
                set({ params: Object.keys(params).length ? params : undefined });
              }}
            />
          )}
          {Object.entries(group.params ?? {}).length > 0 && (
            <p className="text-sm text-slate-700">
              Params: {Object.entries(group.params ?? {}).map(([name, values]) => `${name} ${values.join(' or ')}`).join('; ')}
            </p>
          )}
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="text-sm font-medium">
          Only these product ids
          <input defaultValue={(group.ids ?? []).join(', ')} onBlur={(e) => set({ ids: ids(e.target.value) })} className={inputClass} placeholder="any product" />
        </label>
        <label className="text-sm font-medium">
          Never these product ids
          <input defaultValue={(group.exclude_ids ?? []).join(', ')} onBlur={(e) => set({ exclude_ids: ids(e.target.value) })} className={inputClass} placeholder="none left out" />
        </label>
      </div>
      {onRemove && (
        <button type="button" className={secondaryButtonClass} onClick={onRemove}>
          Remove group {n}
        </button>
      )}
    </fieldset>
  );
}
