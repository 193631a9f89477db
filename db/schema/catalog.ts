import { bigint, boolean, doublePrecision, index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shops } from './shops';

// `path` holds the ids from the root down to the node itself, through known nodes only:
// "a category and all its descendants" is `path @> array[id]`.
export const categories = pgTable(
  'categories',
  {
    shopId: text('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    parent: text('parent'),
    url: text('url'),
    alias: text('alias'),
    path: text('path').array().notNull(),
    depth: integer('depth').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] }), index('categories_path').using('gin', t.path)],
);

export const locations = pgTable(
  'locations',
  {
    shopId: text('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    name: text('name').notNull(),
    parent: text('parent'),
    type: text('type'),
    groups: text('groups').array(),
    discountPercent: numeric('discount_percent', { mode: 'number' }),
    searchLevelUp: integer('search_level_up'),
    path: text('path').array().notNull(),
    depth: integer('depth').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] }), index('locations_path').using('gin', t.path)],
);

// One row per product. The columns are what the listing index and the SQL paths read; `data` is
// the item as accepted (after CONTRACT §3's coercions), returned unchanged wherever the API shows
// a product. A re-sent unchanged item (same `data`) costs no write. Availability lives in
// product_state.
export const products = pgTable(
  'products',
  {
    // No foreign key, as for product_state: checking it cost ~11 µs of
    // PostgreSQL CPU per row copied (of ~57) at 1,000,000 products, and only the applier, for an
    // authenticated shop, writes here. Deleting a shop must delete its catalog rows itself.
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    groupId: text('group_id'),
    name: text('name').notNull(),
    url: text('url').notNull(),
    picture: text('picture').notNull(),
    price: doublePrecision('price').notNull(),
    oldprice: doublePrecision('oldprice'),
    discountPercent: doublePrecision('discount_percent').notNull(),
    currency: text('currency'),
    brand: text('brand'),
    merchants: text('merchants').array(),
    categories: text('categories').array().notNull(),
    stockQuantity: integer('stock_quantity'),
    rating: doublePrecision('rating'),
    priceMargin: doublePrecision('price_margin'),
    // Kept across PUTs: set by the service, not by the shop's feed.
    salesRate: doublePrecision('sales_rate').notNull().default(0),
    firstAddedAt: timestamp('first_added_at', { withTimezone: true }).notNull().defaultNow(),
    creationDate: timestamp('creation_date', { withTimezone: true }),
    // JSON text, not jsonb: PostgreSQL neither parses it nor compresses it on the way in (with
    // toast_tuple_target 8160, migration 0012), which took ~28 µs of its CPU per row copied
    // (two thirds of a product row's cost). Readers parse it; SQL that needs a field casts
    // (`data::jsonb`), and search reads `model` and `book` from their own columns.
    data: text('data').notNull(),
    // What search indexes besides the name: the item's `model`, and its `book` as JSON text.
    model: text('model'),
    book: text('book'),
    // The product's location offers (spec 2.5) as the listing reads them, JSON text: an array of
    // [location_id, price, oldprice, discount_percent, stock_quantity], one per location, price
    // and oldprice inherited from the item when the offer lacks them (CONTRACT §3), oldprice and
    // stock_quantity null when neither says. Null when the item has none. The offers as sent are
    // in `data`. In the product's row rather than a row each: offer rows, their key and its index
    // cost PostgreSQL ~8 µs of its ~33 an item during a first load (docs/benchmarks.md). SQL
    // reads them with `jsonb_array_elements(offers::jsonb)`.
    offers: text('offers'),
    // The item's facet values (categories, brand, colours, sizes, params) as compact tokens
    // (lib/catalog/facet-tokens.ts), so the listing index is built without parsing `data`. Null
    // for rows stored before the column existed, or whose values contain a separator: the index
    // builder then reads them from `data`.
    facets: text('facets'),
    // The same tokens as numbers in the shop's facet dictionary (`facet_tokens`), decimal and
    // space-separated: what products stored since that table existed carry instead of `facets`.
    // The index builder reads this first, then `facets`, then `data`.
    facetValues: text('facet_values'),
    // The shop's catalog version in which this row last changed (product_state.data_version
    // says it too, for readers: no index here on it, ~1.5–2 µs of PostgreSQL's CPU a row copied).
    version: bigint('version', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);

// Whether a product is in stock, kept apart from the wide product row: PATCH, DELETE and POST
// rewrite this narrow row only, so syncing a whole catalog's availability stays cheap. No index
// but the key, and pages left 15 % free (migration 0011): a changed row is then rewritten in its
// page without new index entries (a HOT update: one WAL record instead of ~4). Readers asking
// what changed since a version scan the shop's rows.
export const productState = pgTable(
  'product_state',
  {
    shopId: text('shop_id').notNull(),
    productId: text('product_id').notNull(),
    available: boolean('available').notNull(),
    // A digest of the item's JSON exactly as the shop last sent it (lib/catalog/sent-items.ts):
    // the same bytes sent again are recognised without validating them. Null when unknown. Here
    // rather than in `products`: an import looks up each id it is sent in this narrow table
    // alone (migration 0013).
    sourceDigest: text('source_digest'),
    // The catalog version in which availability last changed.
    version: bigint('version', { mode: 'number' }).notNull(),
    // The catalog version in which the product's row last changed (products.version): readers
    // asking what changed since a version find both here, in one pass over the shop's narrow rows.
    dataVersion: bigint('data_version', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.productId] })],
);

// A shop's facet dictionary: each facet token (lib/listing/facet-tokens.ts) a product has ever
// carried, numbered densely from 0 in the order first stored. Numbers are never reused or
// changed, so products store them (`products.facet_values`) and the index builder resolves each
// distinct token once per build instead of once per product. Written only by imports, which
// hold the shop's row lock (lib/catalog/facet-dictionary.ts).
export const facetTokens = pgTable(
  'facet_tokens',
  {
    shopId: text('shop_id').notNull(),
    number: integer('number').notNull(),
    token: text('token').notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.number] })],
);
