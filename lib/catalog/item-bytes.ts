import { isUtf8 } from 'node:buffer';
import { hasBackslash, isNumberStart, LOWER_F, LOWER_T, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '@/lib/http/json-bytes';
import { type BinaryRows, refusedByJsonb } from './copy-rows';
import type { TokenNumbers } from './facet-dictionary';
import { grown } from './hash-slots';
import { isoInstant } from './iso-dates';
import { ParamCache } from './param-cache';
import { discountPercent } from './product-schema';
import { ITEM_MEMBERS, type ItemMemberName, OFFER_LIMITS, type ReadKind } from './item-rules';
import { type Check, DELIVERY_TYPES_RULE } from './section-rules';
import {
  DECLINE,
  KEY_NAMES,
  K_COLOR,
  K_COLORS,
  K_DELIVERY,
  K_DISCOUNT,
  K_FEATURE,
  K_GENDER,
  K_LOCATION,
  K_MERCHANT,
  K_NAME,
  K_OLDPRICE,
  K_PICTURE,
  K_PRICE,
  K_PRIORITY,
  K_SEARCHABLE,
  K_SIZES,
  K_STOCK,
  K_TYPE,
  K_UNIT,
  K_VALUE,
  K_WEIGHT,
  at,
  b,
  bWords,
  controlSpace,
  decline,
  decode,
  edit,
  editCount,
  editEnds,
  editStarts,
  editTexts,
  escapes,
  finite,
  flag,
  int32,
  isNull,
  limitedInt32,
  limitedNumber,
  limitedText,
  list,
  numberAsText,
  numberKeys,
  object,
  objectSpan,
  once,
  oneOrMany,
  optional,
  optionalText,
  passObject,
  section,
  shared,
  skip,
  spanHash,
  startText,
  string,
  stringOrNumber,
  strings,
  text,
  textEnd,
  textStart,
  trimmed,
  value,
  values,
  wide,
  type Bounds,
  boundsOf,
} from './item-cursor';

// An item read from its bytes as sent, straight into its COPY fields and facet numbers: what
// JSON.parse, the plain checks (item-rules.ts), prepareItem and writeFields give together, without
// making the item's objects (bin/bench/measure-prepare.ts; docs/benchmarks-history.md has the
// figures per catalog shape). What it accepts is item-rules.ts' table: each member is read as its
// `read` kind says, within its rule's limits; a niche section and an offer's delivery_types are
// parsed alone and given to their rule's check. Its text is stored as `data` with the few edits
// that make it the checks' output where it is spelled otherwise (a number for an id or a
// category, a stock count for `available`, one merchant for a list, a niche section the checks
// change) and without the tabs and line breaks between tokens. Anything else (a value the checks
// refuse, a key spelled with an escape, a blank param name) it declines before writing a byte,
// and the caller parses the item (PreparedBatch.prepareSent), which also words why an item is
// refused. The lexing and the reader's place are item-cursor.ts'. item-bytes.test.ts holds it
// to that path's output on every benchmark shape's items and on generated items and texts.

// An item's members as item-rules.ts lists them: how each is read and what it accepts (its
// limits); the index is its place in `seen`.
const MEMBER_NAMES = Object.keys(ITEM_MEMBERS) as ItemMemberName[];
const MEMBER_INDEX = new Map<string, number>(MEMBER_NAMES.map((name, index) => [name, index]));
const MEMBER_READ: ReadKind[] = MEMBER_NAMES.map((name) => ITEM_MEMBERS[name].read);
const MEMBER_LIMITS: Bounds[] = MEMBER_NAMES.map((name) => boundsOf(ITEM_MEMBERS[name].rule.limits));
const MEMBER_CHECKS: Check[] = MEMBER_NAMES.map((name) => ITEM_MEMBERS[name].rule.check);
const MEMBER_REQUIRED = Uint8Array.from(MEMBER_NAMES, (name) => (ITEM_MEMBERS[name].required ? 1 : 0));
const REQUIRED = MEMBER_NAMES.filter((name) => ITEM_MEMBERS[name].required).map((name) => MEMBER_INDEX.get(name)!);
const M = (name: ItemMemberName): number => MEMBER_INDEX.get(name)!;
const [M_ID, M_GROUP, M_NAME, M_URL, M_PICTURE, M_PRICE, M_OLDPRICE, M_DISCOUNT, M_CURRENCY, M_BRAND, M_BRAND_PICTURE] = (
  ['id', 'group_id', 'name', 'url', 'picture', 'price', 'oldprice', 'discount_percent', 'currency', 'brand', 'brand_picture'] as const
).map(M);
const [M_STOCK, M_RATING, M_MARGIN, M_CREATED, M_MODEL, M_BOOK] = (['stock_quantity', 'rating', 'price_margin', 'creation_date', 'model', 'book'] as const).map(M);
const ID_LIMITS = MEMBER_LIMITS[M_ID];
const MONTH_LIMITS = MEMBER_LIMITS[M('seasonality')];
const OFFER_BOUNDS = Object.fromEntries(Object.entries(OFFER_LIMITS).map(([name, limits]) => [name, boundsOf(limits)])) as Record<keyof typeof OFFER_LIMITS, Bounds>;

// An item's member by key number, -1 for a key it passes over.
const MEMBER_OF_KEY = Int16Array.from(KEY_NAMES, (name) => MEMBER_INDEX.get(name) ?? -1);

// The item being read, by member (valid where seen[index] === serial): a text's content span
// (start -1 when null), a number's value (NaN when null), a date's instant. Lists are reused from
// item to item, with their counts (setting an array's length is slow).
const seen = new Int32Array(MEMBER_NAMES.length);
const spanStarts = new Int32Array(MEMBER_NAMES.length);
const spanEnds = new Int32Array(MEMBER_NAMES.length);
const numbers = new Float64Array(MEMBER_NAMES.length);
const instants: (string | null)[] = MEMBER_NAMES.map(() => null);
let serial = 0;
let id = '';
// The id's content span, or idStart -1 when it was sent as a number (id is then its string).
let idStart = 0;
let idEnd = 0;
let available = true;
let categories: string[] = [];
const categorySpans: number[] = [];
let categorySpanCount = 0;
// A group id sent as a number: its string (its span is then -1).
let groupMade: string | null = null;
// Whether a category was sent as a number (`categories` then holds what is stored).
let categoriesMade = false;
// The book section as checked, for the `book` column.
let book: unknown = null;
let hasMerchants = false;
const merchantSpans: number[] = [];
let merchantSpanCount = 0;
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
  available = true;
  categories = [];
  categorySpanCount = 0;
  groupMade = null;
  categoriesMade = false;
  book = null;
  hasMerchants = false;
  offerLocations = [];
  colorCount = sizeCount = paramCount = 0;
}

