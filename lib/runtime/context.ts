import type { PgBoss } from 'pg-boss';
import type { Sql } from 'postgres';
import type { Db } from '@/db/client';
import type { Settings } from './settings';
import { processWide } from '@/lib/process-wide';

/** What every domain verb may need: the database (postgres.js and Drizzle), jobs, settings. */
export type AppContext = {
  sql: Sql;
  db: Db;
  boss: PgBoss;
  settings: Settings;
  // Seals shop secrets at rest so webhooks can be signed with them.
  sealKey: Buffer;
};

// Next.js may load a module once per route bundle and the process entry loads its own copy:
// one context per process (lib/process-wide.ts), so all of them share one pool and one pg-boss.
const CONTEXT = processWide<AppContext>('app-context');

export function setAppContext(ctx: AppContext | undefined): void {
  CONTEXT.set(ctx);
}

export function appContext(): AppContext {
  const ctx = CONTEXT.get();
  if (!ctx) throw new Error('Vitrine runtime is not started (run the server through `npm start`)');
  return ctx;
}
