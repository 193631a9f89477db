import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { FlagsTable } from './flags-table';

// GET /admin/shops/:shopId/flags – email flags: see, add, remove, export
export default async function FlagsPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="flags" />
      <FlagsTable shopId={shop.shop_id} />
    </section>
  );
}
