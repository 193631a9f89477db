// npm run worker: the job workers alone, for scaling out next to web processes run with WORKERS=off.
import { boot } from '@/lib/runtime/boot';
import { ignoreBrokenStdio, log } from '@/lib/runtime/log';
import { onShutdownSignal } from '@/lib/runtime/signals';
import { startWorkers } from '@/workers';

async function main() {
  ignoreBrokenStdio();
  const runtime = await boot({ maintenance: true });
  const stopWorkers = await startWorkers(runtime.ctx);
  log('workers running');
  onShutdownSignal(async () => {
    await stopWorkers();
    await runtime.shutdown();
  }, { abandon: runtime.abandon });
}

main().catch((error) => {
  log(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
