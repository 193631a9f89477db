import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { ListingPreview } from './listing-preview';

// GET /admin/shops/:shopId/listing[?<listing parameters>&view] – the listing as a storefront shows it
export default async function ListingPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="listing" />
      <ListingPreview shopId={shop.shop_id} currency={shop.currency} />
    </section>
  );
}
