import type { TokenNumbers } from './facet-dictionary';
import { grown } from './hash-slots';

// Params: name and value required; their tokens (visitFacetTokens) unless searchable is false.
// A catalog repeats its params byte for byte (a colour, a size), and a param's checks and tokens
// depend on its bytes alone: each param read is kept by its bytes, and the same bytes again are
// not read twice (reading a param took ~0.3 µs, a look-up of its bytes ~0.1).

/** A param as read: what its tokens are made of. */
export type ParamRecord = { name: string; priority: number | ''; keys: string[] };

/** Whether body[start, start + length) (read four bytes at a time through `words`) holds the bytes of `pool` at `from`: four at a time. */
function sameBytes(pool: DataView, body: Buffer, words: DataView, from: number, start: number, length: number): boolean {
  if (length < 4) {
    for (let i = 0; i < length; i++) if (pool.getUint8(from + i) !== body[start + i]) return false;
    return true;
  }
  const last = length - 4;
  for (let i = 0; i < last; i += 4) if (pool.getInt32(from + i) !== words.getInt32(start + i)) return false;
  return pool.getInt32(from + last) === words.getInt32(start + last);
}

/**
 * The params read, by their bytes: a number each, which the item's list holds (itemParams), and
 * their tokens' numbers in the TokenNumbers last used. What a look-up reads is in typed arrays,
 * a few cache lines a param, its bytes compared four at a time (with a record object each, its
 * pieces in arrays apart and the bytes compared one by one, a param cost ~350 ns to find and
 * number in an item of the benchmark's shape; ~250 now). Bounded: once full no more are found
 * again, and it is emptied before the next item (startItem), so that the numbers an item holds
 * stay its params'.
 */
export class ParamCache {
  static readonly MOST = 1 << 14;
  // Open addressing: [hash, number + 1] each slot, 0 for an empty one. At most a quarter full.
  private readonly table = new Int32Array(2 << 16);
  // Of each param found again: where its bytes are in the pool, and how many.
  private readonly spans = new Int32Array(2 * ParamCache.MOST);
  private readonly pool = Buffer.allocUnsafe(1 << 21);
  private readonly poolWords = new DataView(this.pool.buffer, this.pool.byteOffset, this.pool.length);
  private used = 0;
  private full = false;
  private records: ParamRecord[] = [];
  // By number: whether it makes tokens (`searchable` not false), and its tokens' numbers in
  // `numbers` [numbersFrom, numbersTo) if it was numbered this `numbering`.
  searchable = new Uint8Array(1024);
  private numberedIn = new Int32Array(1024);
  numbersFrom = new Int32Array(1024);
  numbersTo = new Int32Array(1024);
  numbers = new Int32Array(1 << 14);
  private numbersUsed = 0;
  private numbering = 1;
  private numberingTokens: TokenNumbers | null = null;

  /** The number of the param whose bytes are [start, end) and whose hash is `hash`, or -1. */
  find(body: Buffer, words: DataView, start: number, end: number, hash: number): number {
    const length = end - start;
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    for (let slot = hash & mask; table[2 * slot + 1] !== 0; slot = (slot + 1) & mask) {
      if (table[2 * slot] !== hash) continue;
      const k = table[2 * slot + 1] - 1;
      if (this.spans[2 * k + 1] === length && sameBytes(this.poolWords, body, words, this.spans[2 * k], start, length)) return k;
    }
    return -1;
  }

  /** Keeps the param whose bytes are [start, end): its number. */
  add(body: Buffer, start: number, end: number, hash: number, record: ParamRecord, searchable: boolean, findable: boolean): number {
    const k = this.records.length;
    this.records.push(record);
    if (k === this.searchable.length) this.grow();
    this.searchable[k] = searchable ? 1 : 0;
    this.numberedIn[k] = 0;
    const length = end - start;
    // A param larger than the pool is read every time, as it was this time.
    if (length > this.pool.length) return k;
    if (k >= ParamCache.MOST || this.used + length > this.pool.length) this.full = true;
    if (this.full || !findable) return k;
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    let slot = hash & mask;
    while (table[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    body.copy(this.pool, this.used, start, end);
    table[2 * slot] = hash;
    table[2 * slot + 1] = k + 1;
    this.spans[2 * k] = this.used;
    this.spans[2 * k + 1] = length;
    this.used += length;
    return k;
  }

  /** Param k's tokens numbered by `tokens`, to numbers[numbersFrom[k], numbersTo[k]). */
  numberBy(k: number, tokens: TokenNumbers): void {
    if (tokens !== this.numberingTokens) {
      this.numberingTokens = tokens;
      this.newNumbering();
    }
    if (this.numberedIn[k] === this.numbering) return;
    const { priority, name, keys } = this.records[k];
    // A param without a value still makes its name's token (visitFacetTokens).
    const count = Math.max(1, keys.length);
    if (this.numbersUsed + count > this.numbers.length) this.numbers = grown(this.numbers, this.numbersUsed + count);
    this.numbersFrom[k] = this.numbersUsed;
    if (keys.length === 0) this.numbers[this.numbersUsed++] = tokens.paramNumber(priority, name, null);
    for (const key of keys) this.numbers[this.numbersUsed++] = tokens.paramNumber(priority, name, key);
    this.numbersTo[k] = this.numbersUsed;
    this.numberedIn[k] = this.numbering;
  }

  /** Empties a full cache; called between items. */
  clearIfFull(): void {
    if (!this.full) return;
    this.table.fill(0);
    this.records = [];
    this.used = 0;
    this.full = false;
    this.newNumbering();
  }

  private newNumbering(): void {
    this.numbering++;
    this.numbersUsed = 0;
  }

  private grow(): void {
    this.searchable = grown(this.searchable);
    this.numberedIn = grown(this.numberedIn);
    this.numbersFrom = grown(this.numbersFrom);
    this.numbersTo = grown(this.numbersTo);
  }
}
