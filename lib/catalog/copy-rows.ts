import { Writable } from 'node:stream';
import type { TransactionSql } from 'postgres';
import { storableText } from '@/db/storable-text';
import { BACKSLASH, isControlSpace, QUOTE } from '@/lib/http/json-bytes';
import { yieldToEventLoop } from '@/lib/runtime/turns';

// `{ json, text }`: JSON (jsonb), with `text` its JSON text when already at hand.
export type CopyValue = string | number | boolean | null | undefined | string[] | { json: unknown; text?: string };

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
const NEEDS_ESCAPE = /[\\\t\n\r\0]/;

function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r\0]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : ''));
}

function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

// jsonb refuses \u0000 and unpaired surrogates (what slicing a string through an emoji leaves).
const UNSTORABLE_JSON = /\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [storableText(key), storable(v)]));
  }
  return value;
}

// Whitespace between JSON tokens that COPY's text format would read as a field or row end.
const RAW_CONTROL = /[\t\n\r]/;
// Text that is copied as it is: no whitespace COPY would read, and no escape (so nothing
// UNSTORABLE_JSON finds, and no backslash to double). One pass over the common item's text.
const PLAIN_JSON = /^[^\t\n\r\\]*$/;

/** Whether JSON text holds an escape jsonb refuses (a NUL, an unpaired surrogate). */
export function refusedByJsonb(text: string): boolean {
  return UNSTORABLE_JSON.test(text);
}

/** Whether JSON text would be stored as it is (no whitespace COPY's text would read, nothing jsonb refuses). */
export function storableJsonText(text: string): boolean {
  return !RAW_CONTROL.test(text) && !UNSTORABLE_JSON.test(text);
}

function jsonText(value: unknown, given?: string): string {
  if (given !== undefined && storableJsonText(given)) return given;
  const text = JSON.stringify(value);
  return UNSTORABLE_JSON.test(text) ? JSON.stringify(storable(value)) : text;
}

export function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  if (typeof value === 'object') {
    if (value.text !== undefined && PLAIN_JSON.test(value.text)) return value.text;
    // JSON text escapes every control character itself: only its backslashes need doubling.
    const text = jsonText(value.json, value.text);
    return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
  }
  // One pass finds what either of them would change, in a text that mostly needs neither.
  return SPECIAL_TEXT.test(value) ? escapeText(storableText(value)) : value;
}

// What escapeText escapes and storableText removes or replaces (a surrogate, paired or not).
const SPECIAL_TEXT = /[\\\t\n\r\0\uD800-\uDFFF]/;

/** One row in COPY's text format (without the newline). */
function copyLine(row: CopyValue[]): string {
  if (row.length === 0) return '';
  let line = copyField(row[0]);
  for (let i = 1; i < row.length; i++) line += '\t' + copyField(row[i]);
  return line;
}

/** Streams rows into `table (columns)` with COPY; see copyText. */
export function copyRows(tx: TransactionSql, table: string, columns: string[], rows: Iterable<CopyValue[]>): Promise<void> {
  return copyText(tx, table, columns, (function* () {
    for (const row of rows) yield copyLine(row);
  })());
}

type CopySink = {
  write: (chunk: string | Buffer) => Promise<void>;
  writeAndRelease: (chunk: Buffer) => Promise<void>;
  end: (chunk: string | Buffer) => Promise<void>;
};

/**
 * Starts `copy … from stdin` and gives what writes to it; `end` settles once PostgreSQL has taken
 * every row, and rejects with its error when the COPY fails, whenever the error comes.
 */
async function openCopy(tx: TransactionSql, statement: string, table: string): Promise<CopySink> {
  const query = tx.unsafe(statement);
  // postgres.js settles the COPY query with the stream as soon as the COPY starts, and a server
  // error that arrives after the last chunk (a duplicate key found at the end, a bad value)
  // neither fails nor finishes the stream: without this, the caller would wait for ever. The
  // driver reports it to the query's reject, which is wrapped here to hear it.
  let serverFailed!: (error: unknown) => void;
  const serverError = new Promise<never>((_, reject) => (serverFailed = reject));
  // Heard through `done` below, or, when the COPY fails to start, through the query itself.
  serverError.catch(() => {});
  const settle = query as unknown as { reject: (error: unknown) => void };
  const reject = settle.reject;
  settle.reject = (error) => {
    serverFailed(error);
    reject(error);
  };
  const stream = (await query.writable()) as Writable;
  const done = Promise.race([
    new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.on('close', () => reject(new Error(`COPY into ${table} ended early`)));
    }),
    serverError,
  ]);
  // A failed COPY destroys the stream, which then never drains: never wait on drain alone.
  done.catch(() => {});
  return {
    write: async (chunk) => {
      if (!stream.write(chunk)) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), done]);
    },
    // The driver copies a chunk into its message when the stream hands it on, which is before the
    // write's callback: after this, the chunk's memory may be written again.
    writeAndRelease: (chunk) => Promise.race([new Promise<void>((resolve) => stream.write(chunk, () => resolve())), done]),
    end: (chunk) => {
      stream.end(chunk);
      return done;
    },
  };
}

