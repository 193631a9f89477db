// A helper thread for lib/runtime/worker-thread.test.ts: answers each task with its number
// doubled, after `task` milliseconds; a negative task makes the thread exit.
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', ({ id, task }: { id: number; task: number }) => {
  if (task < 0) process.exit(3);
  setTimeout(() => parentPort!.postMessage({ id, doubled: task * 2 }), task);
});
