// A product's location offers as `products.offers` holds them (JSON text): what imports write
// (prepared-items.ts) and what the listing reads (build-index.ts, listing.ts).

/** One offer: [location_id, price, oldprice, discount_percent, stock_quantity]. */
export type StoredOffer = [location: string, price: number, oldprice: number | null, discountPercent: number, stockQuantity: number | null];

/** A product's `offers` column read back (null: it has none). */
export function storedOffers(column: string | null): StoredOffer[] {
  return column === null ? [] : (JSON.parse(column) as StoredOffer[]);
}
