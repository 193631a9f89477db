import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { CatalogBrowser } from './catalog-browser';

// GET /admin/shops/:shopId/catalog[?view=products|categories|locations&q&category&brand&availability&page]
export default async function CatalogPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="catalog" />
      <CatalogBrowser shopId={shop.shop_id} />
    </section>
  );
}
