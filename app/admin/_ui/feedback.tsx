import type { ReactNode } from 'react';

export function LoadingState({ children = 'Loading…' }: { children?: ReactNode }) {
  return (
    <p role="status" className="animate-pulse rounded-xl border border-slate-200 bg-white px-4 py-6 text-center text-slate-600">
      {children}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center">
      <p className="font-medium text-slate-800">{title}</p>
      {children && <div className="mt-1 text-sm text-slate-600">{children}</div>}
    </div>
  );
}

export function ErrorState({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </p>
  );
}

/** A form's answer beside its button: saved (status) or what went wrong (alert). */
export function FormMessage({ message }: { message: { ok: boolean; text: string } | null }) {
  if (!message) return null;
  return (
    <p role={message.ok ? 'status' : 'alert'} className={`text-sm ${message.ok ? 'text-emerald-800' : 'text-red-700'}`}>
      {message.text}
    </p>
  );
}

const tones = {
  grey: 'bg-slate-100 text-slate-800',
  blue: 'bg-blue-100 text-blue-900',
  green: 'bg-emerald-100 text-emerald-900',
  red: 'bg-red-100 text-red-900',
  amber: 'bg-amber-100 text-amber-900',
} as const;

export function Badge({ tone, children, testId }: { tone: keyof typeof tones; children: ReactNode; testId?: string }) {
  return (
    <span data-testid={testId} className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>
      {children}
    </span>
  );
}

export const buttonClass = 'inline-flex items-center justify-center gap-1 rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-50';
export const secondaryButtonClass =
  'inline-flex items-center justify-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 disabled:opacity-50';
export const dangerButtonClass = 'inline-flex items-center justify-center gap-1 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50';
export const inputClass = 'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm';
export const linkClass = 'text-blue-800 underline underline-offset-2 hover:text-blue-950';
