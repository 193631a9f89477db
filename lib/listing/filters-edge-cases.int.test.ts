// Filter blocks of the listing in cases the shaping property test found wrong (shrunk by hand).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyProducts } from '@/lib/catalog/apply-products';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { dropIndexes } from './index-store';
import { listProducts } from './listing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  dropIndexes();
  await database?.close();
});

// A param given only priority -1 was shown with priority 0 and ordered level with params given
// none, although CONTRACT §4 orders by the priority given on import and decisions "Params" shows
// the highest given.
it('shows a negative priority as given and orders its param after those with none', async () => {
  const { shop_id: shopId } = await createTestShop(database.ctx);
  const item = (id: string, params: unknown[]) => ({ id, name: id, price: 5, categories: [], picture: 'https://cdn.example/x.jpg', url: `https://shop.example/${id}`, params });
  await database.ctx.sql.begin((tx) =>
    applyProducts(tx, shopId, 'put', [item('a', [{ name: 'Low', value: ['x'], priority: -1 }]), item('b', [{ name: 'Low', value: ['y'], priority: -3 }, { name: 'Plain', value: ['z'] }])]),
  );
  const parts = await listProducts(database.ctx, { params: new Map([['shop_id', shopId], ['did', 'd'], ['sid', 's']]), origin: 'http://localhost' });
  const answer = JSON.parse(Buffer.concat(parts).toString('utf8')) as { filters: Record<string, { priority: number; count: number }> };
  expect(Object.entries(answer.filters).map(([name, f]) => [name, f.priority, f.count])).toEqual([
    ['Plain', 0, 1],
    ['Low', -1, 2],
  ]);
});

// A param whose values are numbers was a list filter when one of them JSON writes with an exponent (1e-7), although decisions
// "Params" makes a param numeric when every value is a number.
it('keeps a param numeric when a value is a number written with an exponent', async () => {
  const { shop_id: shopId } = await createTestShop(database.ctx);
  const item = (id: string, value: unknown[]) => ({ id, name: id, price: 5, categories: [], picture: 'https://cdn.example/x.jpg', url: `https://shop.example/${id}`, params: [{ name: 'Weight', value }] });
  await database.ctx.sql.begin((tx) => applyProducts(tx, shopId, 'put', [item('a', [1e-7]), item('b', [2.5, 1e21])]));
  const parts = await listProducts(database.ctx, { params: new Map([['shop_id', shopId], ['did', 'd'], ['sid', 's']]), origin: 'http://localhost' });
  const answer = JSON.parse(Buffer.concat(parts).toString('utf8')) as { filters: Record<string, unknown> };
  expect(answer.filters.Weight).toEqual({ count: 2, priority: 0, values: {}, ranges: { min: 1e-7, max: 1e21 } });
});
