import Link from 'next/link';

const tabs = [
  { key: 'imports', label: 'Imports' },
  { key: 'listing', label: 'Listing' },
  { key: 'collections', label: 'Collections' },
  { key: 'flags', label: 'Email flags' },
] as const;

export function ShopTabs({ shopId, current }: { shopId: string; current: (typeof tabs)[number]['key'] }) {
  return (
    <nav className="mb-6 flex gap-2 border-b border-slate-200">
      {tabs.map((tab) => (
        <Link
          key={tab.key}
          href={`/admin/shops/${shopId}/${tab.key}`}
          className={`-mb-px border-b-2 px-3 py-2 text-sm ${tab.key === current ? 'border-slate-900 font-medium' : 'border-transparent text-slate-500 hover:text-slate-900'}`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