/** Member `index`'s content span start: -1 when absent or null. */
function spanOf(index: number): number {
  return seen[index] === serial ? spanStarts[index] : -1;
}

/** Member `index`'s number: NaN when absent or null. */
function numberOf(index: number): number {
  return seen[index] === serial ? numbers[index] : NaN;
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

/** Member `index`, read as item-rules.ts says (`read`, limits); null taken for any member not required. */
function member(index: number): void {
  if (MEMBER_REQUIRED[index] === 0 && isNull()) {
    spanStarts[index] = -1;
    numbers[index] = NaN;
    instants[index] = null;
    return;
  }
  const limits = MEMBER_LIMITS[index];
  switch (MEMBER_READ[index]) {
    case 'text':
      limitedText(limits);
      spanStarts[index] = textStart;
      spanEnds[index] = textEnd;
      return;
    case 'number':
      limitedNumber(limits);
      numbers[index] = value;
      return;
    case 'int':
      limitedInt32(limits);
      numbers[index] = value;
      return;
    case 'flag':
      return flag();
    case 'texts':
      return strings();
    case 'code':
      stringOrNumber();
      return;
    case 'date':
      instants[index] = date();
      return;
    case 'id':
      if (stringOrNumber()) {
        id = decode(textStart, textEnd);
        idStart = textStart;
        idEnd = textEnd;
      } else {
        id = String(value);
        idStart = -1;
      }
      if (id.length < ID_LIMITS.min || id.length > ID_LIMITS.max || id.trim() !== id) decline();
      return;
    case 'available':
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
    case 'group':
      if (stringOrNumber()) {
        spanStarts[index] = textStart;
        spanEnds[index] = textEnd;
      } else {
        spanStarts[index] = -1;
        groupMade = String(value);
      }
      return;
    case 'merchant':
      hasMerchants = true;
      merchantSpanCount = 0;
      return oneOrMany(merchant);
    case 'gift':
      if (b[at] === QUOTE) text();
      else flag();
      return;
    case 'params':
      return list(paramElement);
    case 'locations':
      return list(offer);
    case 'fashion':
      return fashion();
    case 'seasonality':
      return list(month);
    case 'niche': {
      const checked = section(MEMBER_CHECKS[index]);
      if (index === M_BOOK) book = checked;
      return;
    }
  }
}

function month(): void {
  limitedInt32(MONTH_LIMITS);
}

/** A date string (ISO 8601), else declined: the instant it names. */
function date(): string {
  string();
  const instant = isoInstant(decode(textStart, textEnd));
  if (instant === null) decline();
  return instant;
}

const paramCache = new ParamCache();
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
  const known = paramCache.find(b, bWords, start, end, hash);
  if (known >= 0) {
    passObject(end);
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
  return paramCache.add(b, start, end, hash, { name: paramName, priority: paramPriority, keys: paramKeys }, paramSearchable, editCount === edits);
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
    if (location.length < OFFER_BOUNDS.location.min || location.length > OFFER_BOUNDS.location.max || location.trim() !== location) decline();
    offerLocations[last] = location;
  } else if (name === K_PRICE) {
    offerMask = once(offerMask, 2);
    if (isNull()) return;
    limitedNumber(OFFER_BOUNDS.price);
    offerPrice[last] = value;
  } else if (name === K_OLDPRICE) {
    offerMask = once(offerMask, 4);
    if (isNull()) return;
    limitedNumber(OFFER_BOUNDS.oldprice);
    offerOldprice[last] = value;
  } else if (name === K_MERCHANT) {
    offerMask = once(offerMask, 8);
    optional(oneOrMany);
  } else if (name === K_STOCK) {
    offerMask = once(offerMask, 16);
    if (isNull()) return;
    limitedInt32(OFFER_BOUNDS.stock_quantity);
    offerStock[last] = value;
  } else if (name === K_SIZES) {
    offerMask = once(offerMask, 32);
    optional(strings);
  } else if (name === K_WEIGHT) {
    offerMask = once(offerMask, 64);
    if (!isNull()) limitedInt32(OFFER_BOUNDS.weight);
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
  startText(body, start);
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

/** Member `index`'s text, or null. */
function textOrNull(rows: BinaryRows, index: number): void {
  const start = spanOf(index);
  if (start < 0) rows.field('text', null);
  else writeText(rows, start, spanEnds[index]);
}

function numberOrNull(rows: BinaryRows, number: number): void {
  rows.field('float8', Number.isNaN(number) ? null : number);
}

/** FIELD_COLUMNS' fields, in order (prepareItem's values as writeFields writes them). */
function writeFields(rows: BinaryRows, start: number, end: number): void {
  if (idStart < 0) rows.field('text', id);
  else writeText(rows, idStart, idEnd);
  if (groupMade !== null) rows.field('text', groupMade);
  else textOrNull(rows, M_GROUP);
  textOrNull(rows, M_NAME);
  textOrNull(rows, M_URL);
  textOrNull(rows, M_PICTURE);
  const price = numbers[M_PRICE];
  const oldprice = numberOf(M_OLDPRICE);
  const discount = numberOf(M_DISCOUNT);
  rows.field('float8', price);
  numberOrNull(rows, oldprice);
  rows.field('float8', discountPercent(Number.isNaN(discount) ? null : discount, price, Number.isNaN(oldprice) ? null : oldprice));
  textOrNull(rows, M_CURRENCY);
  textOrNull(rows, M_BRAND);
  if (hasMerchants) writeTexts(rows, merchantSpans, merchantSpanCount);
  else rows.field('text[]', null);
  if (categoriesMade) rows.field('text[]', categories);
  else writeTexts(rows, categorySpans, categorySpanCount);
  const stock = numberOf(M_STOCK);
  rows.field('int4', Number.isNaN(stock) ? null : stock);
  numberOrNull(rows, numberOf(M_RATING));
  numberOrNull(rows, numberOf(M_MARGIN));
  rows.field('timestamptz', seen[M_CREATED] === serial ? instants[M_CREATED] : null);
  if (editCount === 0 && !controlSpace) rows.textBytes(b, start, end);
  else rows.jsonBytesEdited(b, start, end, editStarts, editEnds, editTexts, editCount, controlSpace);
  textOrNull(rows, M_MODEL);
  rows.field('json', book === null ? null : { json: book });
  rows.field('text', offerLocations.length === 0 ? null : offersText(price, oldprice));
}

/** The offers as prepareItem stores them: a location listed twice counts its last offer, in the place of its first. */
function offersText(price: number, oldprice: number): string {
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
  const brandStart = spanOf(M_BRAND);
  if (brandStart >= 0) {
    const brand = values.get(b, brandStart, spanEnds[M_BRAND]).trim();
    if (brand !== '') {
      tokens.simple('b', brand);
      const pictureStart = spanOf(M_BRAND_PICTURE);
      if (pictureStart >= 0 && spanEnds[M_BRAND_PICTURE] > pictureStart) tokens.simple('r', values.get(b, pictureStart, spanEnds[M_BRAND_PICTURE]));
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
