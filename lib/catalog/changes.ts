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
    select p.id, greatest(st.data_version, st.version) as version, st.available, p.price, p.data
      from product_state st join products p on p.shop_id = st.shop_id and p.id = st.product_id
     where st.shop_id = ${shopId} and (st.data_version > ${since} or st.version > ${since})
     order by p.id`;
  const products = rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
  return { version: shop?.version ?? 0, products };
}
