// Intake has just read and checked an import's body; the applier, usually in the same process a
// moment later, would gunzip and check it again. Bodies accepted here are kept for it, a few at
// a time: the applier takes its import's body if this process still holds it, and reads the
// stored copy otherwise (another process, a restart, a body evicted meanwhile).

import type { ScannedObject } from '@/lib/http/json-scan';

/** An import's body: its bytes and where its top-level members are (scanJson). */
export type HandedBody = { raw: Buffer; members: ScannedObject };

const MAX_BYTES = 48 * 1024 * 1024;
// A body not taken by then was applied elsewhere (another worker process) or will be read from
// storage: it must not stay in memory.
const KEEP_MS = 60_000;

// Next.js loads a module once per route bundle and the process entry loads its own copy: the
// bodies live on globalThis so intake's copy and the applier's copy share them.
const KEY = Symbol.for('vitrine.import-handoff');
type Kept = HandedBody & { until: number };
type Shelf = { bodies: Map<number, Kept>; bytes: number };
type Holder = { [KEY]?: Shelf };

function shelf(): Shelf {
  return ((globalThis as Holder)[KEY] ??= { bodies: new Map(), bytes: 0 });
}

/**
 * Keeps an accepted import's body for the applier, unless the kept bodies would pass the size
 * limit: those already kept are the ones the applier takes next (it goes in arrival order), so a
 * newer body is the one left to be read from storage. False when not kept.
 */
export function handOver(importId: number, body: HandedBody, now = Date.now()): boolean {
  const held = shelf();
  for (const [id, kept] of held.bodies) {
    if (kept.until > now) break;
    held.bodies.delete(id);
    held.bytes -= kept.raw.length;
  }
  if (held.bytes + body.raw.length > MAX_BYTES) return false;
  held.bodies.set(importId, { ...body, until: now + KEEP_MS });
  held.bytes += body.raw.length;
  return true;
}

/** The body intake kept for this import, once (undefined if this process does not hold it). */
export function takeOver(importId: number): HandedBody | undefined {
  const held = shelf();
  const body = held.bodies.get(importId);
  if (!body) return undefined;
  held.bodies.delete(importId);
  held.bytes -= body.raw.length;
  return { raw: body.raw, members: body.members };
}
