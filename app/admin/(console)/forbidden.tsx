import Link from 'next/link';

// The app's own 403, inside its chrome: pages for admins only.
export default function Forbidden() {
  return (
    <section className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white p-6 text-center">
      <p className="text-sm font-medium text-slate-600">Error 403</p>
      <h1 className="mt-1 text-2xl font-semibold">Admins only</h1>
      <p className="mt-2 text-slate-700">This page is for admins of every shop. Ask an admin if you need something changed here.</p>
      <Link href="/admin" className="mt-4 inline-block rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white">
        Back to your shops
      </Link>
    </section>
  );
}
