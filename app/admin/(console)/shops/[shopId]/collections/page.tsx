import { shopForPage } from '@/lib/staff/page-session';
import { ShopTabs } from '../shop-tabs';
import { CollectionsEditor } from './collections-editor';

// GET /admin/shops/:shopId/collections – curated collections: rules and what they show
export default async function CollectionsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <p className="text-sm text-slate-500">{shop.shop_id}</p>
      <h1 className="mb-4 text-2xl font-semibold">{shop.name}: collections</h1>
      <ShopTabs shopId={shop.shop_id} current="collections" />
      <CollectionsEditor shopId={shop.shop_id} />
    </section>
  );
}
