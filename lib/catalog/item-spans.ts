// Where each element of a top-level array sits in a JSON text, without parsing it: the applier
// hashes each item's bytes as sent, so an item sent again unchanged is recognised before any
// validation. The text must already be known to be valid JSON (JSON.parse accepted it).

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

/**
 * Start and end offsets (pairs, in bytes) of the elements of the array under `field` in the
 * top-level object; the last occurrence of the key counts, as in JSON.parse. Undefined when the
 * key is absent or does not hold an array.
 */
export function arraySpans(bytes: Uint8Array, field: string): Int32Array | undefined {
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN_BRACE) return undefined;
  i = skipSpace(bytes, i + 1);
  let found: number[] | undefined;
  while (i < bytes.length && bytes[i] === QUOTE) {
    const keyEnd = skipString(bytes, i);
    const key = JSON.parse(decoder.decode(bytes.subarray(i, keyEnd))) as string;
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) return undefined;
    i = skipSpace(bytes, i + 1);
    if (key === field) {
      found = undefined;
      if (bytes[i] === OPEN_BRACKET) {
        const spans: number[] = [];
        i = skipSpace(bytes, i + 1);
        while (i < bytes.length && bytes[i] !== CLOSE_BRACKET) {
          const end = skipValue(bytes, i);
          spans.push(i, end);
          i = skipSpace(bytes, end);
          if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
        }
        i++;
        found = spans;
      } else {
        i = skipValue(bytes, i);
      }
    } else {
      i = skipValue(bytes, i);
    }
    i = skipSpace(bytes, i);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
  }
  return found && Int32Array.from(found);
}
