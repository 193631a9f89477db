import { Writable } from 'node:stream';
import type { TransactionSql } from 'postgres';
import { storableText } from '@/db/storable-text';

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

function jsonText(value: unknown, given?: string): string {
  if (given !== undefined && !RAW_CONTROL.test(given) && !UNSTORABLE_JSON.test(given)) return given;
  const text = JSON.stringify(value);
  return UNSTORABLE_JSON.test(text) ? JSON.stringify(storable(value)) : text;
}

export function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  if (typeof value === 'object') {
    // JSON text escapes every control character itself: only its backslashes need doubling.
    const text = jsonText(value.json, value.text);
    return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
  }
  return escapeText(storableText(value));
}

/** One row in COPY's text format (without the newline). */
export function copyLine(row: CopyValue[]): string {
  return row.map(copyField).join('\t');
}

/** Streams rows into `table (columns)` with COPY; see copyText. */
export function copyRows(tx: TransactionSql, table: string, columns: string[], rows: Iterable<CopyValue[]>): Promise<void> {
  return copyText(tx, table, columns, (function* () {
    for (const row of rows) yield copyLine(row);
  })());
}

/**
 * Streams lines of COPY text (copyLine) into `table (columns)`, in chunks of about a megabyte.
 * Rejects with PostgreSQL's error when the COPY fails, whenever the error comes.
 */
export async function copyText(tx: TransactionSql, table: string, columns: string[], lines: Iterable<string>): Promise<void> {
  const query = tx.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`);
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
  let chunk = '';
  for (const line of lines) {
    chunk += line + '\n';
    if (chunk.length > 1 << 20) {
      if (!stream.write(chunk)) await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), done]);
      chunk = '';
    }
  }
  stream.end(chunk);
  await done;
}
