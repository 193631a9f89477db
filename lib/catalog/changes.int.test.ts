import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyProducts } from './apply-products';
import { productsChangedSince } from './changes';
import { notCommitted } from '@/lib/imports/pipeline/known-states';
import { CATALOG_CHANNEL } from './version';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { appliedImports, productItem, sentItemsOf } from '@/lib/testing/applied-imports';
import { eventually } from '@/lib/testing/receivers';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const { committed, put, availability } = appliedImports(() => database.ctx.sql);
const item = productItem;

/** What a reader is told changed: the product's id, version, availability and price. */
async function changedSince(shopId: string, since: number) {
  const { version, products } = await productsChangedSince(database.ctx.sql, shopId, since);
  return { version, products: products.map((p) => [p.id, p.version, p.available, p.price]) };
}

describe('productsChangedSince', () => {
  // Readers find changed products by product_state.data_version: it must follow products.version.
  it('keeps each state’s data version at its product’s version, through PUTs from bytes and from values, repeats, loads, PATCH and DELETE', async () => {
    const shop = await createTestShop(database.ctx);
    const versions = () => database.ctx.sql<{ id: string; product: number; state: number }[]>`
      select p.id, p.version::int as product, st.data_version::int as state
        from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
       where p.shop_id = ${shop.shop_id} order by p.id`;
    const same = async (count: number) => {
      const rows = await versions();
      expect(rows).toHaveLength(count);
      expect(rows.filter((row) => row.product !== row.state)).toEqual([]);
      return rows;
    };
    await put(shop.shop_id, [item('a'), item('b'), item('c')]);
    await same(3);
    // From bytes: b changes, c is sent in another spelling (same JSON: no new version), d is new and named twice.
    await put(shop.shop_id, [item('b', { price: 5 }), Object.fromEntries(Object.entries(item('c')).reverse()), item('d'), item('d', { price: 3 })]);
    expect((await same(4)).map((row) => [row.id, row.product])).toEqual([['a', 1], ['b', 2], ['c', 1], ['d', 2]]);
    // From values (no digests): a changes, b is sent as stored.
    await committed(shop.shop_id, (tx) => applyProducts(tx, shop.shop_id, 'put', [item('a', { price: 7 }), item('b', { price: 5 })]));
    expect((await same(4)).map((row) => [row.id, row.product])).toEqual([['a', 3], ['b', 2], ['c', 1], ['d', 2]]);
    // From values again: a's stored digest and the one sent are both unknown.
    await committed(shop.shop_id, (tx) => applyProducts(tx, shop.shop_id, 'put', [item('a', { price: 9 })]));
    expect((await same(4)).map((row) => [row.id, row.product])).toEqual([['a', 4], ['b', 2], ['c', 1], ['d', 2]]);
    await availability(shop.shop_id, 'patch', ['a']);
    await availability(shop.shop_id, 'delete', ['a']);
    await put(shop.shop_id, [item('c', { price: 8 }), item('e')], 'load');
    expect((await same(5)).map((row) => [row.id, row.product])).toEqual([['a', 4], ['b', 2], ['c', 7], ['d', 2], ['e', 7]]);
  });

  it('returns exactly the products changed after a version by PUT, PATCH, DELETE and a load, never another shop’s', async () => {
    const shop = await createTestShop(database.ctx);
    const other = await createTestShop(database.ctx);
    const v1 = (await put(shop.shop_id, [item('a'), item('b'), item('c'), item('d'), item('e')])).version!;
    expect(v1).toBe(1);
    expect(await changedSince(shop.shop_id, v1)).toEqual({ version: 1, products: [] });
    // The other shop changes the same ids at the same versions throughout.
    await put(other.shop_id, [item('a', { price: 1 }), item('b', { price: 1 }), item('z', { price: 1 })]);

    // PUT: b changes, a is sent again as stored.
    expect((await put(shop.shop_id, [item('a'), item('b', { price: 5 })])).version).toBe(2);
    await put(other.shop_id, [item('a', { price: 2 })]);
    expect(await changedSince(shop.shop_id, v1)).toEqual({ version: 2, products: [['b', 2, true, 5]] });

    // PATCH: every unlisted one (e) goes out of stock.
    expect((await availability(shop.shop_id, 'patch', ['a', 'b', 'c', 'd'])).version).toBe(3);
    await availability(other.shop_id, 'patch', ['z']);
    expect(await changedSince(shop.shop_id, 2)).toEqual({ version: 3, products: [['e', 3, false, 100]] });

    // DELETE: only the listed one (a) goes out of stock.
    expect((await availability(shop.shop_id, 'delete', ['a'])).version).toBe(4);
    await availability(other.shop_id, 'delete', ['b']);
    expect(await changedSince(shop.shop_id, 3)).toEqual({ version: 4, products: [['a', 4, false, 100]] });

    // Load: c listed as stored, f new, every unlisted one out of stock (b and d; a and e are already).
    expect((await put(shop.shop_id, [item('c'), item('f', { price: 7 })], 'load')).version).toBe(5);
    await put(other.shop_id, [item('f', { price: 3 })], 'load');
    expect(await changedSince(shop.shop_id, 4)).toEqual({
      version: 5,
      products: [
        ['b', 5, false, 5],
        ['d', 5, false, 100],
        ['f', 5, true, 7],
      ],
    });

    // Since v1, each changed product once, at its latest version; c never changed.
    expect(await changedSince(shop.shop_id, v1)).toEqual({
      version: 5,
      products: [
        ['a', 4, false, 100],
        ['b', 5, false, 5],
        ['d', 5, false, 100],
        ['e', 3, false, 100],
        ['f', 5, true, 7],
      ],
    });
    expect(await changedSince(shop.shop_id, 5)).toEqual({ version: 5, products: [] });
    expect(await changedSince(other.shop_id, 2)).toEqual({
      version: 5,
      products: [
        ['a', 3, false, 2],
        ['b', 3, false, 1],
        ['f', 5, true, 3],
        ['z', 5, false, 1],
      ],
    });
  });
});

