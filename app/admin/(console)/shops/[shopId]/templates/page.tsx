import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { TemplatesEditor } from './templates-editor';

// GET /admin/shops/:shopId/templates[?kind=collection] – edit, preview, save and restore the Liquid templates
export default async function TemplatesPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  return (
    <section>
      <ShopHeader shop={shop} current="templates" />
      <TemplatesEditor shopId={shop.shop_id} />
    </section>
  );
}
