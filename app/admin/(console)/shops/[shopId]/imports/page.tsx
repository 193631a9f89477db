import { redirect } from 'next/navigation';
import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../shop-tabs';
import { ImportsHistory } from './imports-history';

// GET /admin/shops/:shopId/imports – the shop's imports, newest first, filtered, paged, live.
// `?import=ID` (links in failure emails sent before the import pages existed) opens that import.
export default async function ImportsPage({ params, searchParams }: { params: Promise<{ shopId: string }>; searchParams: Promise<Record<string, string | string[]>> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  const named = (await searchParams).import;
  if (typeof named === 'string' && /^\d{1,18}$/.test(named)) redirect(`/admin/shops/${shop.shop_id}/imports/${named}`);
  return (
    <section>
      <ShopHeader shop={shop} current="imports" />
      <ImportsHistory shopId={shop.shop_id} />
    </section>
  );
}
