import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { CollectionsEditor } from './collections-editor';

// GET /admin/shops/:shopId/collections – curated collections: rules and what they show
export default async function CollectionsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="collections" />
      <CollectionsEditor shopId={shop.shop_id} />
    </section>
  );
}
