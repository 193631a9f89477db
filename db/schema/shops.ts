import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const shops = pgTable('shops', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  secretHash: text('secret_hash').notNull(),
  // The secret itself, AES-GCM-sealed under the server key: webhooks are signed with it.
  secretSealed: text('secret_sealed').notNull(),
  currency: text('currency').notNull().default('USD'),
  // Formatting overrides; null means "what Intl.NumberFormat gives for the currency".
  currencySymbol: text('currency_symbol'),
  thousandsSeparator: text('thousands_separator'),
  decimalSeparator: text('decimal_separator'),
  decimals: integer('decimals'),
  listingExtendedDefault: boolean('listing_extended_default').notNull().default(false),
  // Liquid templates of the listing's and the collections' `html`; null: the built-in ones.
  listingTemplate: text('listing_template'),
  collectionTemplate: text('collection_template'),
  // Bumped in the same transaction as every applied import; listeners refresh their indexes.
  catalogVersion: bigint('catalog_version', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// Sliding-window request log per limiter key, shared by every process through PostgreSQL.
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: timestamp('hits', { withTimezone: true }).array().notNull(),
});

// Keys the service itself needs, such as the one that seals shop secrets for webhook signing
// when SECRET_KEY is not set in the environment.
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

// Every saved version of a shop's listing and collection templates (admin app): a save adds
// one, a restore adds a copy of the old one, so the history only grows. `source` null: the
// built-in template.
export const templateVersions = pgTable(
  'template_versions',
  {
    shopId: text('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['listing', 'collection'] }).notNull(),
    source: text('source'),
    savedBy: text('saved_by'),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.id] }), index('template_versions_kind').on(t.shopId, t.kind, t.id)],
);
