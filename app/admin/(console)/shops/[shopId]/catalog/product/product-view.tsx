'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ProductDetail } from '@/lib/catalog/browse-products';
import { api } from '@/app/admin/_ui/api-client';
import { Badge, ErrorState, LoadingState, linkClass } from '@/app/admin/_ui/feedback';
import { formatDateTime, formatNumber } from '@/app/admin/_ui/format';
import { ProductImage } from '@/app/admin/_ui/product-image';

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function ProductView({ shopId, productId }: { shopId: string; productId: string }) {
  const { data, error, isPending } = useQuery({
    queryKey: ['product', shopId, productId],
    queryFn: () => api<ProductDetail>(`/admin/api/shops/${shopId}/catalog/product?id=${encodeURIComponent(productId)}`),
  });
  if (isPending) return <LoadingState>Loading the product…</LoadingState>;
  if (error) return <ErrorState>{error.message}</ErrorState>;
  const p = data;
  const params = Array.isArray(p.data.params) ? (p.data.params as { name: string; value: unknown; unit?: string }[]) : [];
  const { params: _params, locations: _locations, ...fields } = p.data;
  const picture = typeof p.data.picture === 'string' ? p.data.picture : '';
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="break-anywhere text-xl font-semibold">{show(p.data.name)}</h2>
        <Badge tone={p.available ? 'green' : 'grey'} testId="product-availability">
          {p.available ? 'In stock' : 'Out of stock'}
        </Badge>
        <Link href={`/admin/shops/${shopId}/catalog`} className={`ml-auto text-sm ${linkClass}`}>
          All products
        </Link>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-600">Price</dt>
        <dd data-testid="product-price">
          {formatNumber(p.columns.price)} {p.columns.oldprice ? <s className="text-slate-600">{formatNumber(p.columns.oldprice)}</s> : null} {p.columns.discount_percent > 0 && `(−${p.columns.discount_percent}%)`}
        </dd>
        <dt className="text-slate-600">First added</dt>
        <dd>{formatDateTime(p.columns.first_added_at)}</dd>
        <dt className="text-slate-600">Last changed</dt>
        <dd data-testid="product-changed">
          {formatDateTime(p.columns.updated_at)}
          {p.written_by_import !== null && (
            <>
              {' '}
              by{' '}
              <Link href={`/admin/shops/${shopId}/imports/${p.written_by_import}`} className={linkClass}>
                import #{p.written_by_import}
              </Link>
            </>
          )}
        </dd>
        <dt className="text-slate-600">Sales rate</dt>
        <dd>{formatNumber(p.columns.sales_rate)}</dd>
      </dl>

      <section aria-labelledby="product-categories">
        <h2 id="product-categories" className="mb-2 text-lg font-semibold">
          Categories
        </h2>
        {p.categories.length === 0 ? (
          <p className="text-sm text-slate-700">In no category.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="product-categories">
            {p.categories.map((c) => (
              <li key={c.id}>
                <Link href={`/admin/shops/${shopId}/catalog?category=${encodeURIComponent(c.id)}`} className={linkClass}>
                  {c.path.map((n) => n.name).join(' › ')}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="product-params">
        <h2 id="product-params" className="mb-2 text-lg font-semibold">
          Params
        </h2>
        {params.length === 0 ? (
          <p className="text-sm text-slate-700">No params.</p>
        ) : (
          <table className="w-full rounded-lg border border-slate-200 bg-white text-sm" data-testid="product-params">
            <thead className="bg-slate-100 text-left text-xs uppercase text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-1.5">
                  Name
                </th>
                <th scope="col" className="px-3 py-1.5">
                  Values
                </th>
              </tr>
            </thead>
            <tbody>
              {params.map((param, i) => (
                <tr key={i} className="border-t border-slate-100">
                  <td className="px-3 py-1.5">{param.name}</td>
                  <td className="break-anywhere px-3 py-1.5">
                    {Array.isArray(param.value) ? param.value.map(show).join(', ') : show(param.value)} {param.unit ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="product-offers">
        <h2 id="product-offers" className="mb-2 text-lg font-semibold">
          Offers per location
        </h2>
        {p.offers.length === 0 ? (
          <p className="text-sm text-slate-700">No location offers: the product is in stock everywhere it is in stock at all.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="product-offers">
            {p.offers.map((o) => (
              <li key={o.location_id}>
                {o.location_name ?? `${o.location_id} (unknown location)`}: {formatNumber(o.price)}
                {o.oldprice ? <s className="ml-1 text-slate-600">{formatNumber(o.oldprice)}</s> : null}
                {o.stock_quantity !== null && `, ${o.stock_quantity} in stock`}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="product-images">
        <h2 id="product-images" className="mb-2 text-lg font-semibold">
          Image at each size
        </h2>
        {picture && (
          <p className="break-anywhere mb-2 text-sm">
            Original: <a className={linkClass} href={picture}>{picture}</a>
          </p>
        )}
        <ul className="flex flex-wrap items-end gap-3">
          {p.images.map((image) => (
            <li key={image.size} className="text-center text-xs text-slate-700">
              <ProductImage src={image.url} alt={`${show(p.data.name)}, ${image.size} px`} size={Math.min(image.size, 160)} />
              {image.size} px
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="product-fields">
        <h2 id="product-fields" className="mb-2 text-lg font-semibold">
          Every stored field
        </h2>
        <dl className="grid gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-white p-3 text-sm sm:grid-cols-[auto_1fr]" data-testid="product-fields">
          {Object.entries(fields).map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-mono text-xs text-slate-600">{key}</dt>
              <dd className="break-anywhere">{show(value)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
