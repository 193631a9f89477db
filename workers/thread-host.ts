import { Worker } from 'node:worker_threads';
import { setHandoffCourier } from '@/lib/imports/pipeline';
import { setImportWaker } from '@/lib/jobs';
import { log } from '@/lib/runtime/log';
import { setWorkersProbe } from '@/lib/runtime/readiness';
import { tsModuleLoader } from '@/lib/runtime/ts-worker';
import type { FromThread, ToThread } from './thread';
import type { metricsJson } from '@/lib/runtime/metrics';

// Runs the job workers on a thread of their own (workers/thread.ts) and connects intake on this
// thread to them: bodies handed over and appliers woken by message, as they would be in one
// thread. A thread that dies is started again; meanwhile intake enqueues jobs and the new
// thread's sweep finds every pending import.

const RESTART_MS = 1_000;
// A scrape does not wait longer than this for the thread's metrics (they are left out).
const METRICS_WAIT_MS = 1_000;

type ThreadMetrics = Awaited<ReturnType<typeof metricsJson>>;
let askThread: (() => Promise<ThreadMetrics | undefined>) | undefined;

/** The workers' thread's metrics, for GET /metrics (none while no thread runs). */
export async function workerThreadMetrics(): Promise<ThreadMetrics[]> {
  const json = await askThread?.();
  return json ? [json] : [];
}
const STOP_MS = 40_000;

/** A byte array whose memory can be moved to another thread: its own buffer, or a copy. */
function movable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/**
 * Starts the workers' thread on `databaseUrl` (`embedded`: a cluster on this machine, whose
 * backends the thread may lower in priority), once it is ready; returns the function that stops it.
 */
export async function startWorkerThread(databaseUrl: string, embedded: boolean): Promise<() => Promise<void>> {
  let stopping = false;
  let current: { worker: Worker; stopped: Promise<void> } | undefined;
  const asked = new Map<number, (json: ThreadMetrics) => void>();
  let lastAsk = 0;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const load = tsModuleLoader(new URL('./thread.ts', import.meta.url));
      const worker = new Worker(load, { eval: true, workerData: { databaseUrl, embedded } });
      let ready = false;
      let settleStopped!: () => void;
      const stopped = new Promise<void>((done) => (settleStopped = done));
      const post = (message: ToThread, transfer: ArrayBuffer[] = []) => worker.postMessage(message, transfer);
      worker.on('message', (message: FromThread) => {
        if (message.kind === 'ready') {
          ready = true;
          current = { worker, stopped };
          setImportWaker((shopId) => post({ kind: 'wake', shopId }));
          askThread = () =>
            new Promise((resolve) => {
              const id = ++lastAsk;
              const timer = setTimeout(() => {
                asked.delete(id);
                resolve(undefined);
              }, METRICS_WAIT_MS);
              asked.set(id, (json) => {
                clearTimeout(timer);
                resolve(json);
              });
              post({ kind: 'metrics', id });
            });
          setHandoffCourier({
            handOver: (importId, body) => {
              const raw = movable(body.raw);
              const stored = body.stored && { body: new Uint8Array(body.stored.body), encoding: body.stored.encoding };
              post({ kind: 'handover', importId, raw, members: body.members, stored }, [raw.buffer, ...(stored ? [stored.body.buffer] : [])]);
            },
            announceArrival: (shopId) => post({ kind: 'arrival', shopId }),
          });
          resolve();
        } else if (message.kind === 'metrics') {
          asked.get(message.id)?.(message.json);
          asked.delete(message.id);
        } else if (message.kind === 'stopped') settleStopped();
        else if (message.kind === 'failed' && !ready) {
          reject(new Error(`the job workers' thread failed to start: ${message.message}`));
          void worker.terminate();
        }
      });
      worker.on('error', (error) => log(`job workers' thread: ${error.message}`, { err: error }, 'error'));
      worker.on('exit', (code) => {
        settleStopped();
        if (current?.worker !== worker) return;
        current = undefined;
        // Until another thread runs: jobs, and bodies read back from storage.
        setImportWaker(undefined);
        setHandoffCourier(undefined);
        askThread = undefined;
        if (stopping) return;
        log(`job workers' thread ended (exit code ${code}); starting another in ${RESTART_MS} ms`, undefined, 'warn');
        restart();
      });
    });
  // Another thread after a pause, and again after each one that fails to start (the database
  // away, say), until one runs.
  const restart = () =>
    setTimeout(() => {
      if (stopping) return;
      start().catch((error: unknown) => {
        log(`${String(error)}; trying again in ${RESTART_MS} ms`, undefined, 'warn');
        restart();
      });
    }, RESTART_MS).unref();

  await start();
  // GET /readyz: not ready while no thread runs (between one that ended and the next).
  setWorkersProbe(() => current !== undefined);
  return async () => {
    stopping = true;
    setWorkersProbe(undefined);
    const running = current;
    if (!running) return;
    running.worker.postMessage({ kind: 'stop' } satisfies ToThread);
    // Running jobs finish (pg-boss drains them, up to 30 s) before the thread ends.
    await Promise.race([running.stopped, new Promise((resolve) => setTimeout(resolve, STOP_MS).unref())]);
    await running.worker.terminate();
  };
}
