import { notFound } from 'next/navigation';
import { getCollection } from '@/lib/collections/manage-collections';
import { appContext } from '@/lib/runtime/context';
import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../../shop-tabs';
import { CollectionEditor } from '../collection-editor';

// GET /admin/shops/:shopId/collections/:collectionId – edit a collection's rules, preview, delete
export default async function CollectionPage({ params }: { params: Promise<{ shopId: string; collectionId: string }> }) {
  const { shopId, collectionId } = await params;
  const shop = await shopForPage(shopId);
  if (!/^[1-9]\d{0,8}$/.test(collectionId)) notFound();
  const collection = await getCollection(appContext(), shop.shop_id, Number(collectionId)).catch(() => notFound());
  return (
    <section>
      <ShopHeader shop={shop} current="collections" title={collection.name} />
      <CollectionEditor shopId={shop.shop_id} currency={shop.currency} collectionId={collection.id} />
    </section>
  );
}
