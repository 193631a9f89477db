// JSON at the level of its bytes, written once for every reader of request bodies: the scan that
// checks a body (json-scan.ts) and the readers of a body it accepted (lib/catalog's item-cursor.ts,
// sent-items.ts, listed-ids.ts, copy-rows.ts). Past the scan a text is known to be JSON, so the readers here
// only find ends and values: they check nothing.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const SLASH = 0x2f;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const SPACE = 0x20;
export const MINUS = 0x2d;
export const PLUS = 0x2b;
export const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
export const LOWER_E = 0x65;
export const UPPER_E = 0x45;
export const LOWER_T = 0x74;
export const LOWER_F = 0x66;
export const LOWER_N = 0x6e;
export const LOWER_U = 0x75;

/** JSON whitespace: space, newline, carriage return, tab. */
export function isSpace(byte: number): boolean {
  return byte === SPACE || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Whitespace other than the space: what a reader storing a text as sent notes. */
export function isControlSpace(byte: number): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

export function isDigit(byte: number): boolean {
  return byte >= ZERO && byte <= NINE;
}

export function isNumberStart(byte: number): boolean {
  return byte === MINUS || (byte >= ZERO && byte <= NINE);
}

/** Bytes that a string holds as they are: not a quote, a backslash or a control character. */
export const PLAIN = new Uint8Array(256).map((_, byte) => (byte >= SPACE && byte !== QUOTE && byte !== BACKSLASH ? 1 : 0));

/** Whether [start, end) holds a backslash (for a string's content: an escape). */
export function hasBackslash(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i] === BACKSLASH) return true;
  return false;
}

/** Index of the closing quote of the string whose opening quote is at `i`. */
export function stringClose(bytes: Uint8Array, i: number): number {
  let j = i + 1;
  for (let byte = bytes[j]; byte !== QUOTE; byte = bytes[j]) j += byte === BACKSLASH ? 2 : 1;
  return j;
}

/** The string whose content (between its quotes) is [start, end), its escapes undone. */
export function decodeString(bytes: Buffer, start: number, end: number): string {
  if (hasBackslash(bytes, start, end)) return JSON.parse(bytes.toString('utf8', start - 1, end + 1)) as string;
  return bytes.toString('utf8', start, end);
}

/** Index just past the number starting at `i`. */
export function numberEnd(bytes: Uint8Array, i: number): number {
  if (bytes[i] === MINUS) i++;
  let byte = bytes[i];
  while (isDigit(byte) || byte === DOT || byte === LOWER_E || byte === UPPER_E || byte === PLUS || byte === MINUS) byte = bytes[++i];
  return i;
}

// Powers of ten a double holds exactly.
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** The number whose text is [start, end), exactly as JSON.parse reads it. */
export function numberValue(bytes: Buffer, start: number, end: number): number {
  let i = start;
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  let byte = bytes[i];
  while (isDigit(byte)) {
    mantissa = mantissa * 10 + (byte - ZERO);
    digits++;
    byte = bytes[++i];
  }
  if (byte === DOT) {
    byte = bytes[++i];
    while (isDigit(byte)) {
      mantissa = mantissa * 10 + (byte - ZERO);
      digits++;
      scale++;
      byte = bytes[++i];
    }
  }
  // Up to 15 digits the mantissa and the power of ten are exact, and one correctly rounded
  // division gives the double nearest the decimal, as JSON.parse does; an exponent or more
  // digits are the engine's to read.
  if (i !== end || digits > 15) return Number(bytes.toString('latin1', start, end));
  const magnitude = scale === 0 ? mantissa : mantissa / POW10[scale];
  return negative ? -magnitude : magnitude;
}
