import Link from 'next/link';
import type { ReactNode } from 'react';
import { staffForPage } from '@/lib/staff/page-session';
import { LogoutButton } from './logout-button';
import { Providers } from './providers';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await staffForPage();
  return (
    <Providers>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-6 py-3">
          <Link href="/admin" className="text-lg font-semibold">
            Vitrine
          </Link>
          <div className="flex items-center gap-4 text-sm text-slate-600">
            <span data-testid="staff-email">{user.email}</span>
            <LogoutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </Providers>
  );
}
