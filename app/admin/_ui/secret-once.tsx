'use client';

import { useState } from 'react';
import { secondaryButtonClass } from './feedback';

/** A shop's credentials, shown once: the secret cannot be read back later, only replaced. */
export function SecretOnce({ shopId, secret }: { shopId: string; secret: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async (what: string, value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(what);
    } catch {
      setCopied(`${what}: select it and copy by hand`);
    }
  };
  return (
    <div className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4" data-testid="secret-once">
      <p className="font-medium text-amber-950">Copy the secret now: it is shown only this once. The shop&apos;s import client needs both values.</p>
      {[
        ['Shop id', shopId],
        ['Shop secret', secret],
      ].map(([label, value]) => (
        <div key={label} className="flex flex-wrap items-center gap-2">
          <span className="w-24 text-sm text-slate-800">{label}</span>
          <code className="break-anywhere min-w-0 flex-1 rounded bg-white px-2 py-1 text-sm" data-testid={label === 'Shop secret' ? 'shop-secret' : 'shop-id'}>
            {value}
          </code>
          <button type="button" className={secondaryButtonClass} onClick={() => copy(label, value)}>
            Copy {label.toLowerCase()}
          </button>
        </div>
      ))}
      <p role="status" className="text-sm text-emerald-800">
        {copied ? `${copied} copied.` : ''}
      </p>
    </div>
  );
}
