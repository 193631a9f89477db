import type { Sql } from 'postgres';
import type { StoredProduct } from '@/lib/storefront/product-card';
import type { ShopIndex } from './indexing';

// The stored products a page shows (listing and collections), kept with the index version that
// chose them: the same pages are asked for again and again, and reading and parsing twenty
// products' `data` cost about as much as the rest of a listing answer. A new catalog version is a
// new index, which takes over the kept rows of the products not changed since (index-store.ts,
// carryIntoRebuild); an availability patch keeps them all (it is made only when no row changed).

/** A stored product with its location offers as stored (`products.offers`, JSON text or null): a page at a location shows their stock. */
export type KeptProduct = StoredProduct & { offers: string | null };

/**
 * Products kept per index, the least recently shown dropped first: ~40 pages of 24. Parsed rows
 * are the heap's largest part and every full collection marks them all: with 4,096 a shop, the
 * soak's 20 shops kept ~80,000 (heap 300 → 500 MB over two minutes, listing p95 120 → 490 ms as
 * it grew); with 1,024, heap 246–315 MB and p95 98–183 ms throughout (docs/reliability.md,
 * session 46).
 */
export const KEPT_PRODUCTS = 1_024;

/**
 * Parsed, a product's `data` takes about this many bytes of heap per character of its text (2.07
 * measured on 4,096 of the benchmark's synthetic products; more for many short values).
 */
const HEAP_PER_CHARACTER = 3;

/** The kept rows and a rough figure of the memory they hold, which the memory budget reads. */
export class KeptProducts {
  readonly rows = new Map<string, { product: KeptProduct; bytes: number }>();
  private bytes = 0;

  estimatedBytes(): number {
    return this.bytes;
  }

  get(id: string): KeptProduct | undefined {
    const kept = this.rows.get(id);
    if (!kept) return undefined;
    this.rows.delete(id); // most recently shown last
    this.rows.set(id, kept);
    return kept.product;
  }

  /**
   * A copy without the rows of `ids`: a rebuild's index takes the rows kept for its previous one
   * but those it read again (a shop importing every few seconds would otherwise read and parse its
   * pages' products anew after each import).
   */
  without(ids: ReadonlySet<string>): KeptProducts {
    const copy = new KeptProducts();
    for (const [id, { product, bytes }] of this.rows) if (!ids.has(id)) copy.add(product, bytes);
    return copy;
  }

  add(product: KeptProduct, bytes: number): void {
    this.rows.set(product.id, { product, bytes });
    this.bytes += bytes;
    while (this.rows.size > KEPT_PRODUCTS) {
      const [oldest, { bytes: dropped }] = this.rows.entries().next().value!;
      this.rows.delete(oldest);
      this.bytes -= dropped;
    }
  }
}

/** The products of `ids` that exist, by id (a product missing was removed since this index version). */
export async function storedProducts(sql: Sql, index: ShopIndex, ids: string[]): Promise<Map<string, KeptProduct>> {
  const kept = (index.memo.storedProducts ??= new KeptProducts());
  const found = new Map<string, KeptProduct>();
  const missing: string[] = [];
  for (const id of ids) {
    const product = kept.get(id);
    if (product) found.set(id, product);
    else missing.push(id);
  }
  if (missing.length > 0) {
    // `data` is JSON text: its length gives the size the kept product is counted at.
    const rows = await sql<{ id: string; data: string; sales_rate: number; offers: string | null }[]>`
      select id, data, sales_rate, offers from products where shop_id = ${index.shopId} and id = any(${missing})`;
    for (const row of rows) {
      const product: KeptProduct = { id: row.id, data: JSON.parse(row.data) as Record<string, unknown>, sales_rate: row.sales_rate, offers: row.offers };
      found.set(row.id, product);
      kept.add(product, HEAP_PER_CHARACTER * row.data.length + 2 * (row.offers?.length ?? 0) + 200);
    }
  }
  return found;
}
