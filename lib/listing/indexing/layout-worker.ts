import { Worker } from 'node:worker_threads';
import { log } from '@/lib/runtime/log';
import { layOut, LAYOUT_SOURCE, type LayoutResult, type LayoutTask } from './layout-kernel';
import { processWide } from '@/lib/process-wide';

// One layout worker per process lays out an index build's postings and inverted lists (a second
// core: the build's own thread meanwhile lays out offers and columns, and answers queries between
// its steps). Tasks from builds of several shops are run one after another. Whenever the worker
// cannot be had, the build's thread lays out itself.

function workerSource(): string {
  return `
const { parentPort } = require('node:worker_threads');
${LAYOUT_SOURCE}
parentPort.on('message', ({ id, task }) => {
  let result;
  try {
    result = layOut(task);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.stack) || error) });
    return;
  }
  const owned = [result.invOffsets, result.invDocs, result.tokenOffsets, result.tokenNumbers, result.variantLoad, result.pictureNumber, result.pictureLoad];
  parentPort.postMessage({ id, result }, owned.map((array) => array.buffer));
});
`;
}

type Pending = { resolve: (result: LayoutResult) => void; reject: (error: Error) => void };
type LayoutWorker = { worker: Worker; pending: Map<number, Pending>; broken: boolean };

const LAYOUT = processWide<LayoutWorker | null>('layout-worker');
let lastTask = 0;

function layoutWorker(): LayoutWorker | null {
  if (LAYOUT.get() === undefined || LAYOUT.get()?.broken) {
    try {
      const worker = new Worker(workerSource(), { eval: true });
      worker.unref();
      const started: LayoutWorker = { worker, pending: new Map(), broken: false };
      const fail = (error: Error) => {
        started.broken = true;
        for (const task of started.pending.values()) task.reject(error);
        started.pending.clear();
      };
      worker.on('message', ({ id, result, error }: { id: number; result?: LayoutResult; error?: string }) => {
        const task = started.pending.get(id);
        started.pending.delete(id);
        if (started.pending.size === 0) worker.unref();
        if (error !== undefined) task?.reject(new Error(`the layout worker failed: ${error}`));
        else task?.resolve(result!);
      });
      worker.on('error', (error) => {
        log(`the layout worker failed (builds lay out on their own thread): ${String(error)}`, undefined, 'warn');
        fail(error);
      });
      worker.on('exit', () => fail(new Error('the layout worker exited')));
      LAYOUT.set(started);
    } catch (error) {
      log(`no layout worker (builds lay out on their own thread): ${String(error)}`, undefined, 'warn');
      LAYOUT.set(null);
    }
  }
  return LAYOUT.get() ?? null;
}

/**
 * `layOut(task)` on the layout worker; on this thread when there is none. `transfer`: buffers the
 * caller gives up (moved, not copied); the task's shared arrays are shared, the others copied.
 */
export function layOutAside(task: LayoutTask, transfer: ArrayBuffer[]): Promise<LayoutResult> {
  const helper = layoutWorker();
  if (!helper) return Promise.resolve(layOut(task));
  const id = ++lastTask;
  return new Promise<LayoutResult>((resolve, reject) => {
    helper.pending.set(id, { resolve, reject });
    // Referenced while it has work: a script that only waits for a build must not exit meanwhile.
    helper.worker.ref();
    helper.worker.postMessage({ id, task }, transfer);
  });
}
