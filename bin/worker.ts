// npm run worker: the job workers alone, for scaling out next to web processes run with WORKERS=off.
import { boot } from '@/lib/runtime/boot';
import { startWorkers } from '@/workers';
import { log } from '@/lib/runtime/log';


async function main() {
  const runtime = await boot({ maintenance: true });
  const stopWorkers = await startWorkers(runtime.ctx);
  log('workers running');
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await stopWorkers();
    await runtime.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  log(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
