'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import { dangerButtonClass, secondaryButtonClass } from './feedback';

/**
 * A modal question before something that cannot be undone. The browser's own <dialog> keeps
 * focus inside, closes on Escape and gives focus back to the button that opened it.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel }: { open: boolean; title: string; children: ReactNode; confirmLabel: string; onConfirm: () => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} onCancel={onCancel} aria-labelledby={titleId} className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-slate-200 p-5 shadow-xl backdrop:bg-slate-900/40">
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
      <div className="mt-5 flex justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className={dangerButtonClass} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