/**
 * Streams lines of COPY text (copyLine) into `table (columns)`, in chunks of about a megabyte.
 * Rejects with PostgreSQL's error when the COPY fails, whenever the error comes.
 */
async function copyText(tx: TransactionSql, table: string, columns: string[], lines: Iterable<string>): Promise<void> {
  const sink = await openCopy(tx, `copy ${table} (${columns.join(', ')}) from stdin`, table);
  let chunk = '';
  for (const line of lines) {
    chunk += line + '\n';
    if (chunk.length > 1 << 20) {
      await sink.write(chunk);
      chunk = '';
    }
  }
  await sink.end(chunk);
}

/** Streams COPY text already made (whole lines, each ending in a newline) into `table (columns)`. */
export async function copyTextBytes(tx: TransactionSql, table: string, columns: string[], text: Buffer): Promise<void> {
  const sink = await openCopy(tx, `copy ${table} (${columns.join(', ')}) from stdin`, table);
  const CHUNK = 1 << 20;
  let from = 0;
  for (; from + CHUNK < text.length; from += CHUNK) await sink.write(text.subarray(from, from + CHUNK));
  await sink.end(text.subarray(from));
}

// COPY's binary format: signature, flags, header extension length; a tuple; the trailer.
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
// The trailer: a field count of -1.
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** How a value goes into a column in COPY's binary format (BinaryRows.field). */
export type BinaryType = 'text' | 'float8' | 'int4' | 'int8' | 'bool' | 'text[]' | 'timestamptz' | 'json';

const EMPTY = Buffer.alloc(0);
// PostgreSQL's epoch, 2000-01-01T00:00:00Z, in Unix milliseconds; the OID of type text.
const PG_EPOCH_MS = 946_684_800_000;
const TEXT_OID = 25;
const TWO_32 = 2 ** 32;

/** A safe integer as eight big-endian bytes at `at`: two 32-bit halves, no BigInt made. */
function writeInt64(buffer: Buffer, value: number, at: number): void {
  const high = Math.floor(value / TWO_32);
  buffer.writeInt32BE(high, at);
  buffer.writeUInt32BE(value - high * TWO_32, at + 4);
}

/**
 * Microseconds since PostgreSQL's epoch of `ms` (Unix milliseconds) as eight big-endian bytes at
 * `at`. The product can pass 2^53 (past the year 2285), so it is made of the milliseconds' two
 * halves, each product exact.
 */
function writeMicros(buffer: Buffer, ms: number, at: number): void {
  const since = ms - PG_EPOCH_MS;
  const highMs = Math.floor(since / TWO_32);
  const low = (since - highMs * TWO_32) * 1000;
  const carry = Math.floor(low / TWO_32);
  buffer.writeInt32BE(highMs * 1000 + carry, at);
  buffer.writeUInt32BE(low - carry * TWO_32, at + 4);
}

/**
 * Copies JSON text `source[from, to)` (starting outside a string) to `target` at `at` without the
 * tabs and line breaks between its tokens: where the copy ends.
 */
