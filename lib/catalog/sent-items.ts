import crypto from 'node:crypto';
import { COMMA, hasBackslash, isSpace, LOWER_F, LOWER_N, LOWER_T, OPEN_BRACE, OPEN_BRACKET, QUOTE, stringClose } from '@/lib/http/json-bytes';
import { arrayScanner } from '@/lib/http/json-scan';
import { TimeSlice, yieldToEventLoop } from '@/lib/runtime/turns';

// Bump when the row stored for the same item text would change (the schema's output,
// prepareItem, the facet tokens): items stored before are then prepared again when re-sent.
export const DIGEST_VERSION = '2:';

/** What applying an item sent unchanged reads of it, as JSON.parse gives it. */
export type ItemSummary = { id?: unknown; available?: unknown; categories?: unknown[]; locations?: { location: unknown }[] | null };

/**
 * The items of an import. An item whose digest matches the stored one is only summarised; the
 * others are parsed whole (`value`), with their text as sent when known.
 */
export type SentItems = {
  count: number;
  /** A digest of the item's bytes as sent; null when they are not known. */
  digest: (position: number) => string | null;
  /** The item's id as ItemInput would give it, when it has one of the right type. */
  id: (position: number) => string | undefined;
  summary: (position: number) => ItemSummary;
  value: (position: number) => unknown;
  /** The item's JSON text as sent (after `value` for the same position), when known. */
  text: (position: number) => string | undefined;
  /** The body's bytes and where each item is in them [start, end), for items read from a body. */
  source?: { body: Buffer; spans: Int32Array };
};

function idOf(id: unknown): string | undefined {
  return typeof id === 'string' || typeof id === 'number' ? String(id).trim() : undefined;
}

/**
 * Makes every item's digest ahead of the work that reads them, giving the event loop a turn
 * every couple of milliseconds (5,000 items take ~5 ms).
 */
export async function makeDigests(items: SentItems): Promise<void> {
  const slice = new TimeSlice();
  for (let position = 0; position < items.count; position++) {
    items.digest(position);
    if (slice.due()) await yieldToEventLoop();
  }
}

/** Items given as values (tests, tools): no digests, so each is validated and written. */
export function listedItems(list: unknown[]): SentItems {
  const summary = (position: number): ItemSummary => {
    const raw = list[position];
    return typeof raw === 'object' && raw !== null ? (raw as ItemSummary) : {};
  };
  return {
    count: list.length,
    digest: () => null,
    id: (position) => idOf(summary(position).id),
    summary,
    value: (position) => list[position],
    text: () => undefined,
  };
}

/** The members of an item that a summary reads: scanJson's `elementKeys` for an import body. */
export const SUMMARY_KEYS = ['id', 'available', 'categories', 'locations'];
const [ID, AVAILABLE, CATEGORIES, LOCATIONS] = [0, 1, 2, 3];

/** The string whose quotes are at start and end - 1, when it holds no escape. */
function plainString(body: Buffer, start: number, end: number): string | undefined {
  return hasBackslash(body, start + 1, end - 1) ? undefined : body.toString('utf8', start + 1, end - 1);
}

/** An array of strings without escapes (a product's categories), or undefined. */
function plainStrings(body: Buffer, start: number, end: number): string[] | undefined {
  const list: string[] = [];
  for (let i = start + 1; i < end - 1; i++) {
    const byte = body[i];
    if (isSpace(byte) || byte === COMMA) continue;
    if (byte !== QUOTE) return undefined;
    const close = stringClose(body, i);
    if (hasBackslash(body, i + 1, close)) return undefined;
    list.push(body.toString('utf8', i + 1, close));
    i = close;
  }
  return list;
}

const offersOf = arrayScanner(['location']);

/** Offers as a summary reads them (their locations), or undefined when they are not objects. */
function offerLocations(body: Buffer, start: number): { location: unknown }[] | undefined {
  const offers = offersOf(body, start);
  const found = offers?.elementMembers;
  if (!offers || !found || found.length !== offers.elements!.length) return undefined;
  const list: { location: unknown }[] = [];
  for (let e = 0; e < found.length; e += 2) {
    // Not an object, or without a location: JSON.parse says which.
    if (found[e] < 0 && body[offers.elements![e]] !== OPEN_BRACE) return undefined;
    list.push({ location: found[e] < 0 ? undefined : valueAt(body, found[e], found[e + 1]) });
  }
  return list;
}

/**
 * The JSON value at [start, end) of a body scanJson accepted, as JSON.parse gives it; offers
 * (`offers`: a list of them is expected) with their locations only. Literals, plain strings,
 * lists of them and lists of offers are read without JSON.parse (what applying an item sent
 * unchanged reads of it: ~1.5 µs an item with JSON.parse).
 */
function valueAt(body: Buffer, start: number, end: number, offers = false): unknown {
  const first = body[start];
  // A value that passed the scan and starts with t, f or n is that literal.
  if (first === LOWER_T) return true;
  if (first === LOWER_F) return false;
  if (first === LOWER_N) return null;
  const fast = first === QUOTE ? plainString(body, start, end) : first !== OPEN_BRACKET ? undefined : offers ? offerLocations(body, start) : plainStrings(body, start, end);
  return fast !== undefined ? fast : JSON.parse(body.toString('utf8', start, end));
}

/**
 * The items of a request body as sent, from scanJson's elements of the items member and their
 * SUMMARY_KEYS members (undefined when no item is an object). Each item's digest (~1.3 µs) is
 * made when first asked for (makeDigests makes them all in turns); an item is decoded and parsed
 * only when asked for whole.
 */
export function bodyItems(body: Buffer, spans: Int32Array, members: Int32Array | undefined): SentItems {
  const count = spans.length / 2;
  const digests = new Array<string | undefined>(count);
  // 128 bits of SHA-256, which runs on the CPU's SHA instructions: twice as fast as MD5 here.
  const digest = (i: number) => (digests[i] ??= DIGEST_VERSION + crypto.hash('sha256', body.subarray(spans[2 * i], spans[2 * i + 1]), 'base64').slice(0, 22));
  const member = (position: number, key: number): unknown => {
    // No members at all when no item is an object.
    if (members === undefined) return undefined;
    const at = (position * SUMMARY_KEYS.length + key) * 2;
    const start = members[at];
    if (start < 0) return undefined;
    return valueAt(body, start, members[at + 1], key === LOCATIONS);
  };
  // Asked for by the look-up and again while going through the items.
  const ids = new Array<string | undefined | null>(count).fill(null);
  let lastPosition = -1;
  let lastText = '';
  const text = (position: number) => {
    if (position !== lastPosition) {
      lastText = body.toString('utf8', spans[2 * position], spans[2 * position + 1]);
      lastPosition = position;
    }
    return lastText;
  };
  return {
    count,
    source: { body, spans },
    digest,
    id: (position) => {
      if (ids[position] === null) ids[position] = idOf(member(position, ID));
      return ids[position] ?? undefined;
    },
    summary: (position) => ({
      available: member(position, AVAILABLE),
      categories: member(position, CATEGORIES) as unknown[] | undefined,
      locations: member(position, LOCATIONS) as ItemSummary['locations'],
    }),
    value: (position) => JSON.parse(text(position)),
    text,
  };
}
