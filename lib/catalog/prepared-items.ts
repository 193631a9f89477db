import type { ImportProblem } from '@/db/schema';
import { describeZodError } from '@/lib/http/zod-message';
import { itemIdOf } from '@/lib/catalog/import-outcome';
import type { BinaryRows, BinaryType, CopyValue } from './copy-rows';
import type { FacetSource } from '@/lib/catalog/facet-tokens';
import type { FacetEncoder } from './facet-dictionary';
import { checkItem } from './item-rules';
import { isoInstant } from './iso-dates';
import { discountPercent, ItemInput } from './product-schema';
import type { StoredOffer } from './stored-offers';

// A product's columns as an item alone gives them (PreparedBatch writes these ahead), then
// facet_values, which needs the shop's facet dictionary.
export const FIELD_COLUMNS = [
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
  'model',
  'book',
  'offers',
];
export const PRODUCT_COLUMNS = [...FIELD_COLUMNS, 'facet_values'];

// The columns' types, for COPY's binary format (products and staging_products alike).
const FIELD_TYPES: BinaryType[] = ['text', 'text', 'text', 'text', 'text', 'float8', 'float8', 'float8', 'text', 'text', 'text[]', 'text[]', 'int4', 'float8', 'float8', 'timestamptz', 'json', 'text', 'json', 'json'];
const PRODUCT_TYPES: BinaryType[] = [...FIELD_TYPES, 'text'];

/** An item's column values: FIELD_COLUMNS' (`fields`), the source of its facet tokens. */
export type Prepared = { id: string; fields: CopyValue[]; facets: FacetSource; available: boolean };

/**
 * An item as stored: columns for the readers, `data` as accepted, what its facet tokens are made
 * from (numbered in the shop's dictionary when written), its location offers. What it
 * gives for an item must stay a function of the item's text: a change here needs sent-items.ts's
 * DIGEST_VERSION bumped, or items re-sent unchanged keep their old rows.
 */
export function prepareItem(item: ItemInput, sentText?: string): Prepared {
  const params = (item.params ?? []).filter((param) => param.name !== '');
  // Params with an empty name are dropped from what is kept; otherwise it is the item as it is.
  const dropped = params.length !== (item.params?.length ?? 0);
  const data = dropped ? { ...item, params } : item;
  // The item's text as sent stands for `data` when they are the same JSON: no JSON.stringify.
  const dataText = sentText !== undefined && !dropped ? sentText : undefined;
  // A location listed twice in one item: the last offer counts (in the place of the first).
  const lastOffers = item.locations?.length ? new Map(item.locations.map((offer) => [offer.location, offer])) : undefined;
  const offers = lastOffers
    ? [...lastOffers.values()].map((offer): StoredOffer => {
        // CONTRACT §3: an offer inherits whichever of price and oldprice it lacks from the item.
        const price = offer.price ?? item.price;
        const oldprice = offer.oldprice ?? item.oldprice ?? null;
        return [offer.location, price, oldprice, discountPercent(offer.discount_percent, price, oldprice), offer.stock_quantity ?? null];
      })
    : undefined;
  const created = item.creation_date ? isoInstant(item.creation_date) : null;
  return {
    id: item.id,
    // CONTRACT §3: a PUT item is in stock unless it says otherwise.
    available: item.available ?? true,
    fields: [
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
      item.model ?? null,
      item.book ? { json: item.book } : null,
      offers ? { json: offers } : null,
    ],
    facets: { categories: item.categories, brand: item.brand, brand_picture: data.brand_picture, params, fashion: item.fashion },
  };
}

/** PRODUCT_COLUMNS' values of a prepared item, its facet tokens numbered by `facets`. */
export function productValues(prepared: Prepared, facets: FacetEncoder): CopyValue[] {
  return [...prepared.fields, facets.encode(prepared.facets)];
}

/**
 * An item validated (the plain checks, else zod) and turned into column values, or why not.
 * `sentText` gives the item's JSON as sent, used for `data` when validation changed nothing.
 */
export function validateAndPrepare(raw: unknown, position: number, sentText?: () => string | undefined): { ok: true; item: ItemInput; prepared: Prepared } | { ok: false; problem: ImportProblem } {
  const checked = checkItem(raw);
  let item = checked?.item;
  if (item === undefined) {
    const parsed = ItemInput.safeParse(raw);
    if (!parsed.success) return { ok: false, problem: { item_id: itemIdOf(raw), position, message: describeZodError(parsed.error) } };
    item = parsed.data;
  }
  return { ok: true, item, prepared: prepareItem(item, checked?.exact && sentText ? sentText() : undefined) };
}

/** Writes a prepared product's FIELD_COLUMNS fields (not the row's field count). */
export function writeFields(rows: BinaryRows, fields: CopyValue[]): void {
  for (let i = 0; i < FIELD_TYPES.length; i++) rows.field(FIELD_TYPES[i], fields[i]);
}

/** Writes PRODUCT_COLUMNS' fields (not the row's field count). */
export function writeProductFields(rows: BinaryRows, product: CopyValue[]): void {
  for (let i = 0; i < PRODUCT_TYPES.length; i++) rows.field(PRODUCT_TYPES[i], product[i]);
}
