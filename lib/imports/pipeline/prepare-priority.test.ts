import fs from 'node:fs';
import { expect, it } from 'vitest';
import { threadNices } from '@/lib/testing/threads';
import { startPreparing } from './prepare-ahead';

// Read by the thread as it starts (none has in this process yet): the priority asked of it.
process.env.PREPARE_THREAD_NICE = '10';

it.runIf(fs.existsSync('/proc/thread-self'))('prepares items on a thread at the priority PREPARE_THREAD_NICE asks', async () => {
  expect(await startPreparing()).toBe(true);
  const nices = threadNices();
  // Every other thread of this process (vitest's, V8's, Node's) runs at the process's own.
  expect(nices).toContain(10);
});
