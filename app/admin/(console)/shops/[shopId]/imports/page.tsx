import { notFound } from 'next/navigation';
import { appContext } from '@/lib/runtime/context';
import { listShops } from '@/lib/shops/manage-shops';
import { staffForPage } from '@/lib/staff/page-session';
import { canSeeShop } from '@/lib/staff/users';
import { ShopTabs } from '../shop-tabs';
import { ImportsTable } from './imports-table';

// GET /admin/shops/:shopId/imports – the shop's imports, newest first, live
export default async function ImportsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const user = await staffForPage();
  const [shop] = canSeeShop(user, shopId) ? await listShops(appContext(), [shopId]) : [];
  if (!shop) notFound();
  return (
    <section>
      <p className="text-sm text-slate-500">{shop.shop_id}</p>
      <h1 className="mb-4 text-2xl font-semibold">{shop.name}: imports</h1>
      <ShopTabs shopId={shop.shop_id} current="imports" />
      <ImportsTable shopId={shop.shop_id} />
    </section>
  );
}
