// Product ids with their stored digest and availability, held in typed arrays: a million of them
// take ~70 MB and no object the garbage collector has to visit. (As a Map of strings and objects
// they took ~240 MB, and every full collection went through them: a re-sent import at 1,000,000
// products cost the server ~5 µs an item more CPU than looking the ids up in PostgreSQL.)
//
// An id is kept as its UTF-16 code units in one arena and compared exactly; its hash only places
// it. A digest made by sent-items.ts (the current DIGEST_VERSION and 22 base64 characters) is
// packed into five 32-bit words; any other (an older version's, or none) is kept as "none", which
// no item matches, so such an item is validated again, as it would be anyway.

import { grown, slotsFor } from './hash-slots';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SIXTY_FOUR = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) SIXTY_FOUR[BASE64.charCodeAt(i)] = i;
const DIGEST_CHARS = 22;
const WORDS = 5;
// Set in a digest's last word: the digest is there (its 22nd character's bits are below).
const PRESENT = 1 << 30;

function hashOf(id: string): number {
  let h = 0x811c9dc5 ^ id.length;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

export class StateTable {
  private slots = new Int32Array(1024); // entry + 1, 0 when empty
  private hashes = new Int32Array(512);
  private idStarts = new Int32Array(513);
  private arena = new Uint16Array(4096);
  private digests = new Uint32Array(512 * WORDS);
  private availability = new Uint8Array(512);
  size = 0;

  constructor(private readonly prefix: string) {}

  /** The entry of `id`, or -1. */
  find(id: string): number {
    return this.probe(id, hashOf(id)) - 1;
  }

  /** The digest stored for the entry, as sent-items.ts made it, or null. */
  digest(entry: number): string | null {
    const words = this.digests;
    const at = entry * WORDS;
    if ((words[at + WORDS - 1] & PRESENT) === 0) return null;
    const chars: number[] = [];
    for (let w = 0; w < WORDS; w++) {
      const word = words[at + w];
      const count = w < WORDS - 1 ? 5 : DIGEST_CHARS - 5 * (WORDS - 1);
      for (let c = count - 1; c >= 0; c--) chars.push(BASE64.charCodeAt((word >>> (6 * c)) & 63));
    }
    return this.prefix + String.fromCharCode(...chars);
  }

  /** Whether `digest` is the one stored for the entry: digest(entry) === digest, without making it. */
  sameDigest(entry: number, digest: string | null): boolean {
    const words = this.digests;
    const at = entry * WORDS;
    if ((words[at + WORDS - 1] & PRESENT) === 0 || digest === null) return false;
    const start = this.prefix.length;
    if (digest.length !== start + DIGEST_CHARS || !digest.startsWith(this.prefix)) return false;
    for (let w = 0; w < WORDS; w++) {
      const word = words[at + w];
      const count = w < WORDS - 1 ? 5 : DIGEST_CHARS - 5 * (WORDS - 1);
      for (let c = 0; c < count; c++) {
        const code = digest.charCodeAt(start + 5 * w + c);
        if (code >= 128 || SIXTY_FOUR[code] !== ((word >>> (6 * (count - 1 - c))) & 63)) return false;
      }
    }
    return true;
  }

  available(entry: number): boolean {
    return this.availability[entry] === 1;
  }

  setAvailable(entry: number, available: boolean): void {
    this.availability[entry] = available ? 1 : 0;
  }

  /** Every entry not available (a load takes what it does not list out of stock). */
  setNoneAvailable(): void {
    this.availability.fill(0, 0, this.size);
  }

  /** Stores the id's digest and availability, adding the id if it is not there. */
  set(id: string, digest: string | null, available: boolean): void {
    const hash = hashOf(id);
    let entry = this.probe(id, hash) - 1;
    if (entry < 0) entry = this.add(id, hash);
    this.availability[entry] = available ? 1 : 0;
    this.pack(entry, digest);
  }

  /** The slot's entry + 1 when it holds `id`, else 0 (and `lastFree` is where it would go). */
  private lastFree = 0;
  private probe(id: string, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot];
      if (held === 0) {
        this.lastFree = slot;
        return 0;
      }
      if (this.hashes[held - 1] === hash && this.idIs(held - 1, id)) return held;
    }
  }

  private idIs(entry: number, id: string): boolean {
    const start = this.idStarts[entry];
    if (this.idStarts[entry + 1] - start !== id.length) return false;
    for (let i = 0; i < id.length; i++) if (this.arena[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private add(id: string, hash: number): number {
    const entry = this.size++;
    if (this.size > this.hashes.length) this.growEntries();
    const start = this.idStarts[entry];
    if (start + id.length > this.arena.length) this.arena = grown(this.arena, start + id.length);
    for (let i = 0; i < id.length; i++) this.arena[start + i] = id.charCodeAt(i);
    this.idStarts[entry + 1] = start + id.length;
    this.hashes[entry] = hash;
    this.slots[this.lastFree] = entry + 1;
    // At most half full: probes stay short.
    if (this.size * 2 > this.slots.length) this.rehash();
    return entry;
  }

  private growEntries(): void {
    const capacity = this.hashes.length * 2;
    this.hashes = grown(this.hashes, capacity);
    this.idStarts = grown(this.idStarts, capacity + 1);
    this.digests = grown(this.digests, capacity * WORDS);
    this.availability = grown(this.availability, capacity);
  }

  private rehash(): void {
    this.slots = slotsFor(this.hashes, this.size, this.slots.length * 2);
  }

  private pack(entry: number, digest: string | null): void {
    const at = entry * WORDS;
    this.digests.fill(0, at, at + WORDS);
    if (digest === null || digest.length !== this.prefix.length + DIGEST_CHARS || !digest.startsWith(this.prefix)) return;
    const values = new Array<number>(DIGEST_CHARS);
    for (let i = 0; i < DIGEST_CHARS; i++) {
      const code = digest.charCodeAt(this.prefix.length + i);
      const value = code < 128 ? SIXTY_FOUR[code] : -1;
      if (value < 0) return;
      values[i] = value;
    }
    for (let w = 0; w < WORDS; w++) {
      let word = 0;
      const end = Math.min(DIGEST_CHARS, 5 * (w + 1));
      for (let i = 5 * w; i < end; i++) word = (word << 6) | values[i];
      this.digests[at + w] = w === WORDS - 1 ? (word | PRESENT) >>> 0 : word >>> 0;
    }
  }
}

/**
 * A shop's product states as of a catalog version; `complete`: every product of the shop is
 * there (an id absent is new). What the import pipeline knows (lib/imports/pipeline/
 * known-states.ts) and storing an import reads and adds to.
 */
export type KnownStates = { shopId: string; version: number; complete: boolean; states: StateTable };

/** What an import changes in the states, applied once it has committed; null: forget them. */
export type StateChanges = ((states: StateTable) => void) | null;

/**
 * What storing an import tells of its shop's states (ImportOutcome.states): those as of the
 * version before it that it used and added what it looked up to (none: it used none), or that
 * they proved wrong and are to be forgotten now; and what it changed.
 */
export type StatesTold = { before?: KnownStates; forget?: boolean; changes: StateChanges };
