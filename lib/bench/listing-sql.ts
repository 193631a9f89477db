import type { Sql } from 'postgres';
import type { CollectionRules } from '@/lib/collections/schemas';
import type { ListingQuery } from '@/lib/listing/query';

// The straightforward way to answer a listing: one SQL statement per answer part over the filtered
// products, facets by GROUP BY. The benchmark's baseline, for the shapes it runs. It counts facets
// over the result only (not disjunctively), so it does less than the engine does.

const ORDER: Record<string, string> = {
  sales_rate: 'sales_rate',
  price: 'price',
  discount: 'discount',
  date: 'date',
  price_margin: 'price_margin',
  rating: 'rating',
};

export async function sqlListing(sql: Sql, q: ListingQuery) {
  const conditions: string[] = ['p.shop_id = $1'];
  const params: unknown[] = [q.shopId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (q.available) conditions.push('st.available');
  if (q.categories.length) {
    conditions.push(`exists (select 1 from categories c where c.shop_id = p.shop_id and c.id = any(p.categories) and c.path && ${param(q.categories)}::text[])`);
  }
  if (q.brands.length) conditions.push(`lower(p.brand) = any(${param(q.brands.map((b) => b.toLowerCase()))}::text[])`);
  for (const [name, values] of q.filters) {
    conditions.push(
      `exists (select 1 from jsonb_array_elements(p.data::jsonb->'params') x, jsonb_array_elements_text(x->'value') v where x->>'name' = ${param(name)} and v = any(${param(values)}::text[]))`,
    );
  }
  if (q.searchQuery) conditions.push(`p.name ilike ${param(`%${q.searchQuery}%`)}`);
  const located = q.locations.length > 0;
  const priceExpr = located ? 'coalesce(o.price, p.price)' : 'p.price';
  const discountExpr = located ? 'coalesce(o.discount_percent, p.discount_percent)' : 'p.discount_percent';
  const offerJoin = located
    ? // products.offers: [location_id, price, oldprice, discount_percent, stock_quantity] each.
      `left join lateral (select min((e->>1)::float8) as price, min((e->>3)::float8) as discount_percent, count(*) as n
                            from jsonb_array_elements(p.offers::jsonb) e join locations l on l.shop_id = p.shop_id and l.id = e->>0
                           where l.path && ${param(q.locations)}::text[]) o on true`
    : '';
  if (located) conditions.push(`(o.n > 0 or p.offers is null)`);
  if (q.priceMin !== null) conditions.push(`${priceExpr} >= ${param(q.priceMin)}`);
  if (q.priceMax !== null) conditions.push(`${priceExpr} <= ${param(q.priceMax)}`);
  if (q.discount !== null) conditions.push(q.discount ? `${discountExpr} > 0` : `${discountExpr} = 0`);

  const unit = q.collapse ? 'coalesce(m.group_id, m.id)' : 'm.id';
  const matched = `with m as materialized (
    select p.id, p.group_id, p.brand, p.categories, p.data::jsonb as data, ${priceExpr} as price, ${discountExpr} as discount,
           p.sales_rate, coalesce(p.creation_date, p.first_added_at) as date, p.price_margin, p.rating
      from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id ${offerJoin}
     where ${conditions.join(' and ')})`;
  const direction = q.sortDir === 'asc' ? 'asc' : 'desc';
  const order = `${ORDER[q.sortBy] ?? 'sales_rate'} ${direction} nulls last, id`;
  const offset = (q.page - 1) * q.limit;

  const statement = `${matched},
    reps as (select distinct on (${unit}) * from m order by ${unit}, ${order.replace(/\bid\b/, 'm.id')}),
    page as (select id from reps order by ${order} limit ${q.limit} offset ${offset}),
    brands as (select lower(brand) as value, count(distinct ${unit}) as count from m where brand is not null group by 1),
    cats as (select a as value, count(distinct ${unit}) as count
               from m cross join unnest(m.categories) cid join categories c on c.shop_id = $1 and c.id = cid cross join unnest(c.path) a group by 1),
    params as (select x->>'name' as name, v as value, count(distinct ${unit}) as count
                 from m, jsonb_array_elements(m.data->'params') x, jsonb_array_elements_text(x->'value') v
                where coalesce((x->>'searchable')::boolean, true) group by 1, 2),
    colors as (select lower(c->>'color') as value, count(distinct ${unit}) as count from m, jsonb_array_elements(coalesce(m.data->'fashion'->'colors', '[]')) c group by 1),
    sizes as (select lower(s) as value, count(distinct ${unit}) as count from m, jsonb_array_elements_text(coalesce(m.data->'fashion'->'sizes', '[]')) s group by 1)
    select (select count(*) from reps) as total,
           (select json_agg(id) from page) as ids,
           (select json_build_object('min', floor(min(price)), 'max', ceil(max(price)), 'median', floor(percentile_cont(0.5) within group (order by price))) from reps) as prices,
           (select json_agg(brands) from brands) as brands,
           (select json_agg(cats) from cats) as categories,
           (select json_agg(params) from params) as params,
           (select json_agg(colors) from colors) as colors,
           (select json_agg(sizes) from sizes) as sizes`;
  const [row] = await sql.unsafe(statement, params as never[]);
  return row;
}

/** A collection the plain way: one query per group, excluding what earlier groups matched. */
export async function sqlCollection(sql: Sql, shopId: string, rules: CollectionRules) {
  const params: unknown[] = [shopId];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = rules.groups.map((group) => {
    const parts = ['true'];
    if (group.categories) parts.push(`exists (select 1 from categories c where c.shop_id = p.shop_id and c.id = any(p.categories) and c.path && ${param(group.categories)}::text[])`);
    if (group.brands) parts.push(`lower(p.brand) = any(${param(group.brands.map((b) => b.toLowerCase()))}::text[])`);
    if (group.price_min !== undefined) parts.push(`p.price >= ${param(group.price_min)}`);
    if (group.price_max !== undefined) parts.push(`p.price <= ${param(group.price_max)}`);
    if (group.discount !== undefined) parts.push(group.discount ? 'p.discount_percent > 0' : 'p.discount_percent = 0');
    for (const [name, values] of Object.entries(group.params ?? {})) {
      parts.push(`exists (select 1 from jsonb_array_elements(p.data::jsonb->'params') x, jsonb_array_elements_text(x->'value') v where x->>'name' = ${param(name)} and v = any(${param(values)}::text[]))`);
    }
    return `(${parts.join(' and ')})`;
  });
  const selects = rules.groups.map(
    (group, i) => `(select ${i} as g, p.id, p.sales_rate from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
        where p.shop_id = $1 and st.available and ${conditions[i]} ${conditions.slice(0, i).map((c) => `and not ${c}`).join(' ')}
        order by p.sales_rate desc, p.id limit ${group.limit ?? 1000})`,
  );
  return sql.unsafe(`${selects.join(' union all ')} order by g, sales_rate desc, id`, params as never[]);
}
