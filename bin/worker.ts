// npm run worker: the job workers alone, for scaling out next to web processes run with WORKERS=off.
import { boot } from '@/lib/runtime/boot';
import { ignoreBrokenStdio, log, logConsole } from '@/lib/runtime/log';
import { onShutdownSignal } from '@/lib/runtime/signals';
import { startWorkers } from '@/workers';
import { serveMetricsAlone } from '@/lib/http/metrics-endpoint';
import { registerProcessGauges } from '@/lib/observability/serving-gauges';

async function main() {
  ignoreBrokenStdio();
  logConsole();
  const runtime = await boot({ maintenance: true });
  const stopWorkers = await startWorkers(runtime.ctx);
  // METRICS_PORT: this node's metrics (imports applied, webhooks, emails, the process).
  const { metricsPort, metricsToken, host } = runtime.ctx.settings;
  let metricsServer: Awaited<ReturnType<typeof serveMetricsAlone>> | undefined;
  if (metricsPort !== undefined) {
    registerProcessGauges(runtime.ctx);
    metricsServer = await serveMetricsAlone(metricsPort, host, metricsToken);
    log(`metrics on ${metricsServer.url}/metrics`);
  }
  log('workers running');
  onShutdownSignal(async () => {
    await metricsServer?.close();
    await stopWorkers();
    await runtime.shutdown();
  }, { abandon: runtime.abandon });
}

main().catch((error) => {
  log('failed to start', { err: error }, 'error');
  process.exit(1);
});
