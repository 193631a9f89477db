import Link from 'next/link';

// The app's own 404, inside its chrome: unknown pages, and shops or imports this member may not see.
export default function NotFound() {
  return (
    <section className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-6 text-center">
      <p className="text-sm font-medium text-slate-600">Error 404</p>
      <h1 className="mt-1 text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-700">There is no such page, or it belongs to a shop you do not have access to.</p>
      <Link href="/admin" className="mt-4 inline-block rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white">
        Back to your shops
      </Link>
    </section>
  );
}
