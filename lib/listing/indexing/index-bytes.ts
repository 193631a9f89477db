import { Memo, memoBytes, memoValues } from './memo';
import type { ShopIndex } from './shop-index';

/**
 * Bytes the index holds in typed arrays plus a rough figure for its strings and maps, and what
 * its queries have kept with it (orders, kept counts, buffers, the word index).
 */
export function indexBytes(index: ShopIndex): number {
  let bytes = 0;
  for (const value of Object.values(index)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  bytes += memoBytes(index.memo);
  // ids, value dictionary, merchants, what the next build replays.
  bytes += index.idText.length * 2 + index.valueKey.length * 160;
  for (const docs of index.merchants.values()) bytes += docs.byteLength;
  for (const offers of index.subtreeOffers) bytes += offers?.byteLength ?? 0;
  if (index.replay) {
    const { tokenOffsets, tokenNumbers, groups } = index.replay;
    bytes += tokenOffsets.byteLength + tokenNumbers.byteLength + groups.bytes;
  }
  return bytes;
}

/**
 * Bytes of every array buffer the index holds, each counted once whichever thread made it (the
 * layout worker makes the postings, inverted lists and replayed tokens: the process's count of
 * this thread's array buffers leaves them out): columns, postings, what it replays and keeps.
 */
export function heldBufferBytes(index: ShopIndex): number {
  const seen = new Set<ArrayBufferLike>();
  let bytes = 0;
  const visit = (value: unknown, depth: number) => {
    if (ArrayBuffer.isView(value)) {
      if (!seen.has(value.buffer)) {
        seen.add(value.buffer);
        bytes += value.buffer.byteLength;
      }
      return;
    }
    if (depth === 0 || value === null || typeof value !== 'object' || value instanceof Promise) return;
    // The memo's values one level down, each of a family's too (as when each was an entry of its own).
    if (value instanceof Memo) for (const item of memoValues(value)) visit(item, depth - 1);
    else for (const item of value instanceof Map ? value.values() : Array.isArray(value) ? value : Object.values(value)) visit(item, depth - 1);
  };
  visit(index, 4);
  return bytes;
}
