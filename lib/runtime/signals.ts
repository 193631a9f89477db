import { log } from './log';

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. Listeners that libraries installed are
 * removed first: any that exits the process would cut the graceful shutdown short.
 */
export function onShutdownSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    stop()
      .then(() => {
        log('stopped');
        process.exit(0);
      })
      .catch((error) => {
        log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      });
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, handle);
  }
}
