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

import { readSettings } from '@/lib/runtime/settings';
import { ThreadHolder, type WorkerThread } from '@/lib/runtime/worker-thread';
import { JsonSyntaxError, scanJson, type ScannedObject } from '@/lib/http/json-scan';
import type { ScanAnswer, ScanTask } from './scan-worker';
import { processWide } from '@/lib/process-wide';

// Below this a body is scanned in well under a millisecond: not worth the hop.
const MIN_BYTES = 256 << 10;
// Room for the largest body the default limit lets in (35 MiB): a slot is only memory once written.
const SLOT_BYTES = 36 << 20;
const SLOTS = 2;

// The memory shared with the thread, and the slots no task holds.
type Slots = { slots: SharedArrayBuffer[]; free: number[] };
type Scanner = WorkerThread<ScanTask, ScanAnswer, Slots>;

const SCANNER = new ThreadHolder<ScanTask, ScanAnswer, Slots>(
  processWide<Scanner | null>('scan-thread'),
  () => {
    const slots = Array.from({ length: SLOTS }, () => new SharedArrayBuffer(SLOT_BYTES));
    return {
      code: { module: new URL('./scan-worker.ts', import.meta.url) },
      workerData: { slots, nice: readSettings().scanThreadNice },
      own: { slots, free: Array.from({ length: SLOTS }, (_, slot) => slot) },
    };
  },
  { name: 'the thread scanning request bodies', otherwise: 'they are scanned where they arrive' },
);

/** Starts the thread that scans large bodies, once per process (the process entry calls it). */
export function startScanThread(): void {
  SCANNER.thread();
}

/** Stops the thread (tests): a scan under way is finished by its caller. */
export function stopScanThread(): Promise<void> {
  return SCANNER.stop();
}

/**
 * scanJson's answer for `bytes`, worked out on the scanning thread (its faults thrown as
 * JsonSyntaxError; here after all if the thread fails); undefined when it is not to be scanned
 * there (no thread, no free slot, a body too small or too large), for the caller to scan it.
 */
export function scanOnThread(bytes: Uint8Array, elementKeys: readonly string[]): Promise<ScannedObject | null> | undefined {
  const scanner = SCANNER.running();
  if (!scanner || bytes.length < MIN_BYTES || bytes.length > SLOT_BYTES) return undefined;
  const { slots, free } = scanner.own;
  const slot = free.pop();
  if (slot === undefined) return undefined;
  new Uint8Array(slots[slot], 0, bytes.length).set(bytes);
  return new Promise((resolve, reject) => {
    // The answer comes to the caller's copy of this module (Next.js bundles its own), which makes
    // the error of a fault: its class must be the one the caller knows.
    scanner.send({ slot, length: bytes.length, elementKeys }, {
      answered: ({ members, fault, error }) => {
        free.push(slot);
        if (fault) reject(new JsonSyntaxError(fault.message.replace(/ at byte \d+$/, ''), fault.position));
        else if (error === undefined) resolve(members ?? null);
        else scanHere();
      },
      // Logged once when it stopped: scanned here after all.
      stopped: () => scanHere(),
    });
    function scanHere() {
      try {
        resolve(scanJson(bytes, elementKeys));
      } catch (scanError) {
        reject(scanError);
      }
    }
  });
}
