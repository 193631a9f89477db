import { LoginForm } from './login-form';

export const metadata = { title: 'Sign in · Vitrine' };
// Rendered per request, not prerendered: its scripts carry the nonce of the page's CSP.
export const dynamic = 'force-dynamic';

// GET /admin/login – staff sign-in
export default function LoginPage() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="mb-1 text-2xl font-semibold">Vitrine</h1>
        <p className="mb-6 text-sm text-slate-500">Sign in to watch your catalog imports.</p>
        <LoginForm />
      </div>
    </main>
  );
}
