import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shops } from './shops';

// Curated product collections (CONTRACT §6): rules as groups, read through the listing index.
export const collections = pgTable(
  'collections',
  {
    shopId: text('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    id: integer('id').generatedAlwaysAsIdentity().notNull(),
    name: text('name').notNull(),
    rules: jsonb('rules').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] })],
);
