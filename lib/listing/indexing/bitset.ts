// Fixed-size sets of document numbers, one bit each: the listing engine combines filters with them.

export type Bitset = Uint32Array;

export function emptySet(size: number): Bitset {
  return new Uint32Array((size + 31) >>> 5);
}

export function fullSet(size: number): Bitset {
  const set = emptySet(size);
  set.fill(0xffffffff);
  const tail = size & 31;
  if (tail) set[set.length - 1] = (1 << tail) - 1;
  return set;
}

export function has(set: Bitset, doc: number): boolean {
  return (set[doc >>> 5] & (1 << (doc & 31))) !== 0;
}

export function add(set: Bitset, doc: number): void {
  set[doc >>> 5] |= 1 << (doc & 31);
}

export function remove(set: Bitset, doc: number): void {
  set[doc >>> 5] &= ~(1 << (doc & 31));
}

/** `into` ∩= `other`, in place. */
export function intersectInto(into: Bitset, other: Bitset): void {
  for (let i = 0; i < into.length; i++) into[i] &= other[i];
}

/** `into` ∖= `other`, in place. */
export function subtractInto(into: Bitset, other: Bitset): void {
  for (let i = 0; i < into.length; i++) into[i] &= ~other[i];
}

/** Adds documents from..to-1: whole words at once in the middle. */
export function addRange(set: Bitset, from: number, to: number): void {
  let doc = from;
  for (; doc < to && (doc & 31) !== 0; doc++) set[doc >>> 5] |= 1 << (doc & 31);
  for (; doc + 32 <= to; doc += 32) set[doc >>> 5] = 0xffffffff;
  for (; doc < to; doc++) set[doc >>> 5] |= 1 << (doc & 31);
}

/** The number of bits set in a 32-bit word. */
export function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function cardinality(set: Bitset): number {
  let count = 0;
  for (let i = 0; i < set.length; i++) count += bitCount(set[i]);
  return count;
}

export function equalSets(a: Bitset, b: Bitset): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
