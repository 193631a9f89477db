import { z } from 'zod';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import { IMAGE_SIZES, imageSigningKey, linkExpiry, resizedImagePaths } from '@/lib/images/image-urls';
import type { AppContext } from '@/lib/runtime/context';
import { storedOffers } from './stored-offers';

const PAGE = 50;

export const ProductsQuery = z.object({
  q: z.string().max(200, 'q must be at most 200 characters').default(''),
  category: z.string().max(255).default(''),
  brand: z.string().max(255).default(''),
  availability: z.enum(['', 'in_stock', 'out_of_stock'], { error: 'availability must be in_stock or out_of_stock' }).default(''),
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be at least 1').max(100_000).default(1),
});

export type ProductRow = { id: string; name: string; brand: string | null; price: number; oldprice: number | null; available: boolean; categories: string[]; picture: string; updated_at: string };
export type ProductsPage = { products: ProductRow[]; total: number; page: number; pages: number };

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of a shop's products by id: those whose id is `q` or whose name or id contains it (any
 * case), in `category` or below, of `brand` (any case), in or out of stock.
 */
export async function pageProducts(ctx: Pick<AppContext, 'sql'>, shopId: string, input: unknown): Promise<ProductsPage> {
  const parsed = ProductsQuery.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  const { q, category, brand, availability, page } = parsed.data;
  const sql = ctx.sql;
  const text = q.trim();
  const where = sql`p.shop_id = ${shopId}
    ${text ? sql`and (p.id = ${text} or p.name ilike ${like(text)} or p.id ilike ${like(text)})` : sql``}
    ${category ? sql`and p.categories && coalesce((select array_agg(c.id) from categories c where c.shop_id = ${shopId} and c.path @> array[${category}]::text[]), '{}')` : sql``}
    ${brand ? sql`and lower(p.brand) = lower(${brand})` : sql``}
    ${availability ? sql`and s.available = ${availability === 'in_stock'}` : sql``}`;
  const [rows, [{ total }]] = await Promise.all([
    sql<ProductRow[]>`
      select p.id, p.name, p.brand, p.price, p.oldprice, s.available, p.categories, p.picture, p.updated_at
        from products p join product_state s on s.shop_id = p.shop_id and s.product_id = p.id
       where ${where} order by p.id offset ${(page - 1) * PAGE} limit ${PAGE}`,
    sql<{ total: number }[]>`select count(*)::int as total from products p join product_state s on s.shop_id = p.shop_id and s.product_id = p.id where ${where}`,
  ]);
  return { products: rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() })), total, page, pages: Math.max(1, Math.ceil(total / PAGE)) };
}

/** The shop's brands, most products first (the catalog's brand filter). */
export async function shopBrands(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<{ name: string; products: number }[]> {
  return ctx.sql<{ name: string; products: number }[]>`
    select min(brand) as name, count(*)::int as products from products
     where shop_id = ${shopId} and brand is not null and brand <> ''
     group by lower(brand) order by count(*) desc, min(brand) limit 500`;
}

export type ProductDetail = {
  id: string;
  available: boolean;
  data: Record<string, unknown>;
  columns: { price: number; oldprice: number | null; discount_percent: number; sales_rate: number; first_added_at: string; updated_at: string; creation_date: string | null };
  categories: { id: string; name: string; path: { id: string; name: string }[] }[];
  offers: { location_id: string; location_name: string | null; price: number; oldprice: number | null; discount_percent: number; stock_quantity: number | null }[];
  images: { size: number; url: string }[];
  written_by_import: number | null;
};

/** Everything stored of one product, with names for its categories and locations. */
export async function productDetail(ctx: Pick<AppContext, 'sql' | 'sealKey'>, shopId: string, productId: string): Promise<ProductDetail> {
  const sql = ctx.sql;
  const [row] = await sql`
    select p.id, p.data, p.price, p.oldprice, p.discount_percent, p.sales_rate, p.first_added_at, p.updated_at, p.creation_date,
           p.categories, p.offers, p.picture, s.available
      from products p join product_state s on s.shop_id = p.shop_id and s.product_id = p.id
     where p.shop_id = ${shopId} and p.id = ${productId}`;
  if (!row) throw new AppError('NOT_FOUND', `Product ${productId} not found`);
  const offers = storedOffers(row.offers);
  const [categories, locations, [writer]] = await Promise.all([
    sql<{ id: string; name: string; path: string[] }[]>`select id, name, path from categories where shop_id = ${shopId} and id = any(${row.categories}::text[])`,
    sql<{ id: string; name: string }[]>`select id, name from locations where shop_id = ${shopId} and id = any(${offers.map((o) => o[0])}::text[])`,
    // The product import whose transaction wrote the row: it began (updated_at) while the import
    // ran. Compared in PostgreSQL, to the microsecond: a JavaScript Date keeps milliseconds, and
    // an import claimed and applied within the same millisecond was then not found.
    sql<{ id: number }[]>`
      select i.id::int as id from imports i, products p
       where p.shop_id = ${shopId} and p.id = ${productId}
         and i.shop_id = ${shopId} and i.operation like 'products.%' and i.started_at <= p.updated_at and i.finished_at >= p.updated_at
       order by i.id desc limit 1`,
  ]);
  const ancestors = new Set(categories.flatMap((c) => c.path));
  const names = new Map((await sql<{ id: string; name: string }[]>`select id, name from categories where shop_id = ${shopId} and id = any(${[...ancestors]}::text[])`).map((c) => [c.id, c.name]));
  const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);
  return {
    id: row.id,
    available: row.available,
    data: JSON.parse(row.data),
    columns: {
      price: row.price,
      oldprice: row.oldprice,
      discount_percent: row.discount_percent,
      sales_rate: row.sales_rate,
      first_added_at: iso(row.first_added_at)!,
      updated_at: iso(row.updated_at)!,
      creation_date: iso(row.creation_date),
    },
    categories: (row.categories as string[]).map((id) => {
      const found = categories.find((c) => c.id === id);
      return { id, name: found?.name ?? `${id} (unknown category)`, path: (found?.path ?? [id]).map((p) => ({ id: p, name: names.get(p) ?? p })) };
    }),
    offers: offers.map(([location, price, oldprice, discount, stock]) => ({
      location_id: location,
      location_name: locations.find((l) => l.id === location)?.name ?? null,
      price,
      oldprice,
      discount_percent: discount,
      stock_quantity: stock,
    })),
    images: row.picture ? imagesOf(ctx.sealKey, shopId, row.picture) : [],
    written_by_import: writer?.id ?? null,
  };
}

/**
 * The units the shop's params are sent with, read from a sample of its products (the listing's
 * facets carry none): name → unit.
 */
export async function paramUnits(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<Record<string, string>> {
  const rows = await ctx.sql<{ name: string; unit: string }[]>`
    select distinct on (p.param->>'name') p.param->>'name' as name, p.param->>'unit' as unit
      from (select data from products where shop_id = ${shopId} and data like '%"unit"%' limit 2000) s
      cross join lateral jsonb_array_elements(case when jsonb_typeof(s.data::jsonb->'params') = 'array' then s.data::jsonb->'params' else '[]'::jsonb end) as p(param)
     where coalesce(p.param->>'unit', '') <> ''`;
  return Object.fromEntries(rows.map((r) => [r.name, r.unit]));
}

function imagesOf(sealKey: Buffer, shopId: string, picture: string) {
  const paths = resizedImagePaths(imageSigningKey(sealKey), { shopId, url: picture, expires: linkExpiry(Date.now()) });
  return IMAGE_SIZES.map((size) => ({ size, url: paths[size] }));
}
