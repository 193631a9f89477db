import type { Sql } from 'postgres';
import { AppError } from '@/lib/http/errors';
import { isDatabaseUnavailable } from '@/lib/runtime/database-health';
import { noteRequestShop } from '@/lib/runtime/request-context';

// What storefront reads (listing, collections, init) need of a shop. Every listing request asks,
// so answers are remembered briefly; a changed setting shows within STOREFRONT_SHOP_TTL_MS.
export type StorefrontShop = {
  id: string;
  name: string;
  currency: string;
  currencySymbol: string | null;
  thousandsSeparator: string | null;
  decimalSeparator: string | null;
  decimals: number | null;
  listingExtendedDefault: boolean;
  listingTemplate: string | null;
  collectionTemplate: string | null;
};

const STOREFRONT_SHOP_TTL_MS = 2_000;
const remembered = new Map<string, { shop: StorefrontShop | null; until: number }>();
// Reads of a shop under way: the requests that find its answer expired together share one.
const reading = new Map<string, Promise<StorefrontShop | null>>();

/** The shop, or 400 `Shop not found` (spec §7). */
export async function storefrontShop(sql: Sql, shopId: string): Promise<StorefrontShop> {
  // No shop has such an id (PostgreSQL text cannot hold NUL): answered without asking or remembering.
  if (shopId.length > 128 || shopId.includes('\0')) throw new AppError('VALIDATION', 'Shop not found');
  const now = Date.now();
  let known = remembered.get(shopId);
  if (!known || known.until < now) {
    let read = reading.get(shopId);
    if (!read) {
      const stale = known;
      read = sql<StorefrontShop[]>`
        select id, name, currency, currency_symbol as "currencySymbol", thousands_separator as "thousandsSeparator",
               decimal_separator as "decimalSeparator", decimals, listing_extended_default as "listingExtendedDefault",
               listing_template as "listingTemplate", collection_template as "collectionTemplate"
          from shops where id = ${shopId}`.then(
        ([row]) => row ?? null,
        (error: unknown) => {
          // While the database is away, listings go on from the indexes in memory: the shop as last seen will do.
          if (stale?.shop && isDatabaseUnavailable(error)) return stale.shop;
          throw error;
        },
      );
      void read.finally(() => reading.delete(shopId)).catch(() => undefined);
      reading.set(shopId, read);
    }
    known = { shop: await read, until: now + STOREFRONT_SHOP_TTL_MS };
    remembered.set(shopId, known);
    if (remembered.size > 10_000) remembered.delete(remembered.keys().next().value!);
  }
  if (!known.shop) throw new AppError('VALIDATION', 'Shop not found');
  noteRequestShop(known.shop.id);
  return known.shop;
}
