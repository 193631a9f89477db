import { sql } from 'drizzle-orm';
import { bigint, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shops } from './shops';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export type ImportProblem = { item_id?: string; position?: number; message: string };
// 'refused' only in attempts recorded before session 36; a refused target is now 'failed'.
export type WebhookAttempt = { at: string; outcome: 'delivered' | 'failed' | 'refused'; status?: number; message?: string };

export const imports = pgTable(
  'imports',
  {
    shopId: text('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    // Global identity, so ids grow in arrival order across every shop.
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    operation: text('operation').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    itemsTotal: integer('items_total'),
    itemsApplied: integer('items_applied'),
    itemsRejected: integer('items_rejected'),
    errors: jsonb('errors').$type<ImportProblem[]>().notNull().default(sql`'[]'::jsonb`),
    warnings: jsonb('warnings').$type<ImportProblem[]>().notNull().default(sql`'[]'::jsonb`),
    message: text('message'),
    webhook: text('webhook'),
    webhookAttempts: jsonb('webhook_attempts').$type<WebhookAttempt[]>().notNull().default(sql`'[]'::jsonb`),
    bodyBytes: integer('body_bytes').notNull(),
    // Times an applier started on it: one that keeps dying with it (out of memory, say) stops.
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.id] }),
    index('imports_pending').on(t.shopId, t.id).where(sql`status in ('queued', 'running')`),
  ],
);

// The raw request as the shop sent it, compressed (`encoding`: 'br-parts', or 'br' or 'gzip' from earlier versions; lib/imports/pipeline/body-codec.ts); kept apart so
// listing imports stays cheap.
export const importBodies = pgTable(
  'import_bodies',
  {
    shopId: text('shop_id').notNull(),
    importId: bigint('import_id', { mode: 'number' }).notNull(),
    body: bytea('body').notNull(),
    encoding: text('encoding').notNull().default('gzip'),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.importId] })],
);
