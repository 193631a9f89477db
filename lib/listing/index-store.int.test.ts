import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyProducts } from '@/lib/catalog/apply-products';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { eventually } from '@/lib/testing/receivers';
import { docOf } from './build-index';
import { dropIndexes, indexFor, loadedIndexes, setIndexBudget } from './index-store';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  dropIndexes();
  await database?.close();
});

const item = (id: string, price: number) => ({ id, name: id, price, categories: [], url: `https://s.example/${id}`, picture: `https://s.example/${id}.jpg` });

async function shopWith(count: number) {
  const shop = await createTestShop(database.ctx);
  await database.ctx.sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', Array.from({ length: count }, (_, i) => item(`p${i}`, i + 1))));
  return shop.shop_id;
}

it('drops the least recently used index above the memory budget and builds it again when asked', async () => {
  const sql = database.ctx.sql;
  const [a, b] = [await shopWith(50), await shopWith(60)];
  setIndexBudget(1); // one index at a time
  expect((await indexFor(sql, a)).n).toBe(50);
  expect(loadedIndexes().map((i) => i.shopId)).toEqual([a]);
  expect((await indexFor(sql, b)).n).toBe(60);
  expect(loadedIndexes().map((i) => i.shopId)).toEqual([b]);
  expect((await indexFor(sql, a)).n).toBe(50);
  expect(loadedIndexes().map((i) => i.shopId)).toEqual([a]);
  setIndexBudget(1024 * 1024 * 1024);
  expect((await indexFor(sql, b)).n).toBe(60);
  expect(loadedIndexes().map((i) => i.shopId).sort()).toEqual([a, b].sort());
});

it('keeps answering from the current index while the next one is built, then swaps it in', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(20);
  const first = await indexFor(sql, shopId);
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', [item('new', 5)]));
  // Right after the commit the old index still answers, without waiting.
  const meanwhile = await indexFor(sql, shopId);
  expect([first.version, first.version + 1]).toContain(meanwhile.version);
  const next = await eventually(() => indexFor(sql, shopId), (index) => docOf(index, 'new') !== undefined, 10_000);
  expect(next.version).toBe(first.version + 1);
  expect(next.n).toBe(21);
});
