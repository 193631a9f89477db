import { processWide } from '@/lib/process-wide';
import { ThreadHolder, type WorkerThread } from '@/lib/runtime/worker-thread';
import { layOut, LAYOUT_SOURCE, type LayoutResult, type LayoutTask } from './layout-kernel';

// One layout worker per process lays out an index build's postings and inverted lists (a second
// core: the build's own thread meanwhile lays out offers and columns, and answers queries between
// its steps). Tasks from builds of several shops are run one after another. Whenever the worker
// cannot be had, the build's thread lays out itself.

const WORKER_SOURCE = `
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

type Answer = { result?: LayoutResult; error?: string };

const LAYOUT = new ThreadHolder<LayoutTask, Answer>(
  processWide<WorkerThread<LayoutTask, Answer> | null>('layout-worker'),
  () => ({ code: { source: WORKER_SOURCE }, own: undefined }),
  { name: 'the layout worker', otherwise: 'builds lay out on their own thread' },
);

/**
 * `layOut(task)` on the layout worker; on this thread when there is none. `transfer`: buffers the
 * caller gives up (moved, not copied); the task's shared arrays are shared, the others copied. A
 * task the worker took when it stopped fails (its moved buffers went with it).
 */
export function layOutAside(task: LayoutTask, transfer: ArrayBuffer[]): Promise<LayoutResult> {
  const helper = LAYOUT.thread();
  if (!helper) return Promise.resolve(layOut(task));
  return new Promise<LayoutResult>((resolve, reject) => {
    helper.send(
      task,
      {
        answered: ({ result, error }) => (error !== undefined ? reject(new Error(`the layout worker failed: ${error}`)) : resolve(result!)),
        stopped: reject,
      },
      transfer,
    );
  });
}
