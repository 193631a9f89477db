import type { AppContext } from '@/lib/runtime/context';
import { processWide } from '@/lib/process-wide';

export type TreeNode = { id: string; name: string; parent: string | null; depth: number; path: string[]; products: number; in_stock: number };
export type Trees = { categories: TreeNode[]; locations: TreeNode[]; version: number };

// Counting walks every product of the shop: kept per shop and catalog version (a few shops).
const KEPT = processWide<Map<string, Trees>>('admin-trees');
const kept = () => KEPT.getOrMake(() => new Map());

/**
 * A shop's category and location trees in path order, each node with the products in it or any
 * node below it (a product counts once per node, whatever number of its categories lie below),
 * and of those how many are in stock. A location counts the products with an offer there or
 * below; products without offers, which are in every location, are not counted.
 */
export async function shopTrees(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<Trees> {
  const sql = ctx.sql;
  const [{ version }] = await sql<{ version: number }[]>`select catalog_version::int as version from shops where id = ${shopId}`;
  const hit = kept().get(shopId);
  if (hit && hit.version === version) return hit;
  const [categories, locations] = await Promise.all([
    sql<TreeNode[]>`
      with counted as (
        select a.id, count(distinct p.id)::int as products, count(distinct p.id) filter (where s.available)::int as in_stock
          from products p
          join product_state s on s.shop_id = p.shop_id and s.product_id = p.id
          cross join lateral unnest(p.categories) as pc(id)
          join categories c on c.shop_id = p.shop_id and c.id = pc.id
          cross join lateral unnest(c.path) as a(id)
         where p.shop_id = ${shopId}
         group by a.id)
      select c.id, c.name, c.parent, c.depth, c.path, coalesce(n.products, 0) as products, coalesce(n.in_stock, 0) as in_stock
        from categories c left join counted n on n.id = c.id
       where c.shop_id = ${shopId} order by c.path`,
    sql<TreeNode[]>`
      with counted as (
        select a.id, count(distinct p.id)::int as products, count(distinct p.id) filter (where s.available)::int as in_stock
          from products p
          join product_state s on s.shop_id = p.shop_id and s.product_id = p.id
          cross join lateral jsonb_array_elements(p.offers::jsonb) as o(offer)
          join locations l on l.shop_id = p.shop_id and l.id = o.offer->>0
          cross join lateral unnest(l.path) as a(id)
         where p.shop_id = ${shopId} and p.offers is not null
         group by a.id)
      select l.id, l.name, l.parent, l.depth, l.path, coalesce(n.products, 0) as products, coalesce(n.in_stock, 0) as in_stock
        from locations l left join counted n on n.id = l.id
       where l.shop_id = ${shopId} order by l.path`,
  ]);
  const trees = { categories, locations, version };
  kept().set(shopId, trees);
  if (kept().size > 8) kept().delete(kept().keys().next().value!);
  return trees;
}
