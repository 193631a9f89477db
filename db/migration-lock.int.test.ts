import postgres from 'postgres';
import { afterEach, expect, it } from 'vitest';
import { connectDatabase } from '@/db/client';
import { createEmptyDatabase } from '@/lib/testing/empty-database';
import { startServer, startWorker, type TestServer } from '@/lib/testing/server';
import journal from './migrations/meta/_journal.json';
import { runMigrations } from './migrate';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function appliedMigrations(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await sql<{ hash: string; created_at: number }[]>`select hash, created_at::float8 from drizzle.__drizzle_migrations order by id`;
  } finally {
    await sql.end();
  }
}

function expectEachMigrationOnce(rows: { created_at: number }[]) {
  expect(rows.map((row) => row.created_at)).toEqual(journal.entries.map((entry) => entry.when));
}

it('two processes migrating one fresh database at once apply each migration once', async () => {
  const database = await createEmptyDatabase();
  cleanups.push(database.drop);
  const a = connectDatabase(database.url);
  const b = connectDatabase(database.url);
  cleanups.push(a.close, b.close);
  const applied = await Promise.all([runMigrations(a), runMigrations(b)]);
  expect(applied.sort()).toEqual([0, journal.entries.length]);
  expectEachMigrationOnce(await appliedMigrations(database.url));
});

it('a web node and `npm run worker` booting together on a fresh database migrate it once', async () => {
  const database = await createEmptyDatabase();
  cleanups.push(database.drop);
  const started = await Promise.allSettled([startServer({ DATABASE_URL: database.url, WORKERS: 'off' }), startWorker({ DATABASE_URL: database.url })]);
  for (const result of started) if (result.status === 'fulfilled') cleanups.push(result.value.stop);
  const [server, worker] = started.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value as TestServer;
  });
  const migrated = [server, worker].filter((process) => process.output().includes(`migrations: applied ${journal.entries.length} (0 were applied before)`));
  expect(migrated).toHaveLength(1);
  expect([server, worker].filter((process) => process.output().includes('migrations: applied'))).toHaveLength(1);
  expectEachMigrationOnce(await appliedMigrations(database.url));
  const ready = await fetch(`${server.url}/readyz`);
  expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', workers: 'off' } });
});
