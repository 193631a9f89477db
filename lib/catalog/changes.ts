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
  const products = await sql<ChangedProduct[]>`
    select id, version, available, price, data from products
     where shop_id = ${shopId} and version > ${since}
     order by id`;
  return { version: shop?.version ?? 0, products };
}
