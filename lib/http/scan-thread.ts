// Intake checks every import body byte by byte (scanJson, ~13 ms for 5,000 items) before it
// answers. On the process's main thread that check held up whatever else was due there, above all
// the applier of imports already accepted, whose PostgreSQL connection then sat waiting for its
// next statement or COPY data. A large body is scanned on a thread of its own instead: copied into
// a slot of memory shared with that thread (~1 ms), scanned there while this thread goes on.
//
// The thread runs at nice 10 (SCAN_THREAD_NICE; 0 for none), below the applier and the preparing
// thread. The process entry starts it (startScanThread); request handlers, which Next.js bundles
// apart, find it as a process-wide piece (lib/process-wide.ts). Without one (tests, tools) or with no free slot, or for a body too
// small or too large for a slot, the body is scanned where it is.

import { Worker } from 'node:worker_threads';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { tsModuleLoader } from '@/lib/runtime/ts-worker';
import { JsonSyntaxError, scanJson, type ScannedObject } from './json-scan';
import type { ScanAnswer, ScanTask } from './scan-worker';
import { processWide } from '@/lib/process-wide';

// Below this a body is scanned in well under a millisecond: not worth the hop.
const MIN_BYTES = 256 << 10;
// Room for the largest body the default limit lets in (35 MiB): a slot is only memory once written.
const SLOT_BYTES = 36 << 20;
const SLOTS = 2;

type Scanner = {
  worker: Worker;
  slots: SharedArrayBuffer[];
  free: number[];
  // Each task's answer goes to the caller's copy of this module (Next.js bundles its own), which
  // makes the error of a fault: its class must be the one the caller knows.
  pending: Map<number, { slot: number; settle: (answer: ScanAnswer) => void }>;
  lastTask: number;
  broken: boolean;
};

const SCANNER = processWide<Scanner>('scan-thread');

/** Each task waiting for the thread is answered as though the thread had failed: scanned by its caller. */
function stopped(scanner: Scanner): void {
  scanner.broken = true;
  for (const [id, task] of scanner.pending) task.settle({ id, error: 'the thread stopped' });
  scanner.pending.clear();
}

/** Starts the thread that scans large bodies, once per process (the process entry calls it). */
export function startScanThread(): void {
  const running = SCANNER.get();
  if (running && !running.broken) return;
  // Its source is TypeScript: loaded through tsx's API, whatever started this process.
  const load = tsModuleLoader(new URL('./scan-worker.ts', import.meta.url));
  const slots = Array.from({ length: SLOTS }, () => new SharedArrayBuffer(SLOT_BYTES));
  const nice = readSettings().scanThreadNice;
  let worker: Worker;
  try {
    worker = new Worker(load, { eval: true, workerData: { slots, nice } });
  } catch (error) {
    log(`no thread to scan request bodies on (they are scanned where they arrive): ${String(error)}`, undefined, 'warn');
    return;
  }
  worker.unref();
  const scanner: Scanner = { worker, slots, free: Array.from({ length: SLOTS }, (_, slot) => slot), pending: new Map(), lastTask: 0, broken: false };
  worker.on('message', (answer: ScanAnswer) => {
    const task = scanner.pending.get(answer.id);
    if (!task) return;
    scanner.pending.delete(answer.id);
    scanner.free.push(task.slot);
    if (scanner.pending.size === 0) worker.unref();
    task.settle(answer);
  });
  const fail = (error: unknown) => {
    if (scanner.broken) return;
    log(`the thread scanning request bodies stopped (they are scanned where they arrive): ${String(error)}`, undefined, 'warn');
    stopped(scanner);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(`exit ${code}`));
  SCANNER.set(scanner);
}

/** Stops the thread (tests). */
export async function stopScanThread(): Promise<void> {
  const scanner = SCANNER.get();
  if (!scanner) return;
  SCANNER.set(undefined);
  stopped(scanner);
  await scanner.worker.terminate();
}

/**
 * scanJson's answer for `bytes`, worked out on the scanning thread (its faults thrown as
 * JsonSyntaxError; here after all if the thread fails); undefined when it is not to be scanned
 * there (no thread, no free slot, a body too small or too large), for the caller to scan it.
 */
export function scanOnThread(bytes: Uint8Array, elementKeys: readonly string[]): Promise<ScannedObject | null> | undefined {
  const scanner = SCANNER.get();
  if (!scanner || scanner.broken || bytes.length < MIN_BYTES || bytes.length > SLOT_BYTES) return undefined;
  const slot = scanner.free.pop();
  if (slot === undefined) return undefined;
  new Uint8Array(scanner.slots[slot], 0, bytes.length).set(bytes);
  const id = ++scanner.lastTask;
  const task: ScanTask = { id, slot, length: bytes.length, elementKeys };
  return new Promise((resolve, reject) => {
    const settle = ({ members, fault, error }: ScanAnswer) => {
      if (fault) reject(new JsonSyntaxError(fault.message.replace(/ at byte \d+$/, ''), fault.position));
      else if (error === undefined) resolve(members ?? null);
      else {
        // The thread failed (logged once when it stopped): scanned here after all.
        try {
          resolve(scanJson(bytes, elementKeys));
        } catch (scanError) {
          reject(scanError);
        }
      }
    };
    scanner.pending.set(id, { slot, settle });
    scanner.worker.ref();
    scanner.worker.postMessage(task);
  });
}