describe('the catalog notification', () => {
  let listener: postgres.Sql;
  const heard: string[] = [];

  beforeAll(async () => {
    // Its own connection, as a reader in another process would listen.
    listener = postgres(database.url, { max: 1, onnotice: () => {} });
    await listener.listen(CATALOG_CHANNEL, (payload) => heard.push(payload));
  });

  afterAll(async () => {
    await listener?.end();
  });

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('is heard once when an import commits, naming the shop and its new version, and not before', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a')]);
    await eventually(() => heard, (list) => list.length === 1);
    heard.length = 0;

    let heardBeforeCommit: string[] | undefined;
    await committed(shop.shop_id, async (tx) => {
      const outcome = await applyProducts(tx, shop.shop_id, 'put', sentItemsOf(JSON.stringify({ items: [item('a', { price: 9 })] })));
      await sleep(300);
      heardBeforeCommit = [...heard];
      return outcome;
    });
    expect(heardBeforeCommit).toEqual([]);
    await eventually(() => heard, (list) => list.length > 0, 5_000);
    // Long enough for a second notification to arrive, were there one.
    await sleep(500);
    expect(heard.map((payload) => JSON.parse(payload))).toEqual([{ shop_id: shop.shop_id, version: 2 }]);
  });

  it('is not heard for an import that rolls back', async () => {
    const shop = await createTestShop(database.ctx);
    heard.length = 0;
    await expect(
      database.ctx.sql.begin(async (tx) => {
        await applyProducts(tx, shop.shop_id, 'put', sentItemsOf(JSON.stringify({ items: [item('a')] })));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    notCommitted(shop.shop_id);
    await sleep(500);
    expect(heard).toEqual([]);

    // The listener still hears: the next import that commits takes the version that rolled back.
    await put(shop.shop_id, [item('a')]);
    await eventually(() => heard, (list) => list.length > 0, 5_000);
    expect(heard.map((payload) => JSON.parse(payload))).toEqual([{ shop_id: shop.shop_id, version: 1 }]);
  });
});
