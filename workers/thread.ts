// The job workers on a thread of their own, for `npm start`: applying an import takes a thread's
// time in pieces of up to a few hundred milliseconds (reading items, writing rows, the index's
// dictionary), which on the thread that serves requests held every listing answer and every
// intake up meanwhile. Here they have their own event loop, runtime (pool, pg-boss) and heap;
// intake on the serving thread hands bodies over and wakes appliers by message (workers/
// thread-host.ts). Loaded through tsx's API by the host.
import { parentPort, workerData } from 'node:worker_threads';
import type { ScannedObject } from '@/lib/http/json-scan';
import { announceArrival, handOver, type BodyEncoding } from '@/lib/imports/pipeline';
import { importWaker } from '@/lib/jobs';
import { boot } from '@/lib/runtime/boot';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { lowerBackends, lowerThisThread } from '@/lib/runtime/thread-priority';
import { startWorkers } from '@/workers';
import { metricsJson } from '@/lib/runtime/metrics';

/** What the host sends. */
export type ToThread =
  | { kind: 'handover'; importId: number; raw: Uint8Array; members: ScannedObject; stored?: { body: Uint8Array; encoding: BodyEncoding } }
  | { kind: 'arrival'; shopId: string }
  | { kind: 'wake'; shopId: string }
  | { kind: 'metrics'; id: number }
  | { kind: 'stop' };
/** What the thread answers. */
export type FromThread =
  | { kind: 'ready' }
  | { kind: 'stopped' }
  | { kind: 'failed'; message: string }
  | { kind: 'metrics'; id: number; json: Awaited<ReturnType<typeof metricsJson>> };

const port = parentPort!;
const { databaseUrl, embedded } = workerData as { databaseUrl: string; embedded: boolean };
const APPLICATION_NAME = 'vitrine-workers';
// How often new connections' backends are given this thread's priority.
const RENICE_MS = 2_000;

async function main() {
  const settings = readSettings();
  // Imports give way to storefront reads (WORKERS_NICE): this thread, the threads it starts
  // (Linux gives a new thread its creator's priority) and, on this machine, its database backends.
  lowerThisThread(settings.workersNice);
  // The serving thread runs the database (embedded or not) and migrations; this one joins it.
  const runtime = await boot({ maintenance: false, settings: { ...settings, databaseUrl }, applicationName: APPLICATION_NAME });
  if (embedded && settings.workersNice > 0) {
    const renice = () => void lowerBackends(runtime.ctx.sql, APPLICATION_NAME, settings.workersNice).catch(() => undefined);
    renice();
    setInterval(renice, RENICE_MS).unref();
  }
  const stopWorkers = await startWorkers(runtime.ctx);
  const wake = importWaker()!;
  port.on('message', (message: ToThread) => {
    switch (message.kind) {
      case 'handover': {
        const raw = Buffer.from(message.raw.buffer, message.raw.byteOffset, message.raw.byteLength);
        const stored = message.stored && { body: Buffer.from(message.stored.body.buffer, message.stored.body.byteOffset, message.stored.body.byteLength), encoding: message.stored.encoding };
        handOver(message.importId, { raw, members: message.members, stored });
        return;
      }
      case 'arrival':
        return announceArrival(message.shopId);
      case 'wake':
        return wake(message.shopId);
      case 'metrics':
        void metricsJson().then((json) => port.postMessage({ kind: 'metrics', id: message.id, json } satisfies FromThread));
        return;
      case 'stop':
        void (async () => {
          await stopWorkers();
          await runtime.shutdown();
          port.postMessage({ kind: 'stopped' } satisfies FromThread);
        })();
        return;
    }
  });
  port.postMessage({ kind: 'ready' } satisfies FromThread);
}

main().catch((error: unknown) => {
  log("job workers' thread failed to start", { err: error }, 'error');
  port.postMessage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromThread);
});
