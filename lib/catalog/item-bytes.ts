import { isUtf8 } from 'node:buffer';
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COMMA,
  decodeString,
  hasBackslash,
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
import { type BinaryRows, refusedByJsonb } from './copy-rows';
import type { TokenNumbers } from './facet-dictionary';
import { grown } from './hash-slots';
import { isoInstant } from './iso-dates';
import { discountPercent } from './product-schema';
import { keepsItsDigits } from './schemas';
import { DELIVERY_TYPES_RULE, FAIL, SECTION_RULES, type SectionName } from './section-rules';

// An item read from its bytes as sent, straight into its COPY fields and facet numbers: what
// JSON.parse, the plain checks (item-rules.ts), prepareItem and writeFields give together, without
// making the item's objects (~12 µs an item against ~19, bin/bench/measure-prepare.ts). It takes what
// feeds send: its text is stored as `data` with the few edits that make it the checks' output
// where it is spelled otherwise (a number for an id or a category, a stock count for
// `available`, one merchant for a list, a niche section the checks change) and without the tabs
// and line breaks between tokens. A niche section (but fashion) and an offer's delivery_types
// are parsed alone and checked by section-rules.ts. Anything else (a value the checks refuse, a
// key spelled with an escape, a blank param name) it declines before writing a byte, and the
// caller parses the item (PreparedBatch.prepareSent), which also words why an item is refused.
// item-bytes.test.ts holds it to that path's output on every benchmark shape's items and on
// generated items and texts.

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Thrown to decline an item (never seen outside this file): no stack is made for it. */
const DECLINE = { declined: true };
function decline(): never {
  throw DECLINE;
}

/**
 * Strings by their bytes as sent, made once: a catalog repeats its category and location ids,
 * param names and values. Bounded; forgets all when full.
 */
class ByteStrings {
  private table = new Int32Array(1 << 15);
  private hashes: number[] = [];
  private starts: number[] = [];
  private lengths: number[] = [];
  private strings: string[] = [];
  private pool = Buffer.allocUnsafe(1 << 19);
  private used = 0;

  static readonly LONGEST = 96;

  constructor(private readonly make: (start: number, end: number) => string) {}

  get(bytes: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > ByteStrings.LONGEST) return this.make(start, end);
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
    const mask = this.table.length - 1;
    let slot = hash & mask;
    for (let entry = this.table[slot]; entry !== 0; entry = this.table[slot]) {
      const k = entry - 1;
      if (this.hashes[k] === hash && this.lengths[k] === length && this.same(bytes, start, this.starts[k], length)) return this.strings[k];
      slot = (slot + 1) & mask;
    }
    const text = this.make(start, end);
    if (this.strings.length >= this.table.length >> 1 || this.used + length > this.pool.length) {
      this.clear();
      slot = hash & mask;
    }
    bytes.copy(this.pool, this.used, start, end);
    this.table[slot] = this.strings.length + 1;
    this.hashes.push(hash);
    this.starts.push(this.used);
    this.lengths.push(length);
    this.strings.push(text);
    this.used += length;
    return text;
  }

  private same(bytes: Buffer, start: number, at: number, length: number): boolean {
    const pool = this.pool;
    for (let i = 0; i < length; i++) if (bytes[start + i] !== pool[at + i]) return false;
    return true;
  }

  private clear(): void {
    this.table.fill(0);
    this.hashes = [];
    this.starts = [];
    this.lengths = [];
    this.strings = [];
    this.used = 0;
  }
}

/** The keys the reader knows, found by their bytes: a number each, -1 for any other key. */
class KeyTable {
  private readonly slots = new Int16Array(1024).fill(-1);
  private readonly bytes: Buffer[];

  constructor(names: readonly string[]) {
    this.bytes = names.map((name) => Buffer.from(name));
    this.bytes.forEach((bytes, id) => {
      let slot = KeyTable.slotOf(bytes, 0, bytes.length);
      while (this.slots[slot] >= 0) slot = (slot + 1) & 1023;
      this.slots[slot] = id;
    });
  }

  private static slotOf(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start;
    return (length * 31 + bytes[start] * 7 + bytes[end - 1] * 13 + bytes[start + (length >> 1)]) & 1023;
  }

  find(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    if (length === 0 || length > 32) return -1;
    for (let slot = KeyTable.slotOf(bytes, start, end); ; slot = (slot + 1) & 1023) {
      const id = this.slots[slot];
      if (id < 0) return -1;
      const known = this.bytes[id];
      if (known.length !== length) continue;
      let i = 0;
      while (i < length && known[i] === bytes[start + i]) i++;
      if (i === length) return id;
    }
  }
}

