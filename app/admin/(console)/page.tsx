import Link from 'next/link';
import { appContext } from '@/lib/runtime/context';
import { listShops } from '@/lib/shops/manage-shops';
import { staffForPage } from '@/lib/staff/page-session';

// GET /admin – the shops this staff member can see
export default async function ShopsPage() {
  const user = await staffForPage();
  const shops = await listShops(appContext(), user.isAdmin ? undefined : user.shopIds);
  return (
    <section>
      <h1 className="mb-6 text-2xl font-semibold">Shops</h1>
      {shops.length === 0 ? (
        <p className="text-slate-500">
          No shops yet. Create one with <code className="rounded bg-slate-100 px-1">npm run cli -- shop create --name &quot;My shop&quot;</code>.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {shops.map((shop) => (
            <li key={shop.shop_id}>
              <Link href={`/admin/shops/${shop.shop_id}/imports`} className="flex items-center justify-between px-5 py-4 hover:bg-slate-50">
                <span className="font-medium">{shop.name}</span>
                <span className="font-mono text-xs text-slate-500">
                  {shop.shop_id} · {shop.currency}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
