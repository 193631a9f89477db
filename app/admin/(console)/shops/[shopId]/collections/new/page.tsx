import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../../shop-tabs';
import { CollectionEditor } from '../collection-editor';

// GET /admin/shops/:shopId/collections/new – build a collection's rules and see what they pick
export default async function NewCollectionPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="collections" title="new collection" />
      <CollectionEditor shopId={shop.shop_id} currency={shop.currency} />
    </section>
  );
}
