import Link from 'next/link';
import type { ReactNode } from 'react';

const tabs = [
  { key: '', label: 'Overview' },
  { key: 'imports', label: 'Imports' },
  { key: 'catalog', label: 'Catalog' },
  { key: 'listing', label: 'Listing preview' },
  { key: 'templates', label: 'Templates' },
  { key: 'collections', label: 'Collections' },
  { key: 'flags', label: 'Email flags' },
  { key: 'settings', label: 'Settings' },
] as const;

export type ShopTab = (typeof tabs)[number]['key'];

/** The shop's name, its sections and the page's own title. */
export function ShopHeader({ shop, current, title, children }: { shop: { shop_id: string; name: string; user?: { isAdmin: boolean } }; current: ShopTab; title?: string; children?: ReactNode }) {
  const label = tabs.find((t) => t.key === current)!.label;
  return (
    <div className="mb-6">
      <p className="break-anywhere text-sm text-slate-600">
        <Link href="/admin" className="underline underline-offset-2">
          Shops
        </Link>{' '}
        / <span className="font-mono text-xs">{shop.shop_id}</span>
      </p>
      <h1 className="break-anywhere mb-4 text-2xl font-semibold">
        {shop.name}: {title ?? label.toLowerCase()}
      </h1>
      <nav aria-label="Shop sections" className="flex flex-wrap gap-x-1 border-b border-slate-200">
        {tabs.filter((tab) => tab.key !== 'settings' || shop.user?.isAdmin).map((tab) => (
          <Link
            key={tab.key}
            href={`/admin/shops/${shop.shop_id}${tab.key ? `/${tab.key}` : ''}`}
            aria-current={tab.key === current ? 'page' : undefined}
            className={`-mb-px border-b-2 px-2.5 py-2 text-sm ${tab.key === current ? 'border-slate-900 font-medium text-slate-950' : 'border-transparent text-slate-600 hover:text-slate-950'}`}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {children}
    </div>
  );
}
