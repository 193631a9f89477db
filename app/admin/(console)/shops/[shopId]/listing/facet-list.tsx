'use client';

import { useState } from 'react';
import { formatCount } from '@/app/admin/_ui/format';

const SHOWN = 8;

/**
 * A facet's values with counts as checkboxes: the first eight, then "show all". Selected values
 * are always listed (with 0 when the result no longer has them), so they can be unticked.
 */
export function FacetList({ title, values, selected, onToggle, testId }: { title: string; values: [string, number][]; selected: string[]; onToggle: (value: string) => void; testId?: string }) {
  const [all, setAll] = useState(false);
  const lower = new Set(values.map(([v]) => v.toLowerCase()));
  const missing = selected.filter((v) => !lower.has(v.toLowerCase())).map((v): [string, number] => [v, 0]);
  const listed = [...missing, ...values];
  const isSelected = (value: string) => selected.some((s) => s.toLowerCase() === value.toLowerCase());
  const shown = all ? listed : listed.filter(([v], i) => i < SHOWN || isSelected(v));
  return (
    <fieldset className="space-y-1" data-testid={testId}>
      <legend className="mb-1 font-semibold">{title}</legend>
      {shown.map(([value, count]) => (
        <label key={value} className="flex items-center gap-2">
          <input type="checkbox" aria-label={`${title}: ${value}`} checked={isSelected(value)} onChange={() => onToggle(value)} />
          <span className="break-anywhere flex-1">{value}</span>
          <span className="text-slate-600 tabular-nums">{formatCount(count)}</span>
        </label>
      ))}
      {listed.length > shown.length && (
        <button type="button" className="text-sm text-blue-800 underline" onClick={() => setAll(true)}>
          Show all {listed.length}
        </button>
      )}
      {all && listed.length > SHOWN && (
        <button type="button" className="text-sm text-blue-800 underline" onClick={() => setAll(false)}>
          Show fewer
        </button>
      )}
    </fieldset>
  );
}
