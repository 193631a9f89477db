import type { ImportProblem } from '@/db/schema';
import { describeZodError } from '@/lib/http/zod-message';
import { itemIdOf } from '@/lib/catalog/import-outcome';
import { copyField } from './copy-rows';
import { grown, slotsFor } from './hash-slots';
import { identifier } from './schemas';
import { BACKSLASH, QUOTE, SPACE } from '@/lib/http/json-bytes';

// The product ids a PATCH or DELETE lists, made into what PostgreSQL takes: each valid id once, as
// a line of COPY text, in the order first listed. From a request body's bytes, a plain id (an
// ASCII string without escapes) goes from the body into the lines as it is, with no string made:
// for a whole catalog's 900,000 ids, parsing the list and keeping them distinct in a Set took
// ~1 s, this ~0.1 s.

const ProductId = identifier('id', 64);

/** The ids, each valid one once, as COPY text lines; `distinct` of them. */
export type IdLines = { copy: Buffer; distinct: number };

/** The entries of a PATCH or DELETE: `read` reports each one that is not an id and gives the rest. */
export type ListedIds = { count: number; read: (reject: (problem: ImportProblem) => void) => IdLines };

/** Entries given as values (tests, tools). */
export function listedIds(list: unknown[]): ListedIds {
  return {
    count: list.length,
    read: (reject) => {
      const lines = new DistinctLines(list.length, 16 * list.length);
      list.forEach((raw, position) => addValue(lines, raw, position, reject));
      return lines.finish();
    },
  };
}

/** The entries of a request body, from scanJson's elements of its items member. */
export function bodyIds(body: Buffer, spans: Int32Array): ListedIds {
  return {
    count: spans.length / 2,
    read: (reject) => {
      // Each line is at most its entry's JSON text and a newline (but for numbers in exponent form).
      const lines = new DistinctLines(spans.length / 2, spans.length > 0 ? spans[spans.length - 1] - spans[0] + 1 : 0);
      for (let position = 0; position < spans.length / 2; position++) {
        const start = spans[2 * position];
        const end = spans[2 * position + 1];
        if (isPlainId(body, start, end)) lines.add(body, start + 1, end - 1);
        else addValue(lines, JSON.parse(body.toString('utf8', start, end)), position, reject);
      }
      return lines.finish();
    },
  };
}

/**
 * Whether the JSON value at [start, end) is a string that ProductId takes as it is and that COPY
 * text needs no escape for: 1–64 ASCII characters without a backslash (so no escapes), not starting
 * or ending with a space. (JSON strings hold no raw control characters, and trim() removes no
 * other ASCII character a JSON string can hold unescaped.)
 */
function isPlainId(body: Buffer, start: number, end: number): boolean {
  const length = end - start - 2;
  if (body[start] !== QUOTE || length < 1 || length > 64 || body[start + 1] === SPACE || body[end - 2] === SPACE) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const byte = body[i];
    if (byte >= 0x80 || byte === BACKSLASH) return false;
  }
  return true;
}

function addValue(lines: DistinctLines, raw: unknown, position: number, reject: (problem: ImportProblem) => void): void {
  let id: string;
  // The common case, as ProductId gives it (a string already trimmed), without zod's ~1.5 µs.
  if (typeof raw === 'string' && raw.length >= 1 && raw.length <= 64 && raw.trim() === raw && !raw.includes('\0')) id = raw;
  else {
    const parsed = ProductId.safeParse(raw);
    if (!parsed.success) {
      reject({ item_id: itemIdOf(raw), position, message: `items[${position}] must be a product id: ${describeZodError(parsed.error)}` });
      return;
    }
    id = parsed.data;
  }
  const line = Buffer.from(copyField(id));
  lines.add(line, 0, line.length);
}

/**
 * COPY text lines, each added once: a growing buffer of them, and an open-addressing table of
 * their numbers by a hash of their bytes (FNV-1a). Equal ids have equal lines (COPY's escaping is
 * one to one), so lines are compared as bytes. ~1 table miss a line: ~0.1 µs.
 */
class DistinctLines {
  private bytes: Buffer;
  private length = 0;
  private starts: Int32Array<ArrayBuffer>; // line i is [starts[i], starts[i + 1] - 1), then '\n'
  private count = 0;
  private slots: Int32Array; // a line's number + 1; 0 is empty
  private hashes: Int32Array<ArrayBuffer>; // each line's hash, for growing the table

  /** Sized for `lines` lines of `bytes` in all (growing past them when needed). */
  constructor(lines: number, bytes: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(1024, bytes));
    this.starts = new Int32Array(Math.max(1024, lines + 1));
    this.hashes = new Int32Array(this.starts.length);
    this.slots = new Int32Array(Math.max(2048, 2 ** Math.ceil(Math.log2(2 * lines + 2))));
  }

  add(source: Uint8Array, start: number, end: number): void {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ source[i], 0x01000193);
    const { slots, hashes, starts } = this;
    const mask = slots.length - 1;
    let slot = hash & mask;
    for (let held = slots[slot]; held !== 0; slot = (slot + 1) & mask, held = slots[slot]) {
      if (hashes[held - 1] === hash && this.equals(starts[held - 1], starts[held] - 1, source, start, end)) return;
    }
    this.append(source, start, end, hash);
    slots[slot] = this.count;
    if (this.count * 2 > slots.length) this.growTable();
  }

  finish(): IdLines {
    return { copy: this.bytes.subarray(0, this.length), distinct: this.count };
  }

  private equals(from: number, to: number, source: Uint8Array, start: number, end: number): boolean {
    if (to - from !== end - start) return false;
    const bytes = this.bytes;
    for (let i = 0; i < end - start; i++) if (bytes[from + i] !== source[start + i]) return false;
    return true;
  }

  private append(source: Uint8Array, start: number, end: number, hash: number): void {
    let length = this.length;
    if (length + end - start + 1 > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(length + end - start + 1, this.bytes.length * 2));
      this.bytes.copy(bigger, 0, 0, length);
      this.bytes = bigger;
    }
    if (this.count + 2 > this.starts.length) {
      this.starts = grown(this.starts);
      this.hashes = grown(this.hashes);
    }
    const bytes = this.bytes;
    this.starts[this.count] = length;
    for (let i = start; i < end; i++) bytes[length++] = source[i];
    bytes[length++] = 0x0a;
    this.length = length;
    this.hashes[this.count] = hash;
    this.count++;
    this.starts[this.count] = length;
  }

  private growTable(): void {
    this.slots = slotsFor(this.hashes, this.count, this.slots.length * 2);
  }
}