function copyCompact(source: Buffer, from: number, to: number, target: Buffer, at: number): number {
  let inString = false;
  for (let i = from; i < to; i++) {
    const byte = source[i];
    if (inString) {
      if (byte === BACKSLASH) {
        target[at++] = byte;
        target[at++] = source[++i];
        continue;
      }
      if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (isControlSpace(byte)) continue;
    target[at++] = byte;
  }
  return at;
}

/**
 * Rows in COPY's binary format, written into one growing buffer: a row is its field count, a
 * field its length (-1 for NULL) and its bytes in the type's binary form. PostgreSQL then reads
 * no text: no line to split, no escape to undo, no number to parse (what made up ~10 % of its
 * CPU copying product rows in text). What a value becomes is what copyField's text would have
 * given: NUL characters dropped from strings, unpaired surrogates as U+FFFD (Buffer.write makes
 * them so), JSON as jsonText gives it, -0 as 0.
 */
export class BinaryRows {
  private buffer: Buffer = EMPTY;
  private used = 0;

  // `capacity`: the bytes its buffer starts with, allocated when first written to (again after take).
  constructor(private readonly capacity = 1 << 16) {}

  /**
   * A writer whose rows go into `memory` (from its start) while they fit; past it, into a buffer
   * of its own, as any writer's.
   */
  static into(memory: Buffer): BinaryRows {
    const rows = new BinaryRows();
    rows.buffer = memory;
    return rows;
  }

  /** Whether what was written so far is in `memory` (into()'s) still. */
  isIn(memory: ArrayBufferLike): boolean {
    return this.buffer.buffer === memory;
  }

  /** A writer holding `written` (what another writer's take gave), to read or add to. */
  static holding(written: Buffer): BinaryRows {
    const rows = new BinaryRows();
    rows.buffer = written;
    rows.used = written.length;
    return rows;
  }

  /** The bytes written so far. */
  get length(): number {
    return this.used;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.capacity, 2 * this.buffer.length, this.used + bytes));
    this.buffer.copy(grown, 0, 0, this.used);
    this.buffer = grown;
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): void {
    this.reserve(2);
    this.buffer.writeInt16BE(fields, this.used);
    this.used += 2;
  }

  /** Fields already written in this format (BinaryRows.take of another writer). */
  bytes(fields: Uint8Array): void {
    this.reserve(fields.length);
    this.buffer.set(fields, this.used);
    this.used += fields.length;
  }

  /** One bytea field: its bytes as they are. */
  bytea(value: Uint8Array): void {
    this.reserve(4 + value.length);
    this.buffer.writeInt32BE(value.length, this.used);
    this.buffer.set(value, this.used + 4);
    this.used += 4 + value.length;
  }

  /** One field: `value` as `type`; null and undefined are NULL. */
  field(type: BinaryType, value: CopyValue): void {
    if (value === null || value === undefined) {
      this.reserve(4);
      this.buffer.writeInt32BE(-1, this.used);
      this.used += 4;
      return;
    }
    switch (type) {
      case 'text':
        return this.text(String(value));
      case 'json': {
        const json = value as { json: unknown; text?: string };
        return this.text(json.text !== undefined && PLAIN_JSON.test(json.text) ? json.text : jsonText(json.json, json.text));
      }
      case 'float8':
        this.reserve(12);
        this.buffer.writeInt32BE(8, this.used);
        // String(-0) is "0": the text format stored 0.
        this.buffer.writeDoubleBE((value as number) || 0, this.used + 4);
        this.used += 12;
        return;
      case 'int4':
        this.reserve(8);
        this.buffer.writeInt32BE(4, this.used);
        this.buffer.writeInt32BE(value as number, this.used + 4);
        this.used += 8;
        return;
      case 'int8':
        this.reserve(12);
        this.buffer.writeInt32BE(8, this.used);
        writeInt64(this.buffer, value as number, this.used + 4);
        this.used += 12;
        return;
      case 'bool':
        this.reserve(5);
        this.buffer.writeInt32BE(1, this.used);
        this.buffer[this.used + 4] = value ? 1 : 0;
        this.used += 5;
        return;
      case 'timestamptz': {
        // An ISO 8601 instant (isoInstant): microseconds since PostgreSQL's epoch.
        const ms = Date.parse(value as string);
        if (Number.isNaN(ms)) throw new Error(`not an instant: ${String(value)}`);
        this.reserve(12);
        this.buffer.writeInt32BE(8, this.used);
        writeMicros(this.buffer, ms, this.used + 4);
        this.used += 12;
        return;
      }
      case 'text[]':
        return this.textArray(value as string[]);
    }
  }

  private text(value: string): void {
    const text = value.includes('\0') ? value.replaceAll('\0', '') : value;
    // UTF-8 takes at most three bytes a UTF-16 unit.
    this.reserve(4 + 3 * text.length);
    const written = this.buffer.write(text, this.used + 4, 'utf8');
    this.buffer.writeInt32BE(written, this.used);
    this.used += 4 + written;
  }

  /**
   * One text field from bytes already UTF-8 without NUL (an item's text, checked): what
   * field('text', the decoded string) writes.
   */
  textBytes(source: Buffer, start: number, end: number): void {
    const length = end - start;
    this.reserve(4 + length);
    const buffer = this.buffer;
    buffer.writeInt32BE(length, this.used);
    this.used += 4;
    if (length > 32) source.copy(buffer, this.used, start, end);
    else for (let i = 0; i < length; i++) buffer[this.used + i] = source[start + i];
    this.used += length;
  }

  /**
   * One text field: the JSON text `source[start, end)` with the first `count` edits made (each
   * replaces [editStarts[k], editEnds[k]) by editTexts[k]; in order, none overlapping) and, when
   * `compact`, the tabs and line breaks between its tokens left out.
   */
  jsonBytesEdited(source: Buffer, start: number, end: number, editStarts: readonly number[], editEnds: readonly number[], editTexts: readonly string[], count: number, compact: boolean): void {
    let extra = 0;
    for (let k = 0; k < count; k++) extra += 3 * editTexts[k].length;
    this.reserve(4 + (end - start) + extra);
    const buffer = this.buffer;
    const lengthAt = this.used;
    let at = this.used + 4;
    let from = start;
    for (let k = 0; k <= count; k++) {
      const to = k < count ? editStarts[k] : end;
      if (compact) at = copyCompact(source, from, to, buffer, at);
      else at += source.copy(buffer, at, from, to);
      if (k < count) {
        at += buffer.write(editTexts[k], at, 'utf8');
        from = editEnds[k];
      }
    }
    buffer.writeInt32BE(at - lengthAt - 4, lengthAt);
    this.used = at;
  }

  /** One text[] field of such strings, by the first `count` numbers of `spans`: [start, end) pairs. */
  textBytesArray(source: Buffer, spans: readonly number[], count: number): void {
    const start = this.arrayHeader(count / 2);
    for (let i = 0; i < count; i += 2) this.textBytes(source, spans[i], spans[i + 1]);
    this.buffer.writeInt32BE(this.used - start - 4, start);
  }

  /** An array's length and header (one dimension from 1, no NULL elements; an empty array has no dimension): where it starts. */
  private arrayHeader(count: number): number {
    const start = this.used;
    this.reserve(24);
    this.buffer.writeInt32BE(count === 0 ? 0 : 1, start + 4);
    this.buffer.writeInt32BE(0, start + 8);
    this.buffer.writeInt32BE(TEXT_OID, start + 12);
    this.used += 16;
    if (count > 0) {
      this.buffer.writeInt32BE(count, start + 16);
      this.buffer.writeInt32BE(1, start + 20);
      this.used += 8;
    }
    return start;
  }

  private textArray(values: string[]): void {
    const start = this.arrayHeader(values.length);
    for (const element of values) this.text(element);
    this.buffer.writeInt32BE(this.used - start - 4, start);
  }

  /**
   * One text field: the first `count` numbers of `numbers` (non-negative integers) in decimal,
   * separated by spaces; NULL when `numbers` is null.
   */
  spacedNumbers(numbers: readonly number[] | null, count: number): void {
    if (numbers === null) return this.field('text', null);
    // At most 10 digits and a space each.
    this.reserve(4 + 11 * count);
    const buffer = this.buffer;
    let at = this.used + 4;
    for (let i = 0; i < count; i++) {
      if (i > 0) buffer[at++] = 0x20;
      let n = numbers[i];
      let digits = 1;
      for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
      at += digits;
      for (let k = at - 1; k >= at - digits; k--) {
        buffer[k] = 0x30 + (n % 10);
        n = Math.floor(n / 10);
      }
    }
    buffer.writeInt32BE(at - this.used - 4, this.used);
    this.used = at;
  }

  /** Bytes written so far, [start, end), without copying (valid until the next write or take). */
  written(start: number, end: number): Buffer {
    return this.buffer.subarray(start, end);
  }

  /**
   * What was written, and the writer starts again empty in the same memory: the bytes given are
   * valid until the next write. For chunks streamed one at a time (copyBinary), without a new
   * buffer for each (every megabyte allocated outside V8's heap counts towards its next collection).
   */
  flush(): Buffer {
    const written = this.buffer.subarray(0, this.used);
    this.used = 0;
    return written;
  }

  /** What was written, which this writer no longer holds: it starts again empty. */
  take(): Buffer {
    const written = this.buffer.subarray(0, this.used);
    this.buffer = EMPTY;
    this.used = 0;
    return written;
  }
}

