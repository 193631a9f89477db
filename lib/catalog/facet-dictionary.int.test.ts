import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIndex, docOf, documentValues, type ShopIndex } from '@/lib/listing/indexing';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { productItem } from '@/lib/testing/applied-imports';
import { applyProducts } from './apply-products';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const item = (id: string, brand: string, extra: Record<string, unknown> = {}) => productItem(id, { price: 10, brand, ...extra });
const put = (shopId: string, items: unknown[]) => database.ctx.sql.begin((tx) => applyProducts(tx, shopId, 'put', items));

async function dictionary(shopId: string) {
  const rows = await database.ctx.sql<{ number: number; token: string }[]>`select number, token from facet_tokens where shop_id = ${shopId} order by number`;
  return rows.map((row) => row.token);
}

/** The numbers in a `facet_values` text, in order. */
const facetNumbers = (text: string) => (text === '' ? [] : text.split(' ').map(Number));

/** Each product's tokens, read back through the dictionary. */
async function storedTokens(shopId: string) {
  const tokens = await dictionary(shopId);
  const rows = await database.ctx.sql<{ id: string; facet_values: string | null }[]>`select id, facet_values from products where shop_id = ${shopId} order by id`;
  return Object.fromEntries(rows.map((row) => [row.id, row.facet_values === null ? null : facetNumbers(row.facet_values).map((number) => tokens[number])]));
}

const brandOf = (index: ShopIndex, id: string) => {
  return documentValues(index, docOf(index, id)!).filter((value) => index.dims[index.valueDim[value]].key === 'brand').map((value) => index.valueLabel[value]);
};

it('numbers each token once per shop, densely, and stores products as numbers', async () => {
  const shop = await createTestShop(database.ctx);
  const other = await createTestShop(database.ctx);
  await put(shop.shop_id, [item('a', 'Acme', { params: [{ name: 'Size', value: 'M' }] }), item('b', 'Beta')]);
  await put(shop.shop_id, [item('c', 'Acme'), item('d', 'Gamma', { categories: ['c1', 'c2'] })]);
  await put(other.shop_id, [item('a', 'Zeta')]);
  expect(await dictionary(shop.shop_id)).toEqual(['cc1', 'bAcme', 'p\u001f4\u001fSize\u001fM', 'bBeta', 'cc2', 'bGamma']);
  expect(await storedTokens(shop.shop_id)).toEqual({
    a: ['cc1', 'bAcme', 'p\u001f4\u001fSize\u001fM'],
    b: ['cc1', 'bBeta'],
    c: ['cc1', 'bAcme'],
    d: ['cc1', 'cc2', 'bGamma'],
  });
  expect(await dictionary(other.shop_id)).toEqual(['cc1', 'bZeta']);
});

it('forgets numbers handed out by an import that rolled back', async () => {
  const shop = await createTestShop(database.ctx);
  await put(shop.shop_id, [item('a', 'Acme')]);
  await expect(
    database.ctx.sql.begin(async (tx) => {
      await applyProducts(tx, shop.shop_id, 'put', [item('lost', 'Lost brand')]);
      throw new Error('the import fails after applying');
    }),
  ).rejects.toThrow('the import fails');
  // The next import's new token takes the number the rolled-back one had in memory.
  await put(shop.shop_id, [item('b', 'Beta'), item('c', 'Lost brand')]);
  expect(await dictionary(shop.shop_id)).toEqual(['cc1', 'bAcme', 'bBeta', 'bLost brand']);
  expect(await storedTokens(shop.shop_id)).toEqual({ a: ['cc1', 'bAcme'], b: ['cc1', 'bBeta'], c: ['cc1', 'bLost brand'] });
  const index = await buildIndex(database.ctx.sql, shop.shop_id);
  expect([brandOf(index, 'a'), brandOf(index, 'b'), brandOf(index, 'c')]).toEqual([['Acme'], ['Beta'], ['Lost brand']]);
});

it('reads tokens another process added before numbering new ones', async () => {
  const shop = await createTestShop(database.ctx);
  await put(shop.shop_id, [item('a', 'Acme')]); // this process now holds the dictionary in memory
  // Another process's import, as it leaves the table.
  await database.ctx.sql`insert into facet_tokens (shop_id, number, token) values (${shop.shop_id}, 2, 'bElsewhere')`;
  await put(shop.shop_id, [item('b', 'Elsewhere'), item('c', 'Newer')]);
  expect(await dictionary(shop.shop_id)).toEqual(['cc1', 'bAcme', 'bElsewhere', 'bNewer']);
  expect(await storedTokens(shop.shop_id)).toEqual({ a: ['cc1', 'bAcme'], b: ['cc1', 'bElsewhere'], c: ['cc1', 'bNewer'] });
});

it('stores no numbers for an item whose token holds a NUL, and the index reads it from data', async () => {
  const shop = await createTestShop(database.ctx);
  await put(shop.shop_id, [item('a', 'Acme', { params: [{ name: 'Odd', value: 'x\u0000y' }] }), item('b', 'Beta')]);
  expect(await storedTokens(shop.shop_id)).toEqual({ a: null, b: ['cc1', 'bBeta'] });
  const index = await buildIndex(database.ctx.sql, shop.shop_id);
  expect(brandOf(index, 'a')).toEqual(['Acme']);
});

it('keeps numbering after reading back two tokens that the table holds as the same text', async () => {
  const shop = await createTestShop(database.ctx);
  // Two tokens that differ in memory but not as stored (as a lone surrogate would be stored).
  await database.ctx.sql`insert into facet_tokens (shop_id, number, token) values (${shop.shop_id}, 0, 'bSame'), (${shop.shop_id}, 1, 'bSame')`;
  await put(shop.shop_id, [item('a', 'Other')]);
  expect(await dictionary(shop.shop_id)).toEqual(['bSame', 'bSame', 'cc1', 'bOther']);
  expect(await storedTokens(shop.shop_id)).toEqual({ a: ['cc1', 'bOther'] });
});
