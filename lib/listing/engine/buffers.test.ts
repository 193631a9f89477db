import { expect, it } from 'vitest';
import { Buffers } from './buffers';

it('lends one array per name, grown when a longer one is asked for, and copies', () => {
  const buffers = new Buffers();
  const first = buffers.int32('a', 10);
  first.fill(7);
  const again = buffers.int32('a', 8);
  expect(again.length).toBe(8);
  expect(again.buffer).toBe(first.buffer); // the same memory: what was left is still there
  expect(Array.from(again)).toEqual(new Array(8).fill(7));
  const longer = buffers.int32('a', 11);
  expect(longer.length).toBe(11);
  expect(longer.buffer).not.toBe(first.buffer);
  expect(buffers.float64('a', 3)).toBeInstanceOf(Float64Array); // another kind under a name replaces it
  expect(buffers.int32('b', 4).buffer).not.toBe(buffers.int32('c', 4).buffer);
  const source = Uint32Array.of(1, 2, 3);
  const copy = buffers.copy('d', source);
  expect(Array.from(copy)).toEqual([1, 2, 3]);
  expect(copy.buffer).not.toBe(source.buffer);
});
