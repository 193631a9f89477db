import type { ImportProblem } from '@/db/schema';
import { describeZodError } from '@/lib/http/zod-message';
import { itemIdOf } from '@/lib/imports/outcome';
import type { BinaryRows, BinaryType, CopyValue } from './copy-rows';
import type { FacetEncoder } from './facet-dictionary';
import { checkItem } from './fast-item';
import { discountPercent, ItemInput, isoInstant } from './product-schema';

export const PRODUCT_COLUMNS = [
  'id',
  'group_id',
  'name',
  'url',
  'picture',
  'price',
  'oldprice',
  'discount_percent',
  'currency',
  'brand',
  'merchants',
  'categories',
  'stock_quantity',
  'rating',
  'price_margin',
  'creation_date',
  'data',
  'facet_values',
  'model',
  'book',
];
export const OFFER_COLUMNS = ['product_id', 'location_id', 'price', 'oldprice', 'discount_percent', 'stock_quantity', 'data'];

// The columns' types, for COPY's binary format (products and staging_products alike).
const PRODUCT_TYPES: BinaryType[] = ['text', 'text', 'text', 'text', 'text', 'float8', 'float8', 'float8', 'text', 'text', 'text[]', 'text[]', 'int4', 'float8', 'float8', 'timestamptz', 'json', 'text', 'text', 'json'];
const OFFER_TYPES: BinaryType[] = ['text', 'text', 'float8', 'float8', 'float8', 'int4', 'json'];

export type Prepared = { id: string; product: CopyValue[]; available: boolean; offers: CopyValue[][] };

/**
 * An item as stored: columns for the readers, `data` as accepted, its facet tokens as numbers in
 * the shop's dictionary, one row per location offer. What it gives for an item must stay a
 * function of the item's text (the dictionary's numbers aside: they stand for the same tokens):
 * a change here needs sent-items.ts's DIGEST_VERSION bumped, or items re-sent unchanged keep their
 * old rows.
 */
export function prepareItem(item: ItemInput, facets: FacetEncoder, sentText?: string): Prepared {
  const params = (item.params ?? []).filter((param) => param.name !== '');
  // Params with an empty name are dropped from what is kept; otherwise it is the item as it is.
  const dropped = params.length !== (item.params?.length ?? 0);
  const data = dropped ? { ...item, params } : item;
  // The item's text as sent stands for `data` when they are the same JSON: no JSON.stringify.
  const dataText = sentText !== undefined && !dropped ? sentText : undefined;
  // A location listed twice in one item: the last offer counts.
  const lastOffers = item.locations?.length ? new Map(item.locations.map((offer) => [offer.location, offer])) : undefined;
  const offers = [...(lastOffers?.values() ?? [])].map((offer) => {
    // CONTRACT §3: an offer inherits whichever of price and oldprice it lacks from the item.
    const price = offer.price ?? item.price;
    const oldprice = offer.oldprice ?? item.oldprice ?? null;
    const { location: _location, ...rest } = offer;
    return [item.id, offer.location, price, oldprice, discountPercent(offer.discount_percent, price, oldprice), offer.stock_quantity ?? null, { json: rest }];
  });
  const created = item.creation_date ? isoInstant(item.creation_date) : null;
  return {
    id: item.id,
    // CONTRACT §3: a PUT item is in stock unless it says otherwise.
    available: item.available ?? true,
    product: [
      item.id,
      item.group_id ?? null,
      item.name,
      item.url,
      item.picture,
      item.price,
      item.oldprice ?? null,
      discountPercent(item.discount_percent, item.price, item.oldprice),
      item.currency ?? null,
      item.brand ?? null,
      item.merchant ?? null,
      item.categories,
      item.stock_quantity ?? null,
      item.rating ?? null,
      item.price_margin ?? null,
      created,
      { json: data, text: dataText },
      facets.encode({ categories: item.categories, brand: item.brand, brand_picture: data.brand_picture, params, fashion: item.fashion }),
      item.model ?? null,
      item.book ? { json: item.book } : null,
    ],
    offers,
  };
}

/** An item validated and turned into column values: a function of the item alone, not of the catalog. */
export type PreparedItem =
  | {
      ok: true;
      id: string;
      available: boolean;
      categories: readonly string[];
      offerLocations: readonly string[];
      // PRODUCT_COLUMNS' values (writeProductFields), and OFFER_COLUMNS' of each offer (writeOfferFields).
      product: CopyValue[];
      offers: CopyValue[][];
    }
  | { ok: false; problem: ImportProblem };

/**
 * Validates an item (the plain checks, else zod) and turns it into column values, or says why not.
 * `sentText` gives the item's JSON as sent, used for `data` when validation changed nothing.
 */
export function prepareForCopy(raw: unknown, position: number, facets: FacetEncoder, sentText?: () => string | undefined): PreparedItem {
  const checked = checkItem(raw);
  let item = checked?.item;
  if (item === undefined) {
    const parsed = ItemInput.safeParse(raw);
    if (!parsed.success) return { ok: false, problem: { item_id: itemIdOf(raw), position, message: describeZodError(parsed.error) } };
    item = parsed.data;
  }
  const prepared = prepareItem(item, facets, checked?.exact && sentText ? sentText() : undefined);
  return {
    ok: true,
    id: item.id,
    available: prepared.available,
    categories: item.categories,
    offerLocations: (item.locations ?? []).map((offer) => offer.location),
    product: prepared.product,
    offers: prepared.offers,
  };
}

/** Writes a prepared product's PRODUCT_COLUMNS fields (not the row's field count). */
export function writeProductFields(rows: BinaryRows, product: CopyValue[]): void {
  for (let i = 0; i < PRODUCT_TYPES.length; i++) rows.field(PRODUCT_TYPES[i], product[i]);
}

/** Writes a prepared offer's OFFER_COLUMNS fields (not the row's field count). */
export function writeOfferFields(rows: BinaryRows, offer: CopyValue[]): void {
  for (let i = 0; i < OFFER_TYPES.length; i++) rows.field(OFFER_TYPES[i], offer[i]);
}
