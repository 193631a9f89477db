import { shopForPage } from '@/lib/staff/page-session';
import { ShopTabs } from '../shop-tabs';
import { FlagsTable } from './flags-table';

// GET /admin/shops/:shopId/flags – email flags: see, add, remove, export
export default async function FlagsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <p className="text-sm text-slate-500">{shop.shop_id}</p>
      <h1 className="mb-4 text-2xl font-semibold">{shop.name}: email flags</h1>
      <ShopTabs shopId={shop.shop_id} current="flags" />
      <FlagsTable shopId={shop.shop_id} />
    </section>
  );
}
