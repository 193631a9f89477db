import { describe, expect, it } from 'vitest';
import { heldBufferBytes } from './index-bytes';
import type { ShopIndex } from './shop-index';
import { Memo } from './memo';

describe('heldBufferBytes', () => {
  it('counts every array buffer an index reaches once, shared or not, views of one buffer included', () => {
    const shared = new SharedArrayBuffer(4_000);
    const plain = new ArrayBuffer(800);
    const kept = new Int32Array(20);
    const memo = new Memo();
    memo.orders.set('price:asc', kept);
    memo.orders.set('price:desc', kept);
    const index = {
      n: 3,
      postings: new Uint16Array(shared, 0, 100),
      postOffsets: new Int32Array(shared, 400, 4), // another view of the same buffer
      invDocs: new Int32Array(plain, 8, 2), // a view's whole buffer counts
      replay: { tokenOffsets: new Int32Array(4), tokenNumbers: new Uint16Array(6) },
      merchants: new Map([['m', new Int32Array(5)]]),
      memo,
      valueKey: ['a', 'b'],
    } as unknown as ShopIndex;
    expect(heldBufferBytes(index)).toBe(4_000 + 800 + 16 + 12 + 20 + 80);
  });
});
