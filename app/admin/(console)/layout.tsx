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
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
          <nav aria-label="Main" className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm">
            <Link href="/admin" className="text-lg font-semibold text-slate-900">
              Vitrine
            </Link>
            <Link href="/admin" className="text-slate-700 hover:text-slate-950">
              Shops
            </Link>
            {user.isAdmin && (
              <>
                <Link href="/admin/staff" className="text-slate-700 hover:text-slate-950">
                  Staff
                </Link>
                <Link href="/admin/outbox" className="text-slate-700 hover:text-slate-950">
                  Email outbox
                </Link>
              </>
            )}
          </nav>
          <div className="flex min-w-0 items-center gap-3 text-sm text-slate-700">
            <span data-testid="staff-email" className="break-anywhere min-w-0">
              {user.email}
            </span>
            <LogoutButton />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </Providers>
  );
}
