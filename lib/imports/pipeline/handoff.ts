// Intake has just read and checked an import's body; the applier, usually in the same process a
// moment later, would read it back, decompress and check it again. Bodies accepted here are kept
// for it, a few at a time: the applier takes its import's body if this process still holds it,
// and reads the stored copy otherwise (another process, a restart, a body evicted meanwhile).
// Past a few bodies' bytes, a body is kept as stored (compressed, ~6 times smaller) with its scan:
// the applier then only decompresses it (on the thread pool), which is what it spends least on
// of reading it back (PostgreSQL's read and the scan on its own thread).

import type { ScannedObject } from '@/lib/http/json-scan';
import type { BodyEncoding } from './body-codec';
import { processWide } from '@/lib/process-wide';

/** An import's body: its bytes and where its top-level members are (scanJson). */
export type HandedBody = { raw: Buffer; members: ScannedObject };
/** A body as stored: compressed. */
export type StoredForm = { body: Buffer; encoding: BodyEncoding };
/** What the applier takes over: the body, or its stored form with the body's scan. */
export type TakenBody = HandedBody | { stored: StoredForm; members: ScannedObject };

const MAX_BYTES = 48 * 1024 * 1024;
// Stored forms and their scans: at ~1 MB a body of 5,000 products, the ~100 bodies intake can get
// ahead of the applier during a 1,000,000-product first load.
const MAX_STORED_BYTES = 128 * 1024 * 1024;
// A body not taken by then was applied elsewhere (another worker process) or will be read from
// storage: it must not stay in memory.
const KEEP_MS = 60_000;

// One shelf per process (lib/process-wide.ts), so intake's copy of this module and the applier's
// share the bodies.
type Kept = { body: TakenBody; until: number; bytes: number; stored: boolean };
/**
 * Carries what intake hands over to an applier on another thread of the process (workers/
 * thread.ts), which keeps it on its own shelf.
 */
export type Courier = { handOver: (importId: number, body: HandedBody & { stored?: StoredForm }) => void; announceArrival: (shopId: string) => void };
type Shelf = { bodies: Map<number, Kept>; bytes: number; storedBytes: number; arrivals: Map<string, Set<() => void>>; courier?: Courier };
const SHELF = processWide<Shelf>('import-handoff');

function shelf(): Shelf {
  return SHELF.getOrMake(() => ({ bodies: new Map(), bytes: 0, storedBytes: 0, arrivals: new Map() }));
}

/** The bytes a scan holds. */
function scanBytes(members: ScannedObject): number {
  let bytes = 0;
  for (const member of members.values()) bytes += 32 + (member.elements?.byteLength ?? 0) + (member.elementMembers?.byteLength ?? 0);
  return bytes;
}

function release(held: Shelf, kept: Kept): void {
  if (kept.stored) held.storedBytes -= kept.bytes;
  else held.bytes -= kept.bytes;
}

/** Sends what intake hands over to the applier's thread from now on (undefined: kept here again). */
export function setHandoffCourier(courier: Courier | undefined): void {
  shelf().courier = courier;
}

/**
 * Keeps an accepted import's body for the applier, unless the kept bodies would pass the size
 * limit: those already kept are the ones the applier takes next (it goes in arrival order), so a
 * newer body is the one left to be read from storage. With `stored` (the body as stored), a body
 * past the limit is kept in that form, within a limit of its own. False when not kept.
 */
export function handOver(importId: number, body: HandedBody & { stored?: StoredForm }, now = Date.now()): boolean {
  const held = shelf();
  if (held.courier) {
    held.courier.handOver(importId, body);
    return true;
  }
  for (const [id, kept] of held.bodies) {
    if (kept.until > now) break;
    held.bodies.delete(id);
    release(held, kept);
  }
  const until = now + KEEP_MS;
  if (held.bytes + body.raw.length <= MAX_BYTES) {
    held.bodies.set(importId, { body: { raw: body.raw, members: body.members }, until, bytes: body.raw.length, stored: false });
    held.bytes += body.raw.length;
    return true;
  }
  if (!body.stored) return false;
  const bytes = body.stored.body.length + scanBytes(body.members);
  if (held.storedBytes + bytes > MAX_STORED_BYTES) return false;
  held.bodies.set(importId, { body: { stored: body.stored, members: body.members }, until, bytes, stored: true });
  held.storedBytes += bytes;
  return true;
}

/** The body intake kept for this import, once (undefined if this process does not hold it). */
export function takeOver(importId: number): TakenBody | undefined {
  const held = shelf();
  const kept = held.bodies.get(importId);
  if (!kept) return undefined;
  held.bodies.delete(importId);
  release(held, kept);
  return kept.body;
}

/** Whether intake's body for this import is still kept here, not yet taken over. */
export function isKept(importId: number): boolean {
  return shelf().bodies.has(importId);
}

/** Intake accepted an import of the shop (its record committed): an applier waiting for one hears it. */
export function announceArrival(shopId: string): void {
  const { courier } = shelf();
  if (courier) return courier.announceArrival(shopId);
  const listeners = shelf().arrivals.get(shopId);
  listeners?.forEach((arrived) => arrived());
}

/**
 * True when intake in this process next accepts an import of the shop (announceArrival), false
 * if `until` settles first: the applier reads the next import ahead as soon as it arrives.
 */
export function nextArrival(shopId: string, until: Promise<unknown>): Promise<boolean> {
  const { arrivals } = shelf();
  return new Promise((resolve) => {
    const settle = (arrived: boolean) => {
      const listeners = arrivals.get(shopId);
      listeners?.delete(listener);
      if (listeners?.size === 0) arrivals.delete(shopId);
      resolve(arrived);
    };
    const listener = () => settle(true);
    const listeners = arrivals.get(shopId) ?? new Set();
    arrivals.set(shopId, listeners.add(listener));
    until.then(
      () => settle(false),
      () => settle(false),
    );
  });
}
