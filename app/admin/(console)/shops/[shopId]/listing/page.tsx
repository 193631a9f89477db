import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { ListingPreview } from './listing-preview';
import { ListingSettingsForm } from './listing-settings-form';

// GET /admin/shops/:shopId/listing – preview the storefront listing; edit its templates
export default async function ListingPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="listing" />
      <div className="space-y-10">
        <ListingPreview shopId={shop.shop_id} />
        <ListingSettingsForm shopId={shop.shop_id} />
      </div>
    </section>
  );
}
