import { notFound } from 'next/navigation';
import { appContext } from '@/lib/runtime/context';
import { listShops } from '@/lib/shops/manage-shops';
import { staffForPage } from '@/lib/staff/page-session';
import { canSeeShop } from '@/lib/staff/users';
import { ShopTabs } from '../shop-tabs';
import { FlagsTable } from './flags-table';

// GET /admin/shops/:shopId/flags – email flags: see, add, remove, export
export default async function FlagsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const user = await staffForPage();
  const [shop] = canSeeShop(user, shopId) ? await listShops(appContext(), [shopId]) : [];
  if (!shop) notFound();
  return (
    <section>
      <p className="text-sm text-slate-500">{shop.shop_id}</p>
      <h1 className="mb-4 text-2xl font-semibold">{shop.name}: email flags</h1>
      <ShopTabs shopId={shop.shop_id} current="flags" />
      <FlagsTable shopId={shop.shop_id} />
    </section>
  );
}
