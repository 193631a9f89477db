import { shopForPage } from '@/lib/staff/page-session';
import { ShopTabs } from '../shop-tabs';
import { ImportsTable } from './imports-table';

// GET /admin/shops/:shopId/imports – the shop's imports, newest first, live
export default async function ImportsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <p className="text-sm text-slate-500">{shop.shop_id}</p>
      <h1 className="mb-4 text-2xl font-semibold">{shop.name}: imports</h1>
      <ShopTabs shopId={shop.shop_id} current="imports" />
      <ImportsTable shopId={shop.shop_id} />
    </section>
  );
}
