import { keepsItsDigits } from './schemas';
import { ByteStrings, KeyTable } from './byte-strings';
import { COLOR_KEYS, FASHION_KEYS, ITEM_MEMBERS, OFFER_KEYS, PARAM_KEYS } from './item-rules';
import { FAIL, type Limits } from './section-rules';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  decodeString,
  isControlSpace,
  isNumberStart,
  LOWER_F,
  LOWER_N,
  LOWER_T,
  LOWER_U,
  numberEnd,
  numberValue,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  SPACE,
  ZERO,
} from '@/lib/http/json-bytes';

// The byte reader's place in an item's text (item-bytes.ts reads an item with it): the body, the
// byte at, the last string and number read, and what the item's text holds that decides how it
// is stored (bytes past ASCII, escapes, tabs and line breaks between tokens, the edits that make
// it the checks' output). Module state, not an object: the reader runs ~100 of these calls an
// item, and every one reads it. Each read either passes a value the rules accept or declines.

/** Starts reading the item text at `start` of `body`. */
export function startText(body: Buffer, start: number): void {
  if (body !== b) {
    b = body;
    bWords = new DataView(body.buffer, body.byteOffset, body.length);
  }
  at = start;
  wide = 0;
  escapes = false;
  controlSpace = false;
  editCount = 0;
}

/** Passes the object objectSpan found, its bytes' facts counted as if read. */
export function passObject(end: number): void {
  wide |= spanBits;
  // Its escapes are the item's as much as if read (readItem then checks what jsonb refuses).
  if (spanEscaped) escapes = true;
  at = end;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Thrown to decline an item (never seen outside the reader): no stack is made for it. */
export const DECLINE = { declined: true };
export function decline(): never {
  throw DECLINE;
}

// The reader's place: the body, the byte at, the last string's content [textStart, textEnd),
// the last number's value, and whether a string held a byte past ASCII.
export let b: Buffer = Buffer.alloc(0);
// The same bytes, read four at a time (ParamCache compares params so).
export let bWords = new DataView(b.buffer, b.byteOffset, b.length);
export let at = 0;
export let textStart = 0;
export let textEnd = 0;
export let value = 0;
export let wide = 0;
// Whether the last string held an escape, and whether any string of the item did.
let escaped = false;
export let escapes = false;

// Whether a tab or line break stands between the item's tokens (left out of what is stored).
export let controlSpace = false;

// Edits to the text stored as `data`: [editStarts[k], editEnds[k]) becomes editTexts[k] (an
// insertion when they are equal), in the order read.
export const editStarts: number[] = [];
export const editEnds: number[] = [];
export const editTexts: string[] = [];
export let editCount = 0;

export function edit(start: number, end: number, text: string): void {
  editStarts[editCount] = start;
  editEnds[editCount] = end;
  editTexts[editCount++] = text;
}

/** Skips whitespace between tokens. */
function space(): void {
  let byte = b[at];
  for (;;) {
    if (byte === SPACE) byte = b[++at];
    else if (isControlSpace(byte)) {
      controlSpace = true;
      byte = b[++at];
    } else return;
  }
}

/** After a member or element: true when another follows (its comma and spaces passed). */
function more(): boolean {
  space();
  if (b[at] !== COMMA) {
    at++;
    return false;
  }
  at++;
  space();
  return true;
}

/** Opens an object or array at `at` (its first byte checked by the caller): false when empty. */
function open(close: number): boolean {
  at++;
  space();
  if (b[at] !== close) return true;
  at++;
  return false;
}

/**
 * The string at `at` (its quote), its content to [textStart, textEnd) as sent; `escaped` when it
 * holds an escape (decode() then gives its value). `\u0000` is declined: a NUL is dropped from
 * what is stored, and a facet token holding one is not stored at all.
 */
export function text(): void {
  textStart = ++at;
  let byte = b[at];
  let bits = 0;
  escaped = false;
  while (byte !== QUOTE) {
    if (byte === BACKSLASH) {
      escaped = escapes = true;
      if (b[at + 1] !== LOWER_U) at += 2;
      else if (b[at + 2] === ZERO && b[at + 3] === ZERO && b[at + 4] === ZERO && b[at + 5] === ZERO) decline();
      else at += 6;
      byte = b[at];
      continue;
    }
    bits |= byte;
    byte = b[++at];
  }
  wide |= bits;
  textEnd = at++;
}

/** The string whose content as sent is [start, end), its escapes undone. */
export function decode(start: number, end: number): string {
  return decodeString(b, start, end);
}
/** A key (its KEY_NAMES number, -1 for another) and its colon, the value's first byte at `at`. */
function key(): number {
  if (b[at] !== QUOTE) decline();
  text();
  // A key spelled with an escape would be found as any other: JSON.parse's.
  if (escaped) decline();
  const name = keys.find(b, textStart, textEnd);
  space();
  at++;
  space();
  return name;
}

/** The number at `at` to `value`: exactly as JSON.parse reads it. */
function number(): void {
  const start = at;
  at = numberEnd(b, at);
  value = numberValue(b, start, at);
}

/** Whether the value at `at` is null (and passes it). */
export function isNull(): boolean {
  if (b[at] !== LOWER_N) return false;
  at += 4;
  return true;
}

/** A Boolean at `at` to `value` (1 or 0), else declined. */
export function flag(): void {
  const byte = b[at];
  if (byte === LOWER_T) {
    value = 1;
    at += 4;
  } else if (byte === LOWER_F) {
    value = 0;
    at += 5;
  } else decline();
}

/** A finite number at `at` to `value`, else declined. */
export function finite(): void {
  if (!isNumberStart(b[at])) decline();
  number();
  if (!Number.isFinite(value)) decline();
}

export function int32(): void {
  finite();
  if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) decline();
}

