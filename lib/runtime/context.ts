import type { PgBoss } from 'pg-boss';
import type { Sql } from 'postgres';
import type { Db } from '@/db/client';
import type { Settings } from './settings';

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
// the context lives on globalThis so all of them share one pool and one pg-boss.
const KEY = Symbol.for('vitrine.app-context');
type Holder = { [KEY]?: AppContext };

export function setAppContext(ctx: AppContext | undefined): void {
  (globalThis as Holder)[KEY] = ctx;
}

export function appContext(): AppContext {
  const ctx = (globalThis as Holder)[KEY];
  if (!ctx) throw new Error('Vitrine runtime is not started (run the server through `npm start`)');
  return ctx;
}
