// Strings with a number each, kept compactly: the strings in one text (one object for the garbage
// collector instead of one per string) and an open-addressing hash table of typed arrays. The
// listing index keeps its variant group ids so (a Map of 333,000 of them held ~21 MB).

export class StringTable {
  private readonly text: string;
  private readonly offsets: Int32Array; // entry e is text[offsets[e] .. offsets[e + 1])
  private readonly numbers: Int32Array;
  private readonly slots: Int32Array; // entry + 1, or 0 for an empty slot

  constructor(entries: Iterable<[string, number]>) {
    const keys: string[] = [];
    const numbers: number[] = [];
    for (const [key, number] of entries) {
      keys.push(key);
      numbers.push(number);
    }
    this.text = keys.join('');
    this.offsets = new Int32Array(keys.length + 1);
    keys.forEach((key, e) => (this.offsets[e + 1] = this.offsets[e] + key.length));
    this.numbers = Int32Array.from(numbers);
    let size = 16;
    while (size < keys.length * 2) size *= 2;
    this.slots = new Int32Array(size);
    const mask = size - 1;
    keys.forEach((key, e) => {
      let slot = hashOf(key) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = e + 1;
    });
  }

  get size(): number {
    return this.numbers.length;
  }

  get(key: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(key) & mask; this.slots[slot] !== 0; slot = (slot + 1) & mask) {
      const e = this.slots[slot] - 1;
      const from = this.offsets[e];
      if (this.offsets[e + 1] - from === key.length && this.text.startsWith(key, from)) return this.numbers[e];
    }
    return undefined;
  }

  *entries(): IterableIterator<[string, number]> {
    for (let e = 0; e < this.numbers.length; e++) yield [this.text.slice(this.offsets[e], this.offsets[e + 1]), this.numbers[e]];
  }

  /** Bytes held, roughly (one-byte text). */
  get bytes(): number {
    return this.text.length + this.offsets.byteLength + this.numbers.byteLength + this.slots.byteLength;
  }
}

/** FNV-1a over every UTF-16 code unit. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
