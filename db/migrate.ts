import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import type { Sql } from 'postgres';
import type { Database } from './client';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Held while migrating: Drizzle's migrator takes no lock, so a server and a worker starting
 * together on a fresh database would both find nothing applied and both run 0000 (one then fails
 * on a table the other made). The second waits here and finds everything applied.
 */
const MIGRATION_LOCK = 7_399;

async function appliedCount(sql: Sql): Promise<number> {
  const [{ exists }] = await sql<{ exists: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
  if (!exists) return 0;
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`;
  return count;
}

/** Applies the committed migrations not yet applied, one process at a time; says how many it applied. */
export async function runMigrations({ db, sql }: Pick<Database, 'db' | 'sql'>, report?: (line: string) => void): Promise<number> {
  const conn = await sql.reserve();
  try {
    await conn`select pg_advisory_lock(${MIGRATION_LOCK})`;
    const before = await appliedCount(conn);
    await migrate(db, { migrationsFolder });
    const applied = (await appliedCount(conn)) - before;
    if (applied > 0) report?.(`migrations: applied ${applied} (${before} were applied before)`);
    return applied;
  } finally {
    await conn`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
    conn.release();
  }
}
