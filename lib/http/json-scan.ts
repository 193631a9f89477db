// Checks a JSON text byte by byte without building its values, and says where the top-level
// object's members and their array elements sit. An import body of 5,000 items (6.5 MB) is
// checked in ~13 ms, where decoding and JSON.parse take ~45 ms and leave ~100,000 objects for
// the collector; the applier then parses only the items it must.
//
// It accepts exactly what JSON.parse accepts of the same bytes decoded as UTF-8: a byte that is
// not valid UTF-8 decodes to U+FFFD, which is allowed inside strings and nowhere else, and so is
// every byte of 0x80 and above here.

import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, DOT, isDigit, isSpace, LOWER_E, MINUS, NINE, OPEN_BRACE, OPEN_BRACKET, PLAIN, PLUS, QUOTE, UPPER_E, ZERO } from './json-bytes';

/**
 * A member's value: [start, end) in bytes; for an array, its elements as start/end pairs, and
 * where the keys asked for sit in them (see scanJson).
 */
export type ScannedMember = { start: number; end: number; elements?: Int32Array; elementMembers?: Int32Array };
/** The members of the top-level object by key (the last of a repeated key, as in JSON.parse). */
export type ScannedObject = Map<string, ScannedMember>;

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at byte ${position}`);
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function isHex(byte: number): boolean {
  return (byte >= ZERO && byte <= NINE) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46);
}

function describe(bytes: Uint8Array, i: number): string {
  if (i >= bytes.length) return 'Unexpected end of JSON';
  const byte = bytes[i];
  return byte >= 0x21 && byte < 0x7f ? `Unexpected character '${String.fromCharCode(byte)}'` : `Unexpected byte 0x${byte.toString(16).padStart(2, '0')}`;
}

function fail(bytes: Uint8Array, i: number): never {
  throw new JsonSyntaxError(describe(bytes, i), i);
}

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

// Whether the last string scanned held an escape (a key then needs decoding to be compared).
let escaped = false;

/** Index just past the string whose opening quote is at `i`. */
function scanString(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  let j = i + 1;
  escaped = false;
  while (j < n) {
    while (j < n && PLAIN[bytes[j]] === 1) j++;
    const byte = bytes[j];
    if (byte === QUOTE) return j + 1;
    if (byte === BACKSLASH) {
      escaped = true;
      const next = bytes[j + 1];
      if (next === 0x75) {
        if (!(isHex(bytes[j + 2]) && isHex(bytes[j + 3]) && isHex(bytes[j + 4]) && isHex(bytes[j + 5]))) {
          throw new JsonSyntaxError('Bad \\u escape in string', j);
        }
        j += 6;
      } else if (next === QUOTE || next === BACKSLASH || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74) {
        j += 2;
      } else {
        if (j + 1 >= n) break;
        throw new JsonSyntaxError('Bad escape in string', j);
      }
    } else {
      if (j >= n) break;
      throw new JsonSyntaxError(`Bad control character 0x${byte.toString(16).padStart(2, '0')} in string`, j);
    }
  }
  throw new JsonSyntaxError('Unterminated string', i);
}

function scanDigits(bytes: Uint8Array, i: number): number {
  const start = i;
  while (i < bytes.length && bytes[i] >= ZERO && bytes[i] <= NINE) i++;
  if (i === start) fail(bytes, i);
  return i;
}

/** Index just past the number starting at `i`: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
function scanNumber(bytes: Uint8Array, i: number): number {
  if (bytes[i] === MINUS) i++;
  if (bytes[i] === ZERO) i++;
  else i = scanDigits(bytes, i);
  if (bytes[i] === DOT) i = scanDigits(bytes, i + 1);
  if (bytes[i] === LOWER_E || bytes[i] === UPPER_E) {
    i++;
    if (bytes[i] === PLUS || bytes[i] === MINUS) i++;
    i = scanDigits(bytes, i);
  }
  return i;
}

const LITERALS: Record<number, Uint8Array> = {
  0x74: encoder.encode('true'),
  0x66: encoder.encode('false'),
  0x6e: encoder.encode('null'),
};

/** Index just past a value that is not an object or array, starting at `i`. */
function scanScalar(bytes: Uint8Array, i: number): number {
  const byte = bytes[i];
  if (byte === QUOTE) return scanString(bytes, i);
  if (byte === MINUS || (byte >= ZERO && byte <= NINE)) return scanNumber(bytes, i);
  const literal = LITERALS[byte];
  if (literal === undefined) fail(bytes, i);
  for (let k = 1; k < literal.length; k++) if (bytes[i + k] !== literal[k]) fail(bytes, i + k);
  return i + literal.length;
}

const IN_OBJECT = 1;
const IN_ARRAY = 2;

/** A growing list of int32, its unused tail holding `fill`: a PATCH of 900,000 ids has 1.8 million offsets. */
class Int32List {
  private values: Int32Array;
  length = 0;
  constructor(private readonly fill: number) {
    this.values = new Int32Array(64).fill(fill);
  }
  /** Makes the list `length` long, the new values `fill`. */
  extendTo(length: number): void {
    if (length > this.values.length) {
      const grown = new Int32Array(Math.max(2 * this.values.length, length)).fill(this.fill);
      grown.set(this.values.subarray(0, this.length));
      this.values = grown;
    }
    this.length = length;
  }
  push(value: number): void {
    this.extendTo(this.length + 1);
    this.values[this.length - 1] = value;
  }
  set(at: number, value: number): void {
    this.values[at] = value;
  }
  toArray(): Int32Array {
    return this.values.slice(0, this.length);
  }
  /** The values, valid until the list next changes. */
  view(): Int32Array {
    return this.values.subarray(0, this.length);
  }
  /** Empties the list for use again. */
  clear(): void {
    this.values.fill(this.fill, 0, this.length);
    this.length = 0;
  }
}

function sameBytes(bytes: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (bytes[start + k] !== key[k]) return false;
  return true;
}

/**
 * Checks that `bytes` hold one JSON text (throws JsonSyntaxError naming the first fault and its
 * byte offset) and, when it is an object, returns its members; null for any other JSON value.
 * With `elementKeys`, an array member with elements that are objects also says where those keys'
 * values sit in them: `elementMembers[(e * keys + k) * 2]` and the next hold the span of key k in
 * element e, or -1 and -1 (absent, or the element is not an object). Nesting depth is unlimited
 * (no recursion).
 */
export function scanJson(bytes: Uint8Array, elementKeys: readonly string[] = []): ScannedObject | null {
  return fastScan(bytes, elementKeys) ?? scanExactly(bytes, elementKeys);
}

// The fast path: an object at the top, nested at most MAX_FAST_DEPTH deep, read by recursive
// descent with no checks but those that decide. It gives up (undefined) on anything else,
// faults included, and scanExactly then says what it is. An import body of 5,000 items takes
// ~20 ms the exact way (a loop that keeps its own stack and asks at every value where it is),
// ~13 ms this way (a loop that only tests each byte takes ~7).

const MAX_FAST_DEPTH = 200;
// Thrown inside the fast path to give up; never leaves it.
const GIVE_UP = new Error('left to the exact scan');
let fastEscaped = false;

function fastSpace(b: Uint8Array, i: number): number {
  for (;;) {
    const c = b[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

function fastString(b: Uint8Array, i: number): number {
  const n = b.length;
  let j = i + 1;
  for (;;) {
    // Past a quote every byte but the backslash stands for itself (read past the end: undefined).
    let c = b[j];
    while (c > QUOTE && c !== BACKSLASH) c = b[++j];
    if (j >= n) throw GIVE_UP;
    if (c === 0x20 || c === 0x21) {
      j++;
    } else if (c === QUOTE) {
      return j + 1;
    } else if (c === BACKSLASH) {
      fastEscaped = true;
      const next = b[j + 1];
      if (next === 0x75) {
        if (!(isHex(b[j + 2]) && isHex(b[j + 3]) && isHex(b[j + 4]) && isHex(b[j + 5]))) throw GIVE_UP;
        j += 6;
      } else if (next === QUOTE || next === BACKSLASH || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e || next === 0x72 || next === 0x74) {
        j += 2;
      } else {
        throw GIVE_UP;
      }
    } else {
      throw GIVE_UP;
    }
  }
}


function fastNumber(b: Uint8Array, i: number): number {
  if (b[i] === MINUS) i++;
  let c = b[i];
  if (c === ZERO) c = b[++i];
  else if (c > ZERO && c <= NINE) while (isDigit((c = b[++i])));
  else throw GIVE_UP;
  if (c === DOT) {
    if (!isDigit(b[++i])) throw GIVE_UP;
    while (isDigit((c = b[++i])));
  }
  if (c === LOWER_E || c === UPPER_E) {
    c = b[++i];
    if (c === PLUS || c === MINUS) c = b[++i];
    if (!isDigit(c)) throw GIVE_UP;
    while (isDigit(b[++i]));
  }
  return i;
}

function fastLiteral(b: Uint8Array, i: number, literal: Uint8Array): number {
  for (let k = 1; k < literal.length; k++) if (b[i + k] !== literal[k]) throw GIVE_UP;
  return i + literal.length;
}

/** Index just past the value at `i`, `depth` containers deep. */
function fastValue(b: Uint8Array, i: number, depth: number): number {
  const c = b[i];
  if (c === QUOTE) return fastString(b, i);
  if (c === OPEN_BRACE) return fastObject(b, i, depth);
  if (c === OPEN_BRACKET) return fastList(b, i, depth);
  if (c === MINUS || isDigit(c)) return fastNumber(b, i);
  if (c === 0x74) return fastLiteral(b, i, LITERALS[0x74]);
  if (c === 0x66) return fastLiteral(b, i, LITERALS[0x66]);
  if (c === 0x6e) return fastLiteral(b, i, LITERALS[0x6e]);
  throw GIVE_UP;
}

function fastObject(b: Uint8Array, i: number, depth: number): number {
  if (depth >= MAX_FAST_DEPTH) throw GIVE_UP;
  i = fastSpace(b, i + 1);
  if (b[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    if (b[i] !== QUOTE) throw GIVE_UP;
    i = fastSpace(b, fastString(b, i));
    if (b[i] !== COLON) throw GIVE_UP;
    i = fastSpace(b, fastValue(b, fastSpace(b, i + 1), depth + 1));
    const next = b[i];
    if (next === COMMA) i = fastSpace(b, i + 1);
    else if (next === CLOSE_BRACE) return i + 1;
    else throw GIVE_UP;
  }
}

function fastList(b: Uint8Array, i: number, depth: number): number {
  if (depth >= MAX_FAST_DEPTH) throw GIVE_UP;
  i = fastSpace(b, i + 1);
  if (b[i] === CLOSE_BRACKET) return i + 1;
  for (;;) {
    i = fastSpace(b, fastValue(b, i, depth + 1));
    const next = b[i];
    if (next === COMMA) i = fastSpace(b, i + 1);
    else if (next === CLOSE_BRACKET) return i + 1;
    else throw GIVE_UP;
  }
}

/** A key at `i` (a string, unescaped when it holds escapes) and the index of its value. */
function fastKey(b: Uint8Array, i: number): number {
  if (b[i] !== QUOTE) throw GIVE_UP;
  fastEscaped = false;
  const end = fastString(b, i);
  const colon = fastSpace(b, end);
  if (b[colon] !== COLON) throw GIVE_UP;
  return end;
}

/**
 * The object element at `i` of a top-level array: its wanted keys' values go to `slots` from
 * `base`. Index just past it.
 */
function fastElement(b: Uint8Array, i: number, wanted: Uint8Array[], elementKeys: readonly string[], slots: Int32List, base: number): number {
  i = fastSpace(b, i + 1);
  if (b[i] === CLOSE_BRACE) return i + 1;
  for (;;) {
    const end = fastKey(b, i);
    let k = -1;
    if (fastEscaped) {
      k = elementKeys.indexOf(JSON.parse(decoder.decode(b.subarray(i, end))) as string);
    } else {
      for (let w = 0; w < wanted.length && k < 0; w++) if (sameBytes(b, i + 1, end - 1, wanted[w])) k = w;
    }
    const start = fastSpace(b, fastSpace(b, end) + 1);
    const valueEnd = fastValue(b, start, 3);
    if (k >= 0) {
      slots.set(base + 2 * k, start);
      slots.set(base + 2 * k + 1, valueEnd);
    }
    i = fastSpace(b, valueEnd);
    const next = b[i];
    if (next === COMMA) i = fastSpace(b, i + 1);
    else if (next === CLOSE_BRACE) return i + 1;
    else throw GIVE_UP;
  }
}

/**
 * A top-level member that is an array, at `start`: its elements and their wanted members. With
 * `reused`, they are views of those lists, valid until their next use.
 */
function fastArray(b: Uint8Array, start: number, wanted: Uint8Array[], elementKeys: readonly string[], reused?: { elements: Int32List; members: Int32List }): ScannedMember {
  const slots = 2 * wanted.length;
  const elements = reused?.elements ?? new Int32List(0);
  const elementMembers = reused?.members ?? new Int32List(-1);
  if (reused) {
    elements.clear();
    elementMembers.clear();
  }
  let i = fastSpace(b, start + 1);
  if (b[i] !== CLOSE_BRACKET) {
    for (;;) {
      elements.push(i);
      let end: number;
      if (slots > 0 && b[i] === OPEN_BRACE) {
        elementMembers.extendTo(((elements.length + 1) / 2) * slots);
        end = fastElement(b, i, wanted, elementKeys, elementMembers, elementMembers.length - slots);
      } else {
        end = fastValue(b, i, 2);
      }
      elements.push(end);
      i = fastSpace(b, end);
      if (b[i] === COMMA) i = fastSpace(b, i + 1);
      else if (b[i] === CLOSE_BRACKET) break;
      else throw GIVE_UP;
    }
  }
  let found: Int32Array | undefined;
  if (elementMembers.length > 0) {
    elementMembers.extendTo((elements.length / 2) * slots);
    found = reused ? elementMembers.view() : elementMembers.toArray();
  }
  return { start, end: i + 1, elements: reused ? elements.view() : elements.toArray(), elementMembers: found };
}

/**
 * Reads arrays inside a scanned (valid) text: where the array at `start` has its elements, and
 * the `keys` of those that are objects, as scanJson gives them for a top-level member; undefined
 * when the fast path does not read it. The arrays it gives are valid until its next call (it
 * allocates nothing for them).
 */
export function arrayScanner(keys: readonly string[]): (bytes: Uint8Array, start: number) => ScannedMember | undefined {
  const wanted = keys.map((key) => encoder.encode(key));
  const reused = { elements: new Int32List(0), members: new Int32List(-1) };
  return (bytes, start) => {
    if (bytes[start] !== OPEN_BRACKET) return undefined;
    try {
      return fastArray(bytes, start, wanted, keys, reused);
    } catch (error) {
      if (error === GIVE_UP || error instanceof RangeError) return undefined;
      throw error;
    }
  };
}

/** scanJson's answer for a text the fast path reads (see above), or undefined. */
export function fastScan(b: Uint8Array, elementKeys: readonly string[]): ScannedObject | undefined {
  try {
    let i = fastSpace(b, 0);
    if (b[i] !== OPEN_BRACE) return undefined;
    const wanted = elementKeys.map((key) => encoder.encode(key));
    const members: ScannedObject = new Map();
    i = fastSpace(b, i + 1);
    if (b[i] !== CLOSE_BRACE) {
      for (;;) {
        const end = fastKey(b, i);
        const key = fastEscaped ? (JSON.parse(decoder.decode(b.subarray(i, end))) as string) : decoder.decode(b.subarray(i + 1, end - 1));
        const start = fastSpace(b, fastSpace(b, end) + 1);
        const member = b[start] === OPEN_BRACKET ? fastArray(b, start, wanted, elementKeys) : { start, end: fastValue(b, start, 1) };
        members.set(key, member);
        i = fastSpace(b, member.end);
        if (b[i] === COMMA) i = fastSpace(b, i + 1);
        else if (b[i] === CLOSE_BRACE) break;
        else throw GIVE_UP;
      }
    }
    return fastSpace(b, i + 1) === b.length ? members : undefined;
  } catch (error) {
    if (error === GIVE_UP || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** scanJson the exact way: every text, with the fault named when there is one. */
function scanExactly(bytes: Uint8Array, elementKeys: readonly string[]): ScannedObject | null {
  const n = bytes.length;
  const stack: number[] = [];
  let i = skipSpace(bytes, 0);
  const topIsObject = bytes[i] === OPEN_BRACE;
  const members: ScannedObject = new Map();
  const wanted = elementKeys.map((key) => encoder.encode(key));
  let key = '';
  let memberStart = 0;
  // Elements of the top-level member being read when it is an array, and their wanted members.
  let elements: Int32List | undefined;
  let elementMembers = new Int32List(-1);
  const slots = 2 * elementKeys.length;
  // The wanted key (its index) whose value comes next in an element, or -1.
  let elementKey = -1;

  // Reads a key and its colon at `i` (space skipped): the index of the value after them.
  const readKey = (at: number): number => {
    if (bytes[at] !== QUOTE) fail(bytes, at);
    const end = scanString(bytes, at);
    if (stack.length === 1) {
      key = escaped ? (JSON.parse(decoder.decode(bytes.subarray(at, end))) as string) : decoder.decode(bytes.subarray(at + 1, end - 1));
    } else if (stack.length === 3 && elements !== undefined && wanted.length > 0) {
      elementKey = -1;
      if (escaped) {
        elementKey = elementKeys.indexOf(JSON.parse(decoder.decode(bytes.subarray(at, end))) as string);
      } else {
        for (let k = 0; k < wanted.length && elementKey < 0; k++) if (sameBytes(bytes, at + 1, end - 1, wanted[k])) elementKey = k;
      }
    }
    const colon = skipSpace(bytes, end);
    if (bytes[colon] !== COLON) fail(bytes, colon);
    return skipSpace(bytes, colon + 1);
  };

  for (;;) {
    // A value starts at i (space skipped).
    const depth = stack.length;
    if (depth === 1 && topIsObject) {
      memberStart = i;
      elements = bytes[i] === OPEN_BRACKET ? new Int32List(0) : undefined;
      elementMembers = new Int32List(-1);
    } else if (depth === 2 && elements !== undefined) {
      elements.push(i);
      // Slots only once an element is an object: none for a list of ids.
      if (slots > 0 && bytes[i] === OPEN_BRACE) elementMembers.extendTo(((elements.length + 1) / 2) * slots);
    } else if (depth === 3 && elementKey >= 0) {
      // The last occurrence of a key counts, as in JSON.parse.
      elementMembers.set(elementMembers.length - slots + 2 * elementKey, i);
    }
    const byte = bytes[i];
    if (byte === OPEN_BRACE) {
      stack.push(IN_OBJECT);
      i = skipSpace(bytes, i + 1);
      if (bytes[i] !== CLOSE_BRACE) {
        i = readKey(i);
        continue;
      }
      stack.pop();
      i++;
    } else if (byte === OPEN_BRACKET) {
      stack.push(IN_ARRAY);
      i = skipSpace(bytes, i + 1);
      if (bytes[i] !== CLOSE_BRACKET) continue;
      stack.pop();
      i++;
    } else {
      i = scanScalar(bytes, i);
    }
    // A value ended just before i: close the containers it ends, up to the next value.
    for (;;) {
      const level = stack.length;
      if (level === 1 && topIsObject) {
        let found: Int32Array | undefined;
        if (elements !== undefined && elementMembers.length > 0) {
          elementMembers.extendTo((elements.length / 2) * slots);
          found = elementMembers.toArray();
        }
        members.set(key, { start: memberStart, end: i, elements: elements?.toArray(), elementMembers: found });
      } else if (level === 2 && elements !== undefined) {
        elements.push(i);
      } else if (level === 3 && elementKey >= 0) {
        elementMembers.set(elementMembers.length - slots + 2 * elementKey + 1, i);
        elementKey = -1;
      }
      if (level === 0) {
        i = skipSpace(bytes, i);
        if (i !== n) fail(bytes, i);
        return topIsObject ? members : null;
      }
      i = skipSpace(bytes, i);
      const inObject = stack[level - 1] === IN_OBJECT;
      if (bytes[i] === COMMA) {
        i = skipSpace(bytes, i + 1);
        if (inObject) i = readKey(i);
        break;
      }
      if (bytes[i] !== (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) fail(bytes, i);
      stack.pop();
      i++;
    }
  }
}
