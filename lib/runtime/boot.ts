import crypto from 'node:crypto';
import { PgBoss } from 'pg-boss';
import type { Sql } from 'postgres';
import { connectDatabase, type Database } from '@/db/client';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '@/db/embedded';
import { runMigrations } from '@/db/migrate';
import { createQueues } from '@/lib/jobs';
import { readSettings, type Settings } from './settings';
import { setAppContext, type AppContext } from './context';
import { describeError, log } from '@/lib/runtime/log';
import { noteDatabaseDown, watchDatabase } from './database-health';

/** `abandon`: for a process exiting without `shutdown` (it hung); ends the embedded PostgreSQL it keeps. */
export type Runtime = { ctx: AppContext; databaseUrl: string; shutdown: () => Promise<void>; abandon: () => void };


async function loadSealKey(sql: Sql, fromEnv: string | undefined): Promise<Buffer> {
  if (fromEnv) {
    const key = /^[0-9a-f]{64}$/i.test(fromEnv) ? Buffer.from(fromEnv, 'hex') : Buffer.from(fromEnv, 'base64');
    if (key.length !== 32) throw new Error('SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
    return key;
  }
  const generated = crypto.randomBytes(32).toString('base64');
  await sql`insert into server_keys (name, value) values ('seal', ${generated}) on conflict (name) do nothing`;
  const [row] = await sql<{ value: string }[]>`select value from server_keys where name = 'seal'`;
  return Buffer.from(row.value, 'base64');
}

/**
 * Connects to PostgreSQL (embedded when DATABASE_URL is unset), runs migrations, starts pg-boss
 * and publishes the context. `maintenance` lets this process run pg-boss's supervision;
 * `shortLived` (the CLI) leaves an embedded cluster it started running for a process that
 * joined it meanwhile, and leaves the queues' settings to the server and workers. `poolSize`:
 * the connections of its pool (10 unless given; the web process's is DATABASE_POOL_SIZE).
 */
export async function boot(options: { maintenance: boolean; settings?: Settings; shortLived?: boolean; applicationName?: string; poolSize?: number }): Promise<Runtime> {
  const settings = options.settings ?? readSettings();
  let embedded: EmbeddedDatabase | undefined;
  let url = settings.databaseUrl;
  if (!url) {
    // A server or worker starts the cluster again when it dies; a CLI command just fails.
    const supervise = options.shortLived ? undefined : { onDown: noteDatabaseDown, onUp: () => {} };
    embedded = await startEmbeddedPostgres(settings.dataDir, log, { leaveToOthers: options.shortLived, supervise });
    url = embedded.url;
    log(`embedded PostgreSQL on ${settings.dataDir}${embedded.owned ? '' : ' (already running)'}`);
  }
  let database: Database | undefined;
  let boss: PgBoss | undefined;
  try {
    database = connectDatabase(url, { applicationName: options.applicationName, max: options.poolSize });
    await runMigrations(database, log);
    const sealKey = await loadSealKey(database.sql, settings.secretKey);
    boss = new PgBoss({
      connectionString: url,
      max: 4,
      supervise: options.maintenance,
      schedule: false,
      useListenNotify: options.maintenance,
      application_name: 'vitrine-jobs',
    });
    boss.on('error', (error) => log(`jobs: ${describeError(error)}`, undefined, 'error'));
    await boss.start();
    await createQueues(boss, settings.webhooks, { update: !options.shortLived });
    const ctx: AppContext = { sql: database.sql, db: database.db, boss, settings, sealKey };
    setAppContext(ctx);
    // Outages are noticed, logged and answered with 503 within seconds, even with no request coming.
    const stopWatching = options.shortLived ? undefined : watchDatabase(database.sql);
    const db = database;
    const jobsBoss = boss;
    return {
      ctx,
      databaseUrl: url,
      shutdown: async () => {
        stopWatching?.();
        setAppContext(undefined);
        // Jobs still running after 10 s are left: pg-boss hands them out again after the restart.
        await jobsBoss.stop({ graceful: true, timeout: 10_000 }).catch((e) => log(`jobs stop: ${describeError(e)}`, undefined, 'error'));
        await db.close().catch(() => {});
        await embedded?.stop();
      },
      abandon: () => embedded?.abandon(),
    };
  } catch (error) {
    await boss?.stop({ graceful: false }).catch(() => {});
    await database?.close().catch(() => {});
    await embedded?.stop();
    throw error;
  }
}
