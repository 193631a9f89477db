import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { eventually } from '@/lib/testing/receivers';
import { indexBytes } from './indexing';
import { dropIndexes, indexFor } from './index-store';
import { KEPT_PRODUCTS, storedProducts } from './stored-products';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  dropIndexes();
  await database?.close();
});

const item = (id: string, name = id) => ({ id, name, price: 10, categories: [], url: `https://s.example/${id}`, picture: `https://s.example/${id}.jpg` });

it('keeps the rows an index version showed: a new version reads them afresh, an availability patch keeps them', async () => {
  const sql = database.ctx.sql;
  const { shop_id: shopId } = await createTestShop(database.ctx);
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', [item('a', 'Old name'), item('b')]));
  const first = await indexFor(sql, shopId);
  const before = indexBytes(first);
  const shown = await storedProducts(sql, first, ['a', 'b', 'missing']);
  // What is kept counts in the memory budget.
  expect(indexBytes(first) - before).toBeGreaterThanOrEqual(2 * [...shown.values()].reduce((sum, row) => sum + JSON.stringify(row.data).length, 0));
  expect([...shown.keys()].sort()).toEqual(['a', 'b']);
  expect(shown.get('a')!.data.name).toBe('Old name');

  await sql.begin((tx) => applyProducts(tx, shopId, 'put', [item('a', 'New name')]));
  const second = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  // The version that chose the page shows the page as it was; the new one shows the new name.
  expect((await storedProducts(sql, first, ['a'])).get('a')!.data.name).toBe('Old name');
  expect((await storedProducts(sql, second, ['a'])).get('a')!.data.name).toBe('New name');

  await sql.begin((tx) => applyAvailability(tx, shopId, 'delete', ['b']));
  const patched = await eventually(() => indexFor(sql, shopId), (index) => index.version > second.version, 10_000);
  expect(patched.buildSteps).toMatch(/availability of 1 products patched/);
  expect(patched.memo.storedProducts).toBe(second.memo.storedProducts);
  expect((await storedProducts(sql, patched, ['a', 'b'])).get('a')!.data.name).toBe('New name');
});

it(`keeps at most ${KEPT_PRODUCTS} products per index, the least recently shown dropped first`, async () => {
  const sql = database.ctx.sql;
  const { shop_id: shopId } = await createTestShop(database.ctx);
  const ids = Array.from({ length: KEPT_PRODUCTS + 100 }, (_, i) => `p${i}`);
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', ids.map((id) => item(id))));
  const index = await indexFor(sql, shopId);
  await storedProducts(sql, index, ids.slice(0, 100));
  await storedProducts(sql, index, ids.slice(100, KEPT_PRODUCTS));
  await storedProducts(sql, index, ids.slice(0, 1)); // shown again: now the most recent
  const rows = await storedProducts(sql, index, ids.slice(KEPT_PRODUCTS));
  expect(rows.size).toBe(100);
  const kept = index.memo.storedProducts!.rows;
  expect(kept.size).toBe(KEPT_PRODUCTS);
  // The 100 oldest went: p1 … p100 (p0 was shown again just before).
  expect(kept.has('p0')).toBe(true);
  expect(ids.slice(1, 101).some((id) => kept.has(id))).toBe(false);
  expect(kept.has('p101')).toBe(true);
  expect(kept.has(ids.at(-1)!)).toBe(true);
});
