import type { Sql } from 'postgres';
import type { StoredProduct } from '@/lib/storefront/product-card';
import type { ShopIndex } from './build-index';

// The stored products a page shows (listing and collections), kept with the index version that
// chose them: the same pages are asked for again and again, and reading and parsing twenty
// products' `data` cost about as much as the rest of a listing answer. A new catalog version is a
// new index, so nothing kept outlives the version it was read for (an availability patch keeps
// them: it is made only when no product row changed).

/** Products kept per index, the least recently shown dropped first. */
export const KEPT_PRODUCTS = 4_096;

/** The products of `ids` that exist, by id (a product missing was removed since this index version). */
export async function storedProducts(sql: Sql, index: ShopIndex, ids: string[]): Promise<Map<string, StoredProduct>> {
  let kept = index.cache.get('stored-products') as Map<string, StoredProduct> | undefined;
  if (!kept) {
    kept = new Map();
    index.cache.set('stored-products', kept);
  }
  const found = new Map<string, StoredProduct>();
  const missing: string[] = [];
  for (const id of ids) {
    const product = kept.get(id);
    if (!product) {
      missing.push(id);
      continue;
    }
    kept.delete(id); // most recently shown last
    kept.set(id, product);
    found.set(id, product);
  }
  if (missing.length > 0) {
    const rows = await sql<StoredProduct[]>`select id, data, sales_rate from products where shop_id = ${index.shopId} and id = any(${missing})`;
    for (const row of rows) {
      found.set(row.id, row);
      kept.set(row.id, row);
    }
    while (kept.size > KEPT_PRODUCTS) kept.delete(kept.keys().next().value!);
  }
  return found;
}
