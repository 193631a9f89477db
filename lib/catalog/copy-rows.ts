import { Writable } from 'node:stream';
import type { TransactionSql } from 'postgres';

export type CopyValue = string | number | boolean | null | undefined | string[] | { json: unknown };

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
const NEEDS_ESCAPE = /[\\\t\n\r\0]/;

function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r\0]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : ''));
}

function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** PostgreSQL rejects \u0000 in text and jsonb: such characters are dropped. */
function jsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u0000') ? JSON.stringify(value, (_key, v) => (typeof v === 'string' ? v.replaceAll('\0', '') : v)) : text;
}

export function copyField(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  if (typeof value === 'object') {
    // JSON text escapes every control character itself: only its backslashes need doubling.
    const text = jsonText(value.json);
    return text.includes('\\') ? text.replaceAll('\\', '\\\\') : text;
  }
  return escapeText(value);
}

/** Streams rows into `table (columns)` with COPY, in chunks of about a megabyte. */
export async function copyRows(tx: TransactionSql, table: string, columns: string[], rows: Iterable<CopyValue[]>): Promise<void> {
  const stream = (await tx.unsafe(`copy ${table} (${columns.join(', ')}) from stdin`).writable()) as Writable;
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  let chunk = '';
  for (const row of rows) {
    chunk += row.map(copyField).join('\t') + '\n';
    if (chunk.length > 1 << 20) {
      if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
      chunk = '';
    }
  }
  stream.end(chunk);
  await done;
}
