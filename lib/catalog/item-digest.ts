import crypto from 'node:crypto';
import { arraySpans } from './item-spans';

// Bump when the row stored for the same item text would change (the schema's output,
// prepareItem, the facet tokens): items stored before are then prepared again when re-sent.
const DIGEST_VERSION = '1:';

/**
 * A digest of each element of the body's `field` array, from its bytes exactly as sent (~4 µs
 * an item, against ~25 µs to validate and prepare it). Undefined when the array cannot be found
 * element by element (the caller then treats every item as new).
 */
export function itemDigests(body: Uint8Array, field: string, count: number): string[] | undefined {
  const spans = arraySpans(body, field);
  if (!spans || spans.length !== count * 2) return undefined;
  const digests = new Array<string>(count);
  for (let i = 0; i < count; i++) digests[i] = DIGEST_VERSION + crypto.hash('md5', body.subarray(spans[2 * i], spans[2 * i + 1]), 'base64');
  return digests;
}
