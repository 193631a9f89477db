import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { CollectionsList } from './collections-list';

// GET /admin/shops/:shopId/collections – the shop's collections, their sizes and rules in words
export default async function CollectionsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="collections" />
      <CollectionsList shopId={shop.shop_id} />
    </section>
  );
}
