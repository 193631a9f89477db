import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { appContext } from '@/lib/runtime/context';
import { overHttps, sessionTokenFrom } from '@/lib/staff/admin-auth';
import { safeReturnPath } from '@/lib/staff/return-path';
import { sessionUser } from '@/lib/staff/sessions';
import { LoginForm } from './login-form';

export const metadata = { title: 'Sign in · Vitrine' };
// Rendered per request, not prerendered: its scripts carry the nonce of the page's CSP.
export const dynamic = 'force-dynamic';

// GET /admin/login[?next=PATH&expired=1] – staff sign-in, then back to the page asked for
export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const next = safeReturnPath(typeof query.next === 'string' ? query.next : null);
  const ctx = appContext();
  const given = await headers();
  if (await sessionUser(ctx, sessionTokenFrom(given.get('cookie'), overHttps(given, undefined, ctx.settings.publicUrl)))) redirect(next);
  return (
    <main className="flex min-h-screen items-center justify-center p-4 sm:p-6">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="mb-1 text-2xl font-semibold">Vitrine</h1>
        <p className="mb-6 text-sm text-slate-700">Sign in to manage your shops&apos; catalogs.</p>
        {query.expired === '1' && (
          <p role="status" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950">
            Your session has ended. Sign in again to go back where you were.
          </p>
        )}
        <LoginForm next={next} />
      </div>
    </main>
  );
}