/**
 * Streams rows in COPY's binary format (BinaryRows, in any number of chunks, each whole rows)
 * into `table (columns)`. Rejects with PostgreSQL's error when the COPY fails. Each chunk is
 * handed on before the next is asked for: a chunk may be a BinaryRows.flush() whose memory the
 * next chunk is written into.
 */
export async function copyBinary(tx: TransactionSql, table: string, columns: string[], chunks: Iterable<Buffer>): Promise<void> {
  const sink = await openCopy(tx, `copy ${table} (${columns.join(', ')}) from stdin (format binary)`, table);
  await sink.write(BINARY_HEADER);
  for (const chunk of chunks) {
    // A chunk without rows is the event loop's turn (sortedRows).
    if (chunk.length > 0) await sink.writeAndRelease(chunk);
    else await yieldToEventLoop();
  }
  await sink.end(BINARY_TRAILER);
}

/**
 * Inserts one row with COPY's binary format: a large bytea value goes as its bytes, where a
 * query parameter would double it into hex text. Strings are text values, numbers int8.
 */
export async function copyBinaryRow(tx: TransactionSql, table: string, columns: string[], values: (string | number | Uint8Array)[]): Promise<void> {
  const rows = new BinaryRows();
  rows.row(values.length);
  for (const value of values) {
    if (typeof value === 'string') rows.field('text', value);
    else if (typeof value === 'number') rows.field('int8', value);
    else rows.bytea(value);
  }
  await copyBinary(tx, table, columns, [rows.take()]);
}
