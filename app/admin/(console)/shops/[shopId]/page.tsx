import Link from 'next/link';
import { operationLabel } from '@/lib/imports/operation-labels';
import { appContext } from '@/lib/runtime/context';
import { shopOverview } from '@/lib/dashboard/shop-overview';
import { shopForPage } from '@/lib/staff/page-session';
import { EmptyState, linkClass } from '../../../_ui/feedback';
import { formatBytes, formatCount, formatDateTime, formatDuration } from '../../../_ui/format';
import { ImportsChart } from './imports-chart';
import { ShopHeader } from './shop-tabs';

function Stat({ label, value, href, detail }: { label: string; value: string; href?: string; detail?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <dt className="text-xs font-medium uppercase text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold">
        {href ? (
          <Link href={href} className="hover:underline">
            {value}
          </Link>
        ) : (
          value
        )}
      </dd>
      {detail && <dd className="text-xs text-slate-600">{detail}</dd>}
    </div>
  );
}

// GET /admin/shops/:shopId – the shop at a glance: catalog, listing index, imports of the week, failures
export default async function ShopOverviewPage({ params }: { params: Promise<{ shopId: string }> }) {
  const { shopId } = await params;
  const shop = await shopForPage(shopId);
  const o = await shopOverview(appContext(), shop.shop_id);
  const base = `/admin/shops/${shop.shop_id}`;
  return (
    <section>
      <ShopHeader shop={shop} current="" title="overview" />
      <div className="space-y-8">
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="overview-stats">
          <Stat label="Products in stock" value={formatCount(o.products_in_stock)} detail={`${formatCount(o.products_out_of_stock)} out of stock`} href={`${base}/catalog`} />
          <Stat label="Categories" value={formatCount(o.categories)} href={`${base}/catalog?view=categories`} />
          <Stat label="Locations" value={formatCount(o.locations)} href={`${base}/catalog?view=locations`} />
          <Stat label="Collections" value={formatCount(o.collections)} href={`${base}/collections`} />
        </dl>
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <section aria-labelledby="week" className="rounded-xl border border-slate-200 bg-white p-4">
            <h2 id="week" className="mb-3 text-lg font-semibold">
              Imports of the last 7 days
            </h2>
            <ImportsChart days={o.imports_by_day} />
          </section>
          <section aria-labelledby="index" className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 text-sm">
            <h2 id="index" className="text-lg font-semibold">
              Listing index
            </h2>
            {o.index ? (
              <p data-testid="index-state">
                {formatCount(o.index.products)} products in memory, {formatBytes(o.index.bytes)}; last built in {formatDuration(o.index.build_ms)} (catalog version {o.index.version} of{' '}
                {o.catalog_version}).
              </p>
            ) : (
              <p data-testid="index-state">Not built in this process yet: the first listing or collection request builds it.</p>
            )}
            <p>
              {formatCount(o.pending_imports)} imports waiting · {formatCount(o.email_flags)} flagged emails
            </p>
          </section>
        </div>
        <section aria-labelledby="failures">
          <h2 id="failures" className="mb-2 text-lg font-semibold">
            Latest failed imports
          </h2>
          {o.recent_failures.length === 0 ? (
            <EmptyState title="No failed imports" />
          ) : (
            <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white text-sm" data-testid="recent-failures">
              {o.recent_failures.map((f) => (
                <li key={f.id} className="px-4 py-2">
                  <Link href={`${base}/imports/${f.id}`} className={linkClass}>
                    #{f.id} {operationLabel(f.operation)}
                  </Link>{' '}
                  <span className="text-slate-600">{formatDateTime(f.finished_at)}</span>
                  {f.message && <p className="break-anywhere text-red-800">{f.message}</p>}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
}
