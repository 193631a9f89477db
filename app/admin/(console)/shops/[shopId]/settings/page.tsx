import { forbidden } from 'next/navigation';
import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { ShopSettingsForm } from './shop-settings-form';

// GET /admin/shops/:shopId/settings – admins rename the shop, set its currency, listing default and secret
export default async function ShopSettingsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  if (!shop.user.isAdmin) forbidden();
  return (
    <section>
      <ShopHeader shop={shop} current="settings" />
      <ShopSettingsForm shopId={shop.shop_id} />
    </section>
  );
}
