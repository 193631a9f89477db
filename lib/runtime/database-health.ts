import type { Sql } from 'postgres';
import { describeError, log } from './log';
import { processWide } from '@/lib/process-wide';

// Connection failures as postgres.js and node-postgres (pg-boss) report them, and PostgreSQL's
// own: class 08 (connection exception), shutting down or starting up (57P0x), too many clients.
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const CONNECTION_MESSAGES = /Connection terminated|terminating connection|the database system is (starting up|shutting down|in recovery mode)|timeout exceeded when trying to connect/i;

/** Whether an error means PostgreSQL could not be reached (rather than that a statement failed). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || error === null || typeof error !== 'object') return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Seconds a client is asked to wait (Retry-After) while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

type Health = { down: { since: number; reason: string } | null };
// One per process (lib/process-wide.ts): Next.js loads this module once per route bundle.
const health = processWide<Health>('database-health').getOrMake(() => ({ down: null }));

/** Notes that PostgreSQL is away (logged once per outage). */
export function noteDatabaseDown(reason: string): void {
  if (health.down) return;
  health.down = { since: Date.now(), reason };
  log(`database unreachable (${reason}): API calls answer 503 until it is back`, undefined, 'error');
}

/** Notes that PostgreSQL answers again. */
export function noteDatabaseUp(): void {
  if (!health.down) return;
  log(`database reachable again after ${((Date.now() - health.down.since) / 1000).toFixed(1)} s`);
  health.down = null;
}

export function databaseDown(): boolean {
  return health.down !== null;
}

const PING_EVERY_MS = 1_000;
const PING_TIMEOUT_MS = 3_000;

/**
 * Asks PostgreSQL every second whether it answers, so an outage is noticed (and logged, and its
 * end) within seconds even when no request comes; `onUp` runs after each outage.
 */
export function watchDatabase(sql: Sql, { onUp }: { onUp?: () => void } = {}): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const ping = async () => {
    let timeout: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sql`select 1`,
        new Promise((_, reject) => {
          timeout = setTimeout(() => reject(Object.assign(new Error(`no answer within ${PING_TIMEOUT_MS} ms`), { code: 'ETIMEDOUT' })), PING_TIMEOUT_MS);
        }),
      ]);
      if (databaseDown()) {
        noteDatabaseUp();
        onUp?.();
      }
    } catch (error) {
      if (isDatabaseUnavailable(error)) noteDatabaseDown(describeError(error));
    } finally {
      clearTimeout(timeout);
      if (!stopped) timer = setTimeout(ping, PING_EVERY_MS).unref();
    }
  };
  timer = setTimeout(ping, PING_EVERY_MS).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
