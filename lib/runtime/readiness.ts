import type { Sql } from 'postgres';
import { migrationState } from '@/db/migration-state';
import type { AppContext } from './context';
import { processWide } from '@/lib/process-wide';

// GET /readyz (CONTRACT §9): the database answers, the committed migrations are applied and,
// where this process runs the job workers, they run.

// A database that does not answer within this is unreachable for a load balancer's purposes:
// postgres.js would otherwise wait out its connect timeout (30 s).
const DATABASE_TIMEOUT_MS = 2_000;

// The process entry registers the workers' probe; route handlers (in Next.js's own copy of this
// module) read it: one per process, as the app context is.
const PROBE = processWide<() => boolean>('workers-probe');

/** Tells readiness whether this process's job workers run now (undefined: they do not). */
export function setWorkersProbe(probe: (() => boolean) | undefined): void {
  PROBE.set(probe);
}

export type Readiness = { ready: boolean; checks: { database: string; migrations: string; workers: string } };

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function checkDatabase(sql: Sql): Promise<{ database: string; migrations: string }> {
  try {
    const state = await withTimeout(migrationState(sql), DATABASE_TIMEOUT_MS);
    return { database: 'ok', migrations: state.applied ? 'ok' : `not applied (latest is ${state.latest})` };
  } catch (error) {
    return { database: `unreachable: ${error instanceof Error ? error.message : String(error)}`, migrations: 'unknown' };
  }
}

export async function checkReadiness(ctx: AppContext): Promise<Readiness> {
  const { database, migrations } = await checkDatabase(ctx.sql);
  const probe = PROBE.get();
  const workers = !ctx.settings.workers ? 'off' : probe?.() ? 'ok' : 'not running';
  return { ready: database === 'ok' && migrations === 'ok' && workers !== 'not running', checks: { database, migrations, workers } };
}

/** What is not ready, as a sentence for the error body. */
export function describeUnready({ checks }: Readiness): string {
  const problems = Object.entries(checks).filter(([, state]) => state !== 'ok' && state !== 'off');
  return `Not ready: ${problems.map(([name, state]) => `${name} ${state}`).join('; ')}`;
}
