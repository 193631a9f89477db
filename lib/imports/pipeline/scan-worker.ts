// The thread that scans large request bodies (scan-thread.ts starts it): each task names a slot of
// the memory shared with the request's thread, where the body's bytes are, and the keys asked of
// its array elements; the answer is scanJson's, or the syntax fault it found.

import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread } from '@/lib/runtime/thread-priority';
import { JsonSyntaxError, scanJson, type ScannedObject } from '@/lib/http/json-scan';

export type ScanTask = { slot: number; length: number; elementKeys: readonly string[] };
export type ScanAnswer = { members?: ScannedObject | null; fault?: { message: string; position: number }; error?: string };

const { slots, nice } = workerData as { slots: SharedArrayBuffer[]; nice: number };

// At a lower priority than the applier's thread and the preparing thread (SCAN_THREAD_NICE, 10
// unless told; scan-thread.ts): intake works furthest ahead of what is applied, so it is the one
// to give way when every core is busy.
lowerThisThread(nice);

parentPort!.on('message', ({ id, task: { slot, length, elementKeys } }: { id: number; task: ScanTask }) => {
  let answer: ScanAnswer & { id: number };
  try {
    answer = { id, members: scanJson(new Uint8Array(slots[slot], 0, length), elementKeys) };
  } catch (error) {
    answer = error instanceof JsonSyntaxError ? { id, fault: { message: error.message, position: error.position } } : { id, error: String(error) };
  }
  parentPort!.postMessage(answer);
});
