/**
 * A hash table from byte strings to non-negative integers, looked up by a range of a buffer
 * without decoding it: what the index builder uses to number a row's group id or an offer's
 * location when it has seen the same bytes before (a decoded string per row, and its lookup in a
 * Map of strings, cost more than the rest of handling the field). Keys are copied into one arena.
 */
export class BytesTable {
  private slotValue = new Int32Array(1024).fill(-1);
  private slotHash = new Int32Array(1024);
  private slotStart = new Int32Array(1024);
  private slotLength = new Int32Array(1024);
  private arena = Buffer.alloc(1 << 12);
  private arenaUsed = 0;
  private used = 0;

  /** The value of bytes[from, to), or -1. */
  get(bytes: Uint8Array, from: number, to: number): number {
    const hash = hashOf(bytes, from, to);
    const mask = this.slotValue.length - 1;
    const { slotValue, slotHash, slotStart, slotLength, arena } = this;
    const length = to - from;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const value = slotValue[slot];
      if (value < 0) return -1;
      if (slotHash[slot] !== hash || slotLength[slot] !== length) continue;
      const start = slotStart[slot];
      let same = true;
      for (let i = 0; same && i < length; i++) same = arena[start + i] === bytes[from + i];
      if (same) return value;
    }
  }

  /** Sets the value of bytes[from, to), which must not be in the table yet. */
  set(bytes: Uint8Array, from: number, to: number, value: number): void {
    if (value < 0) throw new Error('a BytesTable holds non-negative values');
    const length = to - from;
    if (this.arenaUsed + length > this.arena.length) {
      const grown = Buffer.alloc(Math.max(this.arena.length * 2, this.arenaUsed + length));
      this.arena.copy(grown, 0, 0, this.arenaUsed);
      this.arena = grown;
    }
    this.arena.set(bytes.subarray(from, to), this.arenaUsed);
    if (++this.used * 2 > this.slotValue.length) this.grow();
    this.place(hashOf(bytes, from, to), this.arenaUsed, length, value);
    this.arenaUsed += length;
  }

  private place(hash: number, start: number, length: number, value: number): void {
    const mask = this.slotValue.length - 1;
    let slot = hash & mask;
    while (this.slotValue[slot] >= 0) slot = (slot + 1) & mask;
    this.slotValue[slot] = value;
    this.slotHash[slot] = hash;
    this.slotStart[slot] = start;
    this.slotLength[slot] = length;
  }

  private grow(): void {
    const { slotValue, slotHash, slotStart, slotLength } = this;
    const size = slotValue.length * 2;
    this.slotValue = new Int32Array(size).fill(-1);
    this.slotHash = new Int32Array(size);
    this.slotStart = new Int32Array(size);
    this.slotLength = new Int32Array(size);
    for (let slot = 0; slot < slotValue.length; slot++) {
      if (slotValue[slot] >= 0) this.place(slotHash[slot], slotStart[slot], slotLength[slot], slotValue[slot]);
    }
  }
}

/** FNV-1a over the bytes (keys that differ anywhere spread over the table). */
function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash | 0; // as the table stores it, also for no bytes at all
}
