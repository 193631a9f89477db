import type { Sql } from 'postgres';
import journal from './migrations/meta/_journal.json';

// The journal is imported, not read from disk: this module runs inside the Next.js bundle too.
const latest = journal.entries[journal.entries.length - 1];

/** The newest committed migration's tag, and whether the database has it applied. */
export async function migrationState(sql: Sql): Promise<{ latest: string; applied: boolean }> {
  const [{ exists }] = await sql<{ exists: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
  const [row] = exists ? await sql<{ created_at: number | null }[]>`select max(created_at)::int8 as created_at from drizzle.__drizzle_migrations` : [{ created_at: null }];
  return { latest: latest.tag, applied: row.created_at !== null && Number(row.created_at) >= latest.when };
}