// The reader's place: the body, the byte at, the last string's content [textStart, textEnd),
// the last number's value, and whether a string held a byte past ASCII.
let b: Buffer = Buffer.alloc(0);
// The same bytes, read four at a time (sameBytes).
let bWords = new DataView(b.buffer, b.byteOffset, b.length);
let at = 0;
let textStart = 0;
let textEnd = 0;
let value = 0;
let wide = 0;
// Whether the last string held an escape, and whether any string of the item did.
let escaped = false;
let escapes = false;

// Whether a tab or line break stands between the item's tokens (left out of what is stored).
let controlSpace = false;

// Edits to the text stored as `data`: [editStarts[k], editEnds[k]) becomes editTexts[k] (an
// insertion when they are equal), in the order read.
const editStarts: number[] = [];
const editEnds: number[] = [];
const editTexts: string[] = [];
let editCount = 0;

function edit(start: number, end: number, text: string): void {
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
function text(): void {
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
function decode(start: number, end: number): string {
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
function isNull(): boolean {
  if (b[at] !== LOWER_N) return false;
  at += 4;
  return true;
}

/** A Boolean at `at` to `value` (1 or 0), else declined. */
function flag(): void {
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
function finite(): void {
  if (!isNumberStart(b[at])) decline();
  number();
  if (!Number.isFinite(value)) decline();
}

function int32(): void {
  finite();
  if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX) decline();
}

/** Any value, passed over (strings still checked for escapes, space for tabs and breaks). */
function skip(): void {
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
function string(): void {
  if (b[at] !== QUOTE) decline();
  text();
}

/** An array (else declined), each element read by `each`. */
function list(each: () => void): void {
  if (b[at] !== OPEN_BRACKET) decline();
  if (!open(CLOSE_BRACKET)) return;
  do each();
  while (more());
}

/** An array of strings (else declined), each passed to `each` with its content at [textStart, textEnd). */
function strings(each?: () => void): void {
  if (b[at] !== OPEN_BRACKET) decline();
  if (!open(CLOSE_BRACKET)) return;
  do {
    string();
    each?.();
  } while (more());
}

/** The content [textStart, textEnd) as a string, from the shared strings. */
function shared(): string {
  return values.get(b, textStart, textEnd);
}

/** The last string is not empty and String.prototype.trim would not change it. */
function trimmed(): boolean {
  if (textEnd === textStart) return false;
  const first = b[textStart];
  const last = b[textEnd - 1];
  if (!escaped && first < 0x80 && last < 0x80) return first > SPACE && last > SPACE;
  // An escape or a character past ASCII at an end (trim removes some, U+00A0 and U+3000 among
  // them): the string's own answer.
  const decoded = decode(textStart, textEnd);
  return decoded.trim() === decoded;
}

const values = new ByteStrings(decode);
// A param value or size sent as a number: its key (valueKeyOf).
const numberKeys = new ByteStrings((start) => {
  const saved = at;
  at = start;
  number();
  at = saved;
  return String(value);
});

// What each member of an item does; the index is its place in `seen`.
const MEMBERS = [
  ['id', 'id'],
  ['available', 'available'],
  ['categories', 'categories'],
  ['picture', 'picture'],
  ['name', 'name'],
  ['price', 'price'],
  ['url', 'url'],
  ['oldprice', 'oldprice'],
  ['currency', 'currency'],
  ['params', 'params'],
  ['group_id', 'group_id'],
  ['brand', 'brand'],
  ['brand_picture', 'brand_picture'],
  ['model', 'model'],
  ['merchant', 'merchant'],
  ['stock_quantity', 'stock_quantity'],
  ['discount_percent', 'discount_percent'],
  ['rating', 'rating'],
  ['price_margin', 'price_margin'],
  ['creation_date', 'creation_date'],
  ['locations', 'locations'],
  ['fashion', 'fashion'],
  ['date', 'date'],
  ['seasonality', 'seasonality'],
  ['gift', 'gift'],
  ['installment', 'int'],
  ['price_with_promocode', 'number'],
  ...['type_prefix', 'description', 'promocode', 'deeplink_android', 'deeplink_ios', 'leftovers'].map((name) => [name, 'text']),
  ...['vendor_code', 'barcode'].map((name) => [name, 'code']),
  ...['bonuses_accrual_allowed', 'bonuses_spending_allowed', 'discounts_allowed', 'is_new', 'is_child', 'is_fashion', 'ignored'].map((name) => [name, 'flag']),
  ...['tags', 'accessories', 'customer_recommendations'].map((name) => [name, 'texts']),
  ...(Object.keys(SECTION_RULES) as SectionName[]).map((name) => [name, 'niche'] as const),
] as const;
type Kind = (typeof MEMBERS)[number][1];
const MEMBER_INDEX = new Map<string, number>(MEMBERS.map(([name], index) => [name, index]));

// Every key the reader acts on: an item's, a param's, an offer's, fashion's and a colour's.
const KEY_NAMES = [
  ...new Set([
    ...MEMBERS.map(([name]) => name),
    ...['name', 'value', 'unit', 'priority', 'searchable'],
    ...['location', 'price', 'oldprice', 'merchant', 'stock_quantity', 'sizes', 'weight', 'delivery_types', 'discount_percent'],
    ...['gender', 'type', 'feature', 'sizes', 'colors', 'color', 'picture'],
    '__proto__',
  ]),
];
const keys = new KeyTable(KEY_NAMES);
const KEY = (name: string): number => KEY_NAMES.indexOf(name);
const [K_NAME, K_VALUE, K_UNIT, K_PRIORITY, K_SEARCHABLE] = ['name', 'value', 'unit', 'priority', 'searchable'].map(KEY);
const [K_LOCATION, K_PRICE, K_OLDPRICE, K_MERCHANT, K_STOCK, K_SIZES, K_WEIGHT, K_DELIVERY, K_DISCOUNT] = ['location', 'price', 'oldprice', 'merchant', 'stock_quantity', 'sizes', 'weight', 'delivery_types', 'discount_percent'].map(KEY);
const [K_GENDER, K_TYPE, K_FEATURE, K_COLORS, K_COLOR, K_PICTURE, K_PROTO] = ['gender', 'type', 'feature', 'colors', 'color', 'picture', '__proto__'].map(KEY);
// An item's member by key number, -1 for a key it passes over.
const MEMBER_OF_KEY = Int16Array.from(KEY_NAMES, (name) => MEMBER_INDEX.get(name) ?? -1);
const MEMBER_KIND: Kind[] = MEMBERS.map(([, kind]) => kind);
const REQUIRED = ['id', 'categories', 'picture', 'name', 'price', 'url'].map((name) => MEMBER_INDEX.get(name)!);

// The item being read. Spans are content [start, end), start -1 when absent or null; numbers NaN.
// Lists are reused from item to item, with their counts (setting an array's length is slow).
const seen = new Int32Array(MEMBERS.length);
let serial = 0;
let id = '';
// The id's content span, or idStart -1 when it was sent as a number (id is then its string).
let idStart = 0;
let idEnd = 0;
let available = true;
let categories: string[] = [];
const categorySpans: number[] = [];
let categorySpanCount = 0;
let nameStart = 0;
let nameEnd = 0;
let urlStart = 0;
let urlEnd = 0;
let pictureStart = 0;
let pictureEnd = 0;
let groupStart = -1;
let groupEnd = 0;
// A group id sent as a number: its string (groupStart is then -1).
let groupMade: string | null = null;
// Whether a category was sent as a number (`categories` then holds what is stored).
let categoriesMade = false;
// The book section as checked, for the `book` column.
let book: unknown = null;
let currencyStart = -1;
let currencyEnd = 0;
let brandStart = -1;
let brandEnd = 0;
let brandPictureStart = -1;
let brandPictureEnd = 0;
let modelStart = -1;
let modelEnd = 0;
let hasMerchants = false;
const merchantSpans: number[] = [];
let merchantSpanCount = 0;
let price = 0;
let oldprice = NaN;
let discount = NaN;
let stock = NaN;
let rating = NaN;
let margin = NaN;
let created: string | null = null;
// Offers: their locations (every one, in order) and values.
let offerLocations: string[] = [];
const offerPrice: number[] = [];
const offerOldprice: number[] = [];
const offerDiscount: number[] = [];
const offerStock: number[] = [];
// Facet sources: colours, sizes, and the params that make tokens.
const colors: string[] = [];
let colorCount = 0;
const sizes: string[] = [];
let sizeCount = 0;
// The item's params that make tokens, by their numbers in paramCache.
let itemParams = new Int32Array(64);
let paramCount = 0;

function startItem(): void {
  serial++;
  paramCache.clearIfFull();
  wide = 0;
  escapes = false;
  available = true;
  categories = [];
  categorySpanCount = 0;
  groupStart = currencyStart = brandStart = brandPictureStart = modelStart = -1;
  groupMade = null;
  categoriesMade = false;
  book = null;
  controlSpace = false;
  editCount = 0;
  hasMerchants = false;
  oldprice = discount = stock = rating = margin = NaN;
  created = null;
  offerLocations = [];
  colorCount = sizeCount = paramCount = 0;
}

/** A string or null (else declined): its content span, or start -1. */
function optionalText(): void {
  if (isNull()) {
    textStart = -1;
    return;
  }
  string();
}

function optional(read: () => void): void {
  if (!isNull()) read();
}

function positive(): void {
  finite();
  if (!(value > 0)) decline();
}

/**
 * A number where the checks want a string (an id, a code): its string, the stored text edited to
 * hold it. A number JSON cannot carry exactly is declined (keepsItsDigits: the checks refuse it).
 */
function numberAsText(): string {
  const start = at;
  finite();
  if (!keepsItsDigits(value)) decline();
  const made = String(value);
  edit(start, at, JSON.stringify(made));
  return made;
}

/** A string, or a number made one (numberAsText): true for a string, its content at [textStart, textEnd). */
function stringOrNumber(): boolean {
  if (b[at] === QUOTE) {
    text();
    return true;
  }
  if (!isNumberStart(b[at])) decline();
  numberAsText();
  return false;
}

/** One string or an array of them, a string made a list of one; each string to `each`. */
function oneOrMany(each?: () => void): void {
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
function section(check: (value: unknown) => unknown): unknown {
  const start = at;
  skip();
  const sent = JSON.parse(b.toString('utf8', start, at)) as unknown;
  const checked = check(sent);
  if (checked === FAIL) decline();
  if (checked !== sent) edit(start, at, JSON.stringify(checked));
  return checked;
}

function category(): void {
  if (b[at] !== QUOTE) {
    // An id sent as a number (CONTRACT §3): its string.
    if (!isNumberStart(b[at])) decline();
    categories.push(numberAsText());
    categoriesMade = true;
    return;
  }
  text();
  // A blank entry is refused, a spaced one trimmed: the checks' to do.
  if (!trimmed()) decline();
  const name = shared();
  categories.push(name);
  categorySpans[categorySpanCount++] = textStart;
  categorySpans[categorySpanCount++] = textEnd;
}

function merchant(): void {
  merchantSpans[merchantSpanCount++] = textStart;
  merchantSpans[merchantSpanCount++] = textEnd;
}

function member(index: number): void {
  switch (MEMBER_KIND[index]) {
    case 'id':
      if (stringOrNumber()) {
        id = decode(textStart, textEnd);
        idStart = textStart;
        idEnd = textEnd;
      } else {
        id = String(value);
        idStart = -1;
      }
      if (id.length < 1 || id.length > 64 || id.trim() !== id) decline();
      return;
    case 'available':
      if (isNull()) return;
      if (isNumberStart(b[at])) {
        // A stock count (CONTRACT §3): in stock when above 0.
        const start = at;
        finite();
        available = value > 0;
        edit(start, at, available ? 'true' : 'false');
      } else {
        flag();
        available = value === 1;
      }
      return;
    case 'categories':
      return list(category);
    case 'picture':
      string();
      // At most 500 UTF-16 units: a string has no more units than UTF-8 bytes.
      if (textEnd === textStart || textEnd - textStart > 500) decline();
      pictureStart = textStart;
      pictureEnd = textEnd;
      return;
    case 'name':
      string();
      if (!trimmed() || textEnd - textStart > 255) decline();
      nameStart = textStart;
      nameEnd = textEnd;
      return;
    case 'url':
      string();
      if (!trimmed()) decline();
      urlStart = textStart;
      urlEnd = textEnd;
      return;
    case 'price':
      positive();
      price = value;
      return;
    case 'oldprice':
      if (isNull()) return;
      finite();
      if (!(value >= 0)) decline();
      oldprice = value;
      return;
    case 'currency':
      optionalText();
      currencyStart = textStart;
      currencyEnd = textEnd;
      return;
    case 'group_id':
      if (isNull()) return;
      if (stringOrNumber()) {
        groupStart = textStart;
        groupEnd = textEnd;
      } else groupMade = String(value);
      return;
    case 'brand':
      optionalText();
      brandStart = textStart;
      brandEnd = textEnd;
      return;
    case 'brand_picture':
      optionalText();
      brandPictureStart = textStart;
      brandPictureEnd = textEnd;
      return;
    case 'model':
      optionalText();
      modelStart = textStart;
      modelEnd = textEnd;
      return;
    case 'merchant':
      if (isNull()) return;
      hasMerchants = true;
      merchantSpanCount = 0;
      return oneOrMany(merchant);
    case 'stock_quantity':
      if (isNull()) return;
      int32();
      stock = value;
      return;
    case 'discount_percent':
      if (isNull()) return;
      finite();
      discount = value;
      return;
    case 'rating':
      if (isNull()) return;
      finite();
      if (value < 1 || value > 5) decline();
      rating = value;
      return;
    case 'price_margin':
      if (isNull()) return;
      finite();
      if (value < 0 || value > 100) decline();
      margin = value;
      return;
    case 'creation_date':
      if (!isNull()) created = date();
      return;
    case 'date':
      if (!isNull()) date();
      return;
    case 'params':
      return optional(params);
    case 'locations':
      return optional(offers);
    case 'fashion':
      return optional(fashion);
    case 'seasonality':
      return optional(seasonality);
    case 'gift':
      if (isNull()) return;
      if (b[at] === QUOTE) text();
      else flag();
      return;
    case 'int':
      return optional(int32);
    case 'number':
      return optional(finite);
    case 'text':
      return optionalText();
    case 'code':
      if (!isNull()) stringOrNumber();
      return;
    case 'flag':
      return optional(flag);
    case 'texts':
      return optional(strings);
    case 'niche': {
      if (isNull()) return;
      const name = MEMBERS[index][0] as SectionName;
      const checked = section(SECTION_RULES[name].check);
      if (name === 'book') book = checked;
      return;
    }
  }
}

function seasonality(): void {
  list(month);
}

function month(): void {
  int32();
  if (value < 1 || value > 12) decline();
}

/** A date string (ISO 8601), else declined: the instant it names. */
function date(): string {
  string();
  const instant = isoInstant(decode(textStart, textEnd));
  if (instant === null) decline();
  return instant;
}

/** Each member of the object at `at` (else declined) to `each` with its key's number; `__proto__` declined. */
function object(each: (key: number) => void): void {
  if (b[at] !== OPEN_BRACE) decline();
  if (!open(CLOSE_BRACE)) return;
  do {
    const name = key();
    if (name === K_PROTO) decline();
    each(name);
  } while (more());
}

/** A nested object's known key seen twice: JSON.parse keeps the last, which is left to it. */
function once(mask: number, bit: number): number {
  if ((mask & bit) !== 0) decline();
  return mask | bit;
}

// Params: name and value required; their tokens (visitFacetTokens) unless searchable is false.
// A catalog repeats its params byte for byte (a colour, a size), and a param's checks and tokens
// depend on its bytes alone: each param read is kept by its bytes, and the same bytes again are
// not read twice (reading a param took ~0.3 µs, a look-up of its bytes ~0.1).

/** A param as read: what its tokens are made of. */
type ParamRecord = { name: string; priority: number | ''; keys: string[] };

/** Whether body[start, start + length) holds the bytes of `pool` at `from`: four at a time. */
function sameBytes(pool: DataView, from: number, start: number, length: number): boolean {
  if (length < 4) {
    for (let i = 0; i < length; i++) if (pool.getUint8(from + i) !== b[start + i]) return false;
    return true;
  }
  const last = length - 4;
  for (let i = 0; i < last; i += 4) if (pool.getInt32(from + i) !== bWords.getInt32(start + i)) return false;
  return pool.getInt32(from + last) === bWords.getInt32(start + last);
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
class ParamCache {
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
  find(start: number, end: number, hash: number): number {
    const length = end - start;
    const table = this.table;
    const mask = (table.length >> 1) - 1;
    for (let slot = hash & mask; table[2 * slot + 1] !== 0; slot = (slot + 1) & mask) {
      if (table[2 * slot] !== hash) continue;
      const k = table[2 * slot + 1] - 1;
      if (this.spans[2 * k + 1] === length && sameBytes(this.poolWords, this.spans[2 * k], start, length)) return k;
    }
    return -1;
  }

  /** Keeps the param whose bytes are [start, end): its number. */
  add(start: number, end: number, hash: number, record: ParamRecord, searchable: boolean, findable: boolean): number {
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
    b.copy(this.pool, this.used, start, end);
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

const paramCache = new ParamCache();

// The object passed over by objectSpan: its bytes' hash, their bits ORed, and whether a string
// in it holds an escape.
let spanHash = 0;
let spanBits = 0;
let spanEscaped = false;

/** The end of the object at `at`, its hash, bits and escapes to spanHash, spanBits and spanEscaped (a tab or line break: controlSpace). */
function objectSpan(): number {
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

let paramMask = 0;
let paramName = '';
let paramPriority: number | '' = '';
let paramSearchable = true;
let paramKeys: string[] = [];

function paramValue(): void {
  const byte = b[at];
  if (byte === QUOTE) {
    text();
    paramKeys.push(shared());
  } else if (byte === LOWER_T || byte === LOWER_F) {
    flag();
    paramKeys.push(value === 1 ? 'true' : 'false');
  } else {
    const start = at;
    finite();
    paramKeys.push(numberKeys.get(b, start, at));
  }
}

function paramMember(name: number): void {
  if (name === K_NAME) {
    paramMask = once(paramMask, 1);
    string();
    paramName = shared();
    // A trimmed or dropped name changes the item from what was sent.
    if (paramName === '' || paramName.trim() !== paramName) decline();
  } else if (name === K_VALUE) {
    paramMask = once(paramMask, 2);
    if (b[at] === OPEN_BRACKET) list(paramValue);
    else {
      // One value alone: a list of it.
      edit(at, at, '[');
      paramValue();
      edit(at, at, ']');
    }
  } else if (name === K_UNIT) {
    paramMask = once(paramMask, 4);
    optionalText();
  } else if (name === K_PRIORITY) {
    paramMask = once(paramMask, 8);
    if (isNull()) paramPriority = '';
    else {
      int32();
      paramPriority = value;
    }
  } else if (name === K_SEARCHABLE) {
    paramMask = once(paramMask, 16);
    if (isNull()) paramSearchable = true;
    else {
      flag();
      paramSearchable = value === 1;
    }
  } else skip();
}

/** The param object at `at`, read (and kept) or found by its bytes: its number in paramCache. */
function param(): number {
  if (b[at] !== OPEN_BRACE) decline();
  const start = at;
  const end = objectSpan();
  const hash = spanHash;
  const known = paramCache.find(start, end, hash);
  if (known >= 0) {
    wide |= spanBits;
    // Its escapes are the item's as much as if read (readItem then checks what jsonb refuses).
    if (spanEscaped) escapes = true;
    at = end;
    return known;
  }
  paramMask = 0;
  paramPriority = '';
  paramSearchable = true;
  paramKeys = [];
  const edits = editCount;
  object(paramMember);
  if ((paramMask & 3) !== 3) decline();
  // A param whose text was edited is read again when sent again: finding it would skip its edits.
  return paramCache.add(start, end, hash, { name: paramName, priority: paramPriority, keys: paramKeys }, paramSearchable, editCount === edits);
}

function params(): void {
  list(paramElement);
}

function paramElement(): void {
  const k = param();
  if (paramCache.searchable[k] === 1) {
    if (paramCount === itemParams.length) itemParams = grown(itemParams);
    itemParams[paramCount++] = k;
  }
}

// Offers: location required.
let offerMask = 0;

function offerMember(name: number): void {
  const last = offerLocations.length - 1;
  if (name === K_LOCATION) {
    offerMask = once(offerMask, 1);
    string();
    const location = shared();
    if (location.length < 1 || location.length > 255 || location.trim() !== location) decline();
    offerLocations[last] = location;
  } else if (name === K_PRICE) {
    offerMask = once(offerMask, 2);
    if (isNull()) return;
    positive();
    offerPrice[last] = value;
  } else if (name === K_OLDPRICE) {
    offerMask = once(offerMask, 4);
    if (isNull()) return;
    positive();
    offerOldprice[last] = value;
  } else if (name === K_MERCHANT) {
    offerMask = once(offerMask, 8);
    optional(oneOrMany);
  } else if (name === K_STOCK) {
    offerMask = once(offerMask, 16);
    if (isNull()) return;
    int32();
    if (value < 0) decline();
    offerStock[last] = value;
  } else if (name === K_SIZES) {
    offerMask = once(offerMask, 32);
    optional(strings);
  } else if (name === K_WEIGHT) {
    offerMask = once(offerMask, 64);
    if (isNull()) return;
    int32();
    if (value < 0) decline();
  } else if (name === K_DELIVERY) {
    offerMask = once(offerMask, 128);
    if (!isNull()) section(DELIVERY_TYPES_RULE.check);
  } else if (name === K_DISCOUNT) {
    offerMask = once(offerMask, 256);
    if (isNull()) return;
    finite();
    offerDiscount[last] = value;
  } else skip();
}

function offers(): void {
  list(offer);
}

function offer(): void {
  offerMask = 0;
  const index = offerLocations.length;
  offerLocations.push('');
  offerPrice[index] = offerOldprice[index] = offerDiscount[index] = offerStock[index] = NaN;
  object(offerMember);
  if ((offerMask & 1) === 0) decline();
}

let fashionMask = 0;
let colorMask = 0;
let color = '';

function colorMember(name: number): void {
  if (name === K_COLOR) {
    colorMask = once(colorMask, 1);
    string();
    color = shared();
  } else if (name === K_PICTURE) {
    colorMask = once(colorMask, 2);
    optionalText();
  } else skip();
}

function size(): void {
  if (b[at] === QUOTE) {
    text();
    sizes[sizeCount++] = shared();
  } else {
    const start = at;
    finite();
    sizes[sizeCount++] = numberKeys.get(b, start, at);
  }
}

function fashionColor(): void {
  if (b[at] === QUOTE) {
    // A colour given by its name alone: one without a picture.
    const start = at;
    text();
    colors[colorCount++] = shared();
    edit(start, start, '{"color":');
    edit(at, at, '}');
    return;
  }
  colorMask = 0;
  object(colorMember);
  if ((colorMask & 1) === 0) decline();
  colors[colorCount++] = color;
}

function fashionMember(name: number): void {
  if (name === K_GENDER || name === K_TYPE || name === K_FEATURE) {
    fashionMask = once(fashionMask, name === K_GENDER ? 1 : name === K_TYPE ? 2 : 4);
    optionalText();
  } else if (name === K_SIZES) {
    fashionMask = once(fashionMask, 8);
    optional(() => list(size));
  } else if (name === K_COLORS) {
    fashionMask = once(fashionMask, 16);
    optional(() => list(fashionColor));
  } else skip();
}

function fashion(): void {
  fashionMask = 0;
  object(fashionMember);
}

function topMember(name: number): void {
  const index = name < 0 ? -1 : MEMBER_OF_KEY[name];
  if (index < 0) return skip();
  if (seen[index] === serial) decline();
  seen[index] = serial;
  member(index);
}

/** What the applier reads of an item read here (BatchEntry's, without where its fields are). */
export type ReadItem = { id: string; available: boolean; categories: string[]; offerLocations: string[]; facets: number[] | null };

/**
 * The item whose JSON text is body[start, end) (an element of a body scanJson accepted): its
 * FIELD_COLUMNS fields written to `rows` and its tokens numbered by `tokens`, as validateAndPrepare,
 * writeFields and encodeList would; or undefined, with nothing written, when it is left to them.
 */
export function readItem(body: Buffer, start: number, end: number, rows: BinaryRows, tokens: TokenNumbers): ReadItem | undefined {
  if (body !== b) {
    b = body;
    bWords = new DataView(body.buffer, body.byteOffset, body.length);
  }
  at = start;
  startItem();
  try {
    object(topMember);
    if (at !== end) decline();
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
  for (const index of REQUIRED) if (seen[index] !== serial) return undefined;
  // A byte past ASCII: the text must be UTF-8 to be stored as it is (JSON.parse would read U+FFFD).
  if ((wide & 0x80) !== 0 && !isUtf8(body.subarray(start, end))) return undefined;
  // Text with an escape is stored as sent unless jsonb would refuse it (copy-rows.ts's jsonText),
  // in which case the parsing path spells it again: theirs.
  if (escapes && refusedByJsonb(body.toString('latin1', start, end))) return undefined;
  writeFields(rows, start, end);
  return { id, available, categories, offerLocations, facets: numberTokens(tokens) };
}

/** A text field: the bytes as sent, or the string they spell when the item has escapes and this one holds one. */
function writeText(rows: BinaryRows, start: number, end: number): void {
  if (escapes && hasEscape(start, end)) rows.field('text', decode(start, end));
  else rows.textBytes(b, start, end);
}

function hasEscape(start: number, end: number): boolean {
  return hasBackslash(b, start, end);
}

/** A text[] field of the strings at the first `count` numbers of `spans` ([start, end) pairs). */
function writeTexts(rows: BinaryRows, spans: readonly number[], count: number): void {
  let plain = true;
  for (let i = 0; escapes && plain && i < count; i += 2) plain = !hasEscape(spans[i], spans[i + 1]);
  if (plain) return rows.textBytesArray(b, spans, count);
  const strings: string[] = [];
  for (let i = 0; i < count; i += 2) strings.push(decode(spans[i], spans[i + 1]));
  rows.field('text[]', strings);
}

function textOrNull(rows: BinaryRows, start: number, end: number): void {
  if (start < 0) rows.field('text', null);
  else writeText(rows, start, end);
}

function numberOrNull(rows: BinaryRows, number: number): void {
  rows.field('float8', Number.isNaN(number) ? null : number);
}

/** FIELD_COLUMNS' fields, in order (prepareItem's values as writeFields writes them). */
function writeFields(rows: BinaryRows, start: number, end: number): void {
  if (idStart < 0) rows.field('text', id);
  else writeText(rows, idStart, idEnd);
  if (groupMade !== null) rows.field('text', groupMade);
  else textOrNull(rows, groupStart, groupEnd);
  writeText(rows, nameStart, nameEnd);
  writeText(rows, urlStart, urlEnd);
  writeText(rows, pictureStart, pictureEnd);
  rows.field('float8', price);
  numberOrNull(rows, oldprice);
  rows.field('float8', discountPercent(Number.isNaN(discount) ? null : discount, price, Number.isNaN(oldprice) ? null : oldprice));
  textOrNull(rows, currencyStart, currencyEnd);
  textOrNull(rows, brandStart, brandEnd);
  if (hasMerchants) writeTexts(rows, merchantSpans, merchantSpanCount);
  else rows.field('text[]', null);
  if (categoriesMade) rows.field('text[]', categories);
  else writeTexts(rows, categorySpans, categorySpanCount);
  rows.field('int4', Number.isNaN(stock) ? null : stock);
  numberOrNull(rows, rating);
  numberOrNull(rows, margin);
  rows.field('timestamptz', created);
  if (editCount === 0 && !controlSpace) rows.textBytes(b, start, end);
  else rows.jsonBytesEdited(b, start, end, editStarts, editEnds, editTexts, editCount, controlSpace);
  textOrNull(rows, modelStart, modelEnd);
  rows.field('json', book === null ? null : { json: book });
  rows.field('text', offerLocations.length === 0 ? null : offersText());
}

/** The offers as prepareItem stores them: a location listed twice counts its last offer, in the place of its first. */
function offersText(): string {
  const count = offerLocations.length;
  let lastOf: Map<string, number> | undefined;
  if (count > 16) {
    lastOf = new Map();
    for (let i = 0; i < count; i++) lastOf.set(offerLocations[i], i);
  }
  let json = '';
  for (let i = 0; i < count; i++) {
    const location = offerLocations[i];
    let last = i;
    if (lastOf) {
      last = lastOf.get(location)!;
      if (last < 0) continue;
      lastOf.set(location, -1);
    } else {
      let earlier = false;
      for (let j = 0; j < i && !earlier; j++) earlier = offerLocations[j] === location;
      if (earlier) continue;
      for (let j = i + 1; j < count; j++) if (offerLocations[j] === location) last = j;
    }
    // CONTRACT §3: an offer inherits whichever of price and oldprice it lacks from the item.
    const amount = Number.isNaN(offerPrice[last]) ? price : offerPrice[last];
    const old = !Number.isNaN(offerOldprice[last]) ? offerOldprice[last] : Number.isNaN(oldprice) ? null : oldprice;
    const percent = discountPercent(Number.isNaN(offerDiscount[last]) ? null : offerDiscount[last], amount, old);
    const inStock = Number.isNaN(offerStock[last]) ? null : offerStock[last];
    json += `${json === '' ? '[' : ','}[${JSON.stringify(location)},${amount},${old},${percent},${inStock}]`;
  }
  return json + ']';
}

/** The item's facet tokens numbered, in visitFacetTokens' order. */
function numberTokens(tokens: TokenNumbers): number[] | null {
  tokens.startList();
  for (const category of categories) tokens.simple('c', category);
  if (brandStart >= 0) {
    const brand = values.get(b, brandStart, brandEnd).trim();
    if (brand !== '') {
      tokens.simple('b', brand);
      if (brandPictureStart >= 0 && brandPictureEnd > brandPictureStart) tokens.simple('r', values.get(b, brandPictureStart, brandPictureEnd));
    }
  }
  for (let i = 0; i < colorCount; i++) {
    const trimmedColor = colors[i].trim();
    if (trimmedColor !== '') tokens.simple('o', trimmedColor);
  }
  for (let i = 0; i < sizeCount; i++) {
    const trimmedSize = sizes[i].trim();
    if (trimmedSize !== '') tokens.simple('s', trimmedSize);
  }
  for (let p = 0; p < paramCount; p++) {
    const k = itemParams[p];
    paramCache.numberBy(k, tokens);
    const numbers = paramCache.numbers;
    for (let n = paramCache.numbersFrom[k], to = paramCache.numbersTo[k]; n < to; n++) tokens.put(numbers[n]);
  }
  return tokens.finishList();
}
