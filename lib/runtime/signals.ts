import { log } from './log';

/** How long a graceful stop may take before the process gives up on it and exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 30_000;

export type ShutdownOptions = {
  deadlineMs?: number;
  /**
   * Runs when the graceful stop did not finish by the deadline, or on a second signal, just
   * before the process exits: quick and synchronous (end the embedded PostgreSQL it started).
   */
  abandon?: () => void;
};

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. Listeners that libraries installed are
 * removed first: any that exits the process would cut the graceful shutdown short. A stop that
 * hangs (a job that never ends, a database that does not answer) or a second signal ends the
 * process anyway, `abandon` first: a supervisor's SIGTERM must always work.
 */
export function onShutdownSignal(stop: () => Promise<void>, { deadlineMs = SHUTDOWN_DEADLINE_MS, abandon }: ShutdownOptions = {}): void {
  let stopping = false;
  const giveUp = (why: string) => {
    log(`${why}: exiting without a graceful stop`, undefined, 'warn');
    try {
      abandon?.();
    } finally {
      process.exit(1);
    }
  };
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return giveUp(`${signal} again while stopping`);
    stopping = true;
    log(`${signal}: stopping`);
    setTimeout(() => giveUp(`not stopped within ${deadlineMs / 1000} s`), deadlineMs).unref();
    stop()
      .then(() => {
        log('stopped');
        process.exit(0);
      })
      .catch((error) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`, { err: error }, 'error');
        process.exit(1);
      });
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, handle);
  }
}
