// What the open-addressing tables of ids (listed-ids.ts, state-table.ts) share: slots holding an
// entry's index + 1 (0: empty), found from the entry's hash by linear probing, and arrays grown by
// doubling.

/** `capacity` slots (a power of two) for the first `count` entries of `hashes`. */
export function slotsFor(hashes: Int32Array, count: number, capacity: number): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(capacity);
  const mask = capacity - 1;
  for (let entry = 0; entry < count; entry++) {
    let slot = hashes[entry] & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = entry + 1;
  }
  return slots;
}

/** A copy of `array` at least `least` long, and at least twice as long. */
export function grown<T extends Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(array: T, least = 0): T {
  const next = new (array.constructor as new (length: number) => T)(Math.max(least, array.length * 2));
  next.set(array);
  return next;
}
