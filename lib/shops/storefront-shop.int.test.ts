import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { storefrontShop } from './storefront-shop';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

it('reads a shop once for the requests that ask together, and again once its answer expired', async () => {
  const sql = database.ctx.sql;
  const { shop_id: shopId } = await createTestShop(database.ctx);
  const [a, b, c] = await Promise.all([storefrontShop(sql, shopId), storefrontShop(sql, shopId), storefrontShop(sql, shopId)]);
  expect(a.id).toBe(shopId);
  expect(b).toBe(a); // one row for all three
  expect(c).toBe(a);
  await sql`update shops set name = 'Renamed' where id = ${shopId}`;
  expect((await storefrontShop(sql, shopId)).name).toBe(a.name); // within 2 s: as read
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const [d, e] = await Promise.all([storefrontShop(sql, shopId), storefrontShop(sql, shopId)]);
  expect(d.name).toBe('Renamed');
  expect(e).toBe(d);
  await expect(storefrontShop(sql, 'no-such-shop')).rejects.toThrow('Shop not found');
});