/** Any value, passed over (strings still checked for escapes, space for tabs and breaks). */
export function skip(): void {
  const byte = b[at];
  if (byte === QUOTE) return text();
  if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
    let depth = 0;
    for (;;) {
      const next = b[at];
      if (next === QUOTE) {
        text();
        continue;
      }
      if (next === OPEN_BRACE || next === OPEN_BRACKET) depth++;
      else if (next === CLOSE_BRACE || next === CLOSE_BRACKET) {
        if (--depth === 0) {
          at++;
          return;
        }
      } else if (isControlSpace(next)) controlSpace = true;
      at++;
    }
  }
  if (byte === LOWER_T || byte === LOWER_N) at += 4;
  else if (byte === LOWER_F) at += 5;
  else number();
}

/** A string (else declined), its content at [textStart, textEnd). */
export function string(): void {
  if (b[at] !== QUOTE) decline();
  text();
}

/** An array (else declined), each element read by `each`. */
export function list(each: () => void): void {
  if (b[at] !== OPEN_BRACKET) decline();
  if (!open(CLOSE_BRACKET)) return;
  do each();
  while (more());
}

/** An array of strings (else declined), each passed to `each` with its content at [textStart, textEnd). */
export function strings(each?: () => void): void {
  if (b[at] !== OPEN_BRACKET) decline();
  if (!open(CLOSE_BRACKET)) return;
  do {
    string();
    each?.();
  } while (more());
}

/** The content [textStart, textEnd) as a string, from the shared strings. */
export function shared(): string {
  return values.get(b, textStart, textEnd);
}

/** The last string is not empty and String.prototype.trim would not change it. */
export function trimmed(): boolean {
  if (textEnd === textStart) return false;
  const first = b[textStart];
  const last = b[textEnd - 1];
  if (!escaped && first < 0x80 && last < 0x80) return first > SPACE && last > SPACE;
  // An escape or a character past ASCII at an end (trim removes some, U+00A0 and U+3000 among
  // them): the string's own answer.
  const decoded = decode(textStart, textEnd);
  return decoded.trim() === decoded;
}

export const values = new ByteStrings(decode);
// A param value or size sent as a number: its key (valueKeyOf).
export const numberKeys = new ByteStrings((start) => {
  const saved = at;
  at = start;
  number();
  at = saved;
  return String(value);
});

// Every key the reader acts on (a number each, which key() gives): an item's, a param's, an
// offer's, fashion's and a colour's, as item-rules.ts names them.
export const KEY_NAMES = [...new Set([...Object.keys(ITEM_MEMBERS), ...PARAM_KEYS, ...OFFER_KEYS, ...FASHION_KEYS, ...COLOR_KEYS, '__proto__'])];
const keys = new KeyTable(KEY_NAMES);
const KEY = (name: string): number => KEY_NAMES.indexOf(name);
export const [K_NAME, K_VALUE, K_UNIT, K_PRIORITY, K_SEARCHABLE] = ['name', 'value', 'unit', 'priority', 'searchable'].map(KEY);
export const [K_LOCATION, K_PRICE, K_OLDPRICE, K_MERCHANT, K_STOCK, K_SIZES, K_WEIGHT, K_DELIVERY, K_DISCOUNT] = ['location', 'price', 'oldprice', 'merchant', 'stock_quantity', 'sizes', 'weight', 'delivery_types', 'discount_percent'].map(KEY);
export const [K_GENDER, K_TYPE, K_FEATURE, K_COLORS, K_COLOR, K_PICTURE, K_PROTO] = ['gender', 'type', 'feature', 'colors', 'color', 'picture', '__proto__'].map(KEY);

