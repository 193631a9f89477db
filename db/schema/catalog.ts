import { index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
