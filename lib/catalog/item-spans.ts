// Where an item's members sit in its JSON text, without parsing it: an item sent again unchanged
// needs only its id, availability, categories and offers' locations. The text must already be
// known to be valid JSON (scanJson or JSON.parse accepted it).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

/** Index just past the string whose opening quote is at `i`. */
function skipString(bytes: Uint8Array, i: number): number {
  for (let j = i + 1; ; ) {
    const quote = bytes.indexOf(QUOTE, j);
    if (quote < 0) return bytes.length;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    j = quote + 1;
  }
}

/** Index just past the value starting at `i` (no leading space). */
function skipValue(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return skipString(bytes, i);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let j = i; j < bytes.length; j++) {
      const byte = bytes[j];
      if (byte === QUOTE) j = skipString(bytes, j) - 1;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) return j + 1;
    }
    return bytes.length;
  }
  let j = i;
  while (j < bytes.length && bytes[j] !== COMMA && bytes[j] !== CLOSE_BRACE && bytes[j] !== CLOSE_BRACKET && !isSpace(bytes[j])) j++;
  return j;
}

const decoder = new TextDecoder();

/** A key's bytes without quotes, to compare with a key as sent. */
export function keyBytes(key: string): Uint8Array {
  return new TextEncoder().encode(key);
}

function sameBytes(bytes: Uint8Array, start: number, end: number, key: Uint8Array): boolean {
  if (end - start !== key.length) return false;
  for (let k = 0; k < key.length; k++) if (bytes[start + k] !== key[k]) return false;
  return true;
}

/**
 * Finds the members named `keys` in the object at `start` (no leading space): the span of
 * `keys[k]`'s value goes to out[2k] and out[2k + 1], or -1 and -1 when absent. The last
 * occurrence of a key counts and escaped keys are decoded, as in JSON.parse. False when the
 * value at `start` is not an object.
 */
export function objectMembers(bytes: Uint8Array, start: number, keys: readonly Uint8Array[], out: Int32Array): boolean {
  out.fill(-1);
  if (bytes[start] !== OPEN_BRACE) return false;
  let i = skipSpace(bytes, start + 1);
  while (i < bytes.length && bytes[i] === QUOTE) {
    const keyEnd = skipString(bytes, i);
    let found = -1;
    if (bytes.subarray(i + 1, keyEnd - 1).includes(BACKSLASH)) {
      const key = new TextEncoder().encode(JSON.parse(decoder.decode(bytes.subarray(i, keyEnd))) as string);
      found = keys.findIndex((wanted) => sameBytes(key, 0, key.length, wanted));
    } else {
      for (let k = 0; k < keys.length && found < 0; k++) if (sameBytes(bytes, i + 1, keyEnd - 1, keys[k])) found = k;
    }
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) return true;
    i = skipSpace(bytes, i + 1);
    const end = skipValue(bytes, i);
    if (found >= 0) {
      out[2 * found] = i;
      out[2 * found + 1] = end;
    }
    i = skipSpace(bytes, end);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
  }
  return true;
}
