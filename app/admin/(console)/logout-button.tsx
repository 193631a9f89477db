'use client';

import { useRouter } from 'next/navigation';

export function LogoutButton() {
  const router = useRouter();
  return (
    <button
      type="button"
      className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-100"
      onClick={async () => {
        await fetch('/admin/api/session', { method: 'DELETE' });
        router.replace('/admin/login');
        router.refresh();
      }}
    >
      Sign out
    </button>
  );
}