/** A string or null (else declined): its content span, or start -1. */
export function optionalText(): void {
  if (isNull()) {
    textStart = -1;
    return;
  }
  string();
}

export function optional(read: () => void): void {
  if (!isNull()) read();
}

/**
 * A rule's limits with every bound given (none: ±Infinity, 0), one shape for all: the reader
 * looks them up for most members of every item, and limits of many shapes made those look-ups
 * megamorphic.
 */
export type Bounds = { above: number; min: number; max: number; trim: boolean };

export function boundsOf(limits: Limits = {}): Bounds {
  return { above: limits.above ?? -Infinity, min: limits.min ?? -Infinity, max: limits.max ?? Infinity, trim: limits.trim ?? false };
}

/** A string within `bounds` (its length in bytes: a string has no more UTF-16 units than UTF-8 bytes; else its own). */
export function limitedText(bounds: Bounds): void {
  string();
  if (bounds.trim && !trimmed()) decline();
  const bytes = textEnd - textStart;
  if (bytes > bounds.max || bytes < bounds.min) decline();
  if (bounds.min > 1 && decode(textStart, textEnd).length < bounds.min) decline();
}

/** A finite number within `bounds` at `at` to `value`, else declined. */
export function limitedNumber(bounds: Bounds): void {
  finite();
  if (value <= bounds.above || value < bounds.min || value > bounds.max) decline();
}

export function limitedInt32(bounds: Bounds): void {
  int32();
  if (value <= bounds.above || value < bounds.min || value > bounds.max) decline();
}

/**
 * A number where the checks want a string (an id, a code): its string, the stored text edited to
 * hold it. A number JSON cannot carry exactly is declined (keepsItsDigits: the checks refuse it).
 */
export function numberAsText(): string {
  const start = at;
  finite();
  if (!keepsItsDigits(value)) decline();
  const made = String(value);
  edit(start, at, JSON.stringify(made));
  return made;
}

/** A string, or a number made one (numberAsText): true for a string, its content at [textStart, textEnd). */
export function stringOrNumber(): boolean {
  if (b[at] === QUOTE) {
    text();
    return true;
  }
  if (!isNumberStart(b[at])) decline();
  numberAsText();
  return false;
}

/** One string or an array of them, a string made a list of one; each string to `each`. */
export function oneOrMany(each?: () => void): void {
  if (b[at] !== QUOTE) return strings(each);
  edit(at, at, '[');
  text();
  each?.();
  edit(at, at, ']');
}

/**
 * A section checked alone (section-rules.ts): the value at `at` parsed, the stored text edited
 * to the check's output when it differs. Its output.
 */
export function section(check: (value: unknown) => unknown): unknown {
  const start = at;
  skip();
  const sent = JSON.parse(b.toString('utf8', start, at)) as unknown;
  const checked = check(sent);
  if (checked === FAIL) decline();
  if (checked !== sent) edit(start, at, JSON.stringify(checked));
  return checked;
}

/** Each member of the object at `at` (else declined) to `each` with its key's number; `__proto__` declined. */
export function object(each: (key: number) => void): void {
  if (b[at] !== OPEN_BRACE) decline();
  if (!open(CLOSE_BRACE)) return;
  do {
    const name = key();
    if (name === K_PROTO) decline();
    each(name);
  } while (more());
}

/** A nested object's known key seen twice: JSON.parse keeps the last, which is left to it. */
export function once(mask: number, bit: number): number {
  if ((mask & bit) !== 0) decline();
  return mask | bit;
}

// The object passed over by objectSpan: its bytes' hash, their bits ORed, and whether a string
// in it holds an escape.

export let spanHash = 0;
let spanBits = 0;
let spanEscaped = false;

/** The end of the object at `at`, its hash, bits and escapes to spanHash, spanBits and spanEscaped (a tab or line break: controlSpace). */
export function objectSpan(): number {
  let i = at;
  let depth = 0;
  let hash = 0x811c9dc5;
  let bits = 0;
  let escapedAny = false;
  for (;;) {
    const byte = b[i++];
    hash = Math.imul(hash ^ byte, 0x01000193);
    if (byte === QUOTE) {
      for (;;) {
        const inner = b[i++];
        hash = Math.imul(hash ^ inner, 0x01000193);
        bits |= inner;
        if (inner === QUOTE) break;
        if (inner === BACKSLASH) {
          escapedAny = true;
          // The escaped byte is the string's, not its end.
          const escapedByte = b[i++];
          hash = Math.imul(hash ^ escapedByte, 0x01000193);
        }
      }
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (--depth === 0) break;
    } else if (isControlSpace(byte)) controlSpace = true;
  }
  spanHash = hash;
  spanBits = bits;
  spanEscaped = escapedAny;
  return i;
}
