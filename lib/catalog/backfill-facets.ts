import type { Sql } from 'postgres';
import { facetTokens } from '@/lib/catalog/facet-tokens';

/**
 * Fills `products.facets` for rows stored before it and `facet_values` existed (the listing index reads
 * those rows' values from `data` meanwhile, more slowly). Batches of 5,000, each its own
 * statement; the catalog version does not move (what a listing shows does not change).
 * Returns the number of rows filled.
 */
export async function backfillFacets(sql: Sql, shopId: string, log: (line: string) => void = () => undefined): Promise<number> {
  let filled = 0;
  let after = '';
  for (;;) {
    const rows = await sql<{ id: string; categories: string[]; brand: string | null; brand_picture: unknown; params: unknown; fashion: unknown }[]>`
      select id, categories, brand, data::jsonb->'brand_picture' as brand_picture, data::jsonb->'params' as params, data::jsonb->'fashion' as fashion
        from products where shop_id = ${shopId} and facets is null and facet_values is null and id > ${after} order by id limit 5000`;
    if (rows.length === 0) return filled;
    after = rows[rows.length - 1].id;
    const computed = rows.map((row) => ({ id: row.id, facets: facetTokens(row) }));
    const storable = computed.filter((row) => row.facets !== null);
    // Only rows still without tokens: an import since the read wrote its own, from newer data.
    if (storable.length > 0) {
      await sql`
        update products p set facets = f.facets
          from unnest(${storable.map((row) => row.id)}::text[], ${storable.map((row) => row.facets!)}::text[]) as f(id, facets)
         where p.shop_id = ${shopId} and p.id = f.id and p.facets is null and p.facet_values is null`;
    }
    filled += storable.length; // rows whose values hold a separator stay null
    if (filled % 100_000 < storable.length) log(`facets of ${filled} products filled`);
  }
}
