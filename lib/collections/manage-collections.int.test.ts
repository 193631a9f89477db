import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { createCollection, deleteCollection, storefrontCollection, updateCollection } from './manage-collections';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const rules = (limit: number) => ({ groups: [{ limit }] });

it('reads a collection for storefronts once for a while, and shows changes made through this process at once', async () => {
  const ctx = database.ctx;
  const { shop_id: shopId } = await createTestShop(ctx);
  const { id } = await createCollection(ctx, shopId, { name: 'Picks', rules: rules(3) });
  const [first, second] = await Promise.all([storefrontCollection(ctx, shopId, id), storefrontCollection(ctx, shopId, id)]);
  expect(first).toBe(second); // one query for both
  expect(first.rules).toEqual(rules(3));

  await updateCollection(ctx, shopId, id, { name: 'Picks', rules: rules(5) });
  expect((await storefrontCollection(ctx, shopId, id)).rules).toEqual(rules(5));

  // Changed by another process (here: in SQL): seen once the 2 s are over.
  await ctx.sql`update collections set rules = ${JSON.stringify(rules(7))}::jsonb where id = ${id}`;
  expect((await storefrontCollection(ctx, shopId, id)).rules).toEqual(rules(5));
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  expect((await storefrontCollection(ctx, shopId, id)).rules).toEqual(rules(7));

  await deleteCollection(ctx, shopId, id);
  await expect(storefrontCollection(ctx, shopId, id)).rejects.toThrow('Collection not found');
});

it('finds a collection created after a read that did not, and keeps shops apart', async () => {
  const ctx = database.ctx;
  const [mine, theirs] = [await createTestShop(ctx), await createTestShop(ctx)];
  const { id } = await createCollection(ctx, theirs.shop_id, { name: 'Theirs', rules: rules(1) });
  await expect(storefrontCollection(ctx, mine.shop_id, id)).rejects.toThrow('Collection not found');
  expect((await storefrontCollection(ctx, theirs.shop_id, id)).name).toBe('Theirs');
  const next = await createCollection(ctx, mine.shop_id, { name: 'Mine', rules: rules(2) });
  await expect(storefrontCollection(ctx, mine.shop_id, next.id + 1)).rejects.toThrow('Collection not found');
  const later = await createCollection(ctx, mine.shop_id, { name: 'Later', rules: rules(2) });
  expect(later.id).toBe(next.id + 1);
  expect((await storefrontCollection(ctx, mine.shop_id, later.id)).name).toBe('Later');
});
