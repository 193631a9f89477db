import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shops } from './shops';

// System flags of a customer email (spec 4.8): complained, hard_bounced, blacklisted, unsubscribed.
export const emailFlags = pgTable(
  'email_flags',
  {
    shopId: text('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    // In the order they were first set; each at most once.
    flags: text('flags').array().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.email] }), index('email_flags_updated').on(t.shopId, t.updatedAt)],
);
