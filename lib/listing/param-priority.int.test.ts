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

// Found by listing-shaping.property.int.test.ts (shrunk by hand): a param given only priority -1 was shown with
// priority 0 and ordered level with params given none, although CONTRACT §4 orders by the priority
// given on import and decisions "Params" shows the highest given.
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
