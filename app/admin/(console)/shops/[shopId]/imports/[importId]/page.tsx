import { notFound } from 'next/navigation';
import { importExists } from '@/lib/imports/import-details';
import { appContext } from '@/lib/runtime/context';
import { shopForPage } from '@/lib/staff/page-session';
import { ShopHeader } from '../../shop-tabs';
import { ImportView } from './import-view';

// GET /admin/shops/:shopId/imports/:importId – one import: counts, errors, webhook, emails, body
export default async function ImportPage({ params }: { params: Promise<{ shopId: string; importId: string }> }) {
  const { shopId, importId } = await params;
  const shop = await shopForPage(shopId);
  if (!/^\d{1,15}$/.test(importId) || !(await importExists(appContext(), shop.shop_id, Number(importId)))) notFound();
  return (
    <section>
      <ShopHeader shop={shop} current="imports" title={`import #${importId}`} />
      <ImportView shopId={shop.shop_id} importId={Number(importId)} />
    </section>
  );
}
