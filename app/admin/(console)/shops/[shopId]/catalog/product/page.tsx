import { notFound } from 'next/navigation';
import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../../shop-tabs';
import { ProductView } from './product-view';

// GET /admin/shops/:shopId/catalog/product?id=PRODUCT_ID – every stored field of one product
export default async function ProductPage({ params, searchParams }: { params: Promise<{ shopId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  const id = (await searchParams).id;
  if (typeof id !== 'string' || id === '') notFound();
  return (
    <section>
      <ShopHeader shop={shop} current="catalog" title={`product ${id}`} />
      <ProductView shopId={shop.shop_id} productId={id} />
    </section>
  );
}
