import type { Sql } from 'postgres';

export type ChangedProduct = {
  id: string;
  version: number;
  available: boolean;
  price: number;
  data: Record<string, unknown>;
};

/**
 * The products of a shop that changed after catalog version `since` (every one with since = 0),
 * with the version they are at now. Readers keep the version they built from and ask again.
 */
export async function productsChangedSince(sql: Sql, shopId: string, since: number): Promise<{ version: number; products: ChangedProduct[] }> {
  const [shop] = await sql<{ version: number }[]>`select catalog_version as version from shops where id = ${shopId}`;
  const rows = await sql<(Omit<ChangedProduct, 'data'> & { data: string })[]>`
    select p.id, greatest(p.version, st.version) as version, st.available, p.price, p.data
      from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
     where p.shop_id = ${shopId} and (p.version > ${since} or st.version > ${since})
     order by p.id`;
  const products = rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
  return { version: shop?.version ?? 0, products };
}
