// Tables the byte reader (item-bytes.ts) finds things in by their bytes as sent, without making
// a string for each: strings made once, and the keys it knows.

/**
 * Strings by their bytes as sent, made once: a catalog repeats its category and location ids,
 * param names and values. Bounded; forgets all when full.
 */
export class ByteStrings {
  private table = new Int32Array(1 << 15);
  private hashes: number[] = [];
  private starts: number[] = [];
  private lengths: number[] = [];
  private strings: string[] = [];
  private pool = Buffer.allocUnsafe(1 << 19);
  private used = 0;

  static readonly LONGEST = 96;

  constructor(private readonly make: (start: number, end: number) => string) {}

  get(bytes: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > ByteStrings.LONGEST) return this.make(start, end);
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
    const mask = this.table.length - 1;
    let slot = hash & mask;
    for (let entry = this.table[slot]; entry !== 0; entry = this.table[slot]) {
      const k = entry - 1;
      if (this.hashes[k] === hash && this.lengths[k] === length && this.same(bytes, start, this.starts[k], length)) return this.strings[k];
      slot = (slot + 1) & mask;
    }
    const text = this.make(start, end);
    if (this.strings.length >= this.table.length >> 1 || this.used + length > this.pool.length) {
      this.clear();
      slot = hash & mask;
    }
    bytes.copy(this.pool, this.used, start, end);
    this.table[slot] = this.strings.length + 1;
    this.hashes.push(hash);
    this.starts.push(this.used);
    this.lengths.push(length);
    this.strings.push(text);
    this.used += length;
    return text;
  }

  private same(bytes: Buffer, start: number, at: number, length: number): boolean {
    const pool = this.pool;
    for (let i = 0; i < length; i++) if (bytes[start + i] !== pool[at + i]) return false;
    return true;
  }

  private clear(): void {
    this.table.fill(0);
    this.hashes = [];
    this.starts = [];
    this.lengths = [];
    this.strings = [];
    this.used = 0;
  }
}

/** The keys the reader knows, found by their bytes: a number each, -1 for any other key. */
export class KeyTable {
  private readonly slots = new Int16Array(1024).fill(-1);
  private readonly bytes: Buffer[];

  constructor(names: readonly string[]) {
    this.bytes = names.map((name) => Buffer.from(name));
    this.bytes.forEach((bytes, id) => {
      let slot = KeyTable.slotOf(bytes, 0, bytes.length);
      while (this.slots[slot] >= 0) slot = (slot + 1) & 1023;
      this.slots[slot] = id;
    });
  }

  private static slotOf(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    return (length * 31 + bytes[start] * 7 + bytes[end - 1] * 13 + bytes[start + (length >> 1)]) & 1023;
  }

  find(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    if (length === 0 || length > 32) return -1;
    for (let slot = KeyTable.slotOf(bytes, start, end); ; slot = (slot + 1) & 1023) {
      const id = this.slots[slot];
      if (id < 0) return -1;
      const known = this.bytes[id];
      if (known.length !== length) continue;
      let i = 0;
      while (i < length && known[i] === bytes[start + i]) i++;
      if (i === length) return id;
    }
  }
}
