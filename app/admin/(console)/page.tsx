import Link from 'next/link';
import { appContext } from '@/lib/runtime/context';
import { listShops } from '@/lib/shops/manage-shops';
import { staffForPage } from '@/lib/staff/page-session';
import { EmptyState, buttonClass } from '../_ui/feedback';

// GET /admin – the shops this staff member can see
export default async function ShopsPage() {
  const user = await staffForPage();
  const shops = await listShops(appContext(), user.isAdmin ? undefined : user.shopIds);
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">Shops</h1>
        {user.isAdmin && (
          <Link href="/admin/shops/new" className={buttonClass}>
            New shop
          </Link>
        )}
      </div>
      {shops.length === 0 ? (
        <EmptyState title="No shops yet">
          {user.isAdmin ? 'Create the first one with “New shop”.' : 'An admin has not given you access to a shop yet.'}
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {shops.map((shop) => (
            <li key={shop.shop_id}>
              <Link href={`/admin/shops/${shop.shop_id}`} className="flex flex-wrap items-center justify-between gap-2 px-5 py-4 hover:bg-slate-50">
                <span className="font-medium">{shop.name}</span>
                <span className="break-anywhere font-mono text-xs text-slate-600">
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
