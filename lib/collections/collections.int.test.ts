import { beforeAll, describe, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { createCollection, updateCollection } from './manage-collections';

const fixture = serverWithDatabase();
let shop: TestShop;

const item = (fields: Record<string, unknown>) => ({ picture: `https://cdn.example/${fields.id}.jpg`, url: `https://shop.example/p/${fields.id}?ref=feed#top`, ...fields });

async function importAll(method: string, resource: string, fields: Record<string, unknown>) {
  const { response, importId } = await sendImport(fixture.server.url, method, resource, shop, fields);
  expect(response.status).toBe(204);
  expect((await waitForImport(fixture.server.url, shop, importId!)).status).toBe('done');
}

async function collection(id: number | string, params: Record<string, string> = {}) {
  const query = new URLSearchParams({ shop_id: shop.shop_id, ...params });
  const response = await fetch(`${fixture.server.url}/collection/${id}?${query}`);
  return { status: response.status, body: await response.json() };
}

const create = async (rules: unknown, name = 'Picks') => (await createCollection(fixture.database.ctx, shop.shop_id, { name, rules })).id;
const ids = async (id: number, params: Record<string, string> = {}) => ((await collection(id, params)).body.products as { id: string }[]).map((p) => p.id);

beforeAll(async () => {
  shop = await createTestShop(fixture.database.ctx, { currency: 'EUR' });
  await importAll('POST', 'categories', {
    categories: [
      { id: 'c1', name: 'Clothes', parent: null },
      { id: 'c2', name: 'Shoes', parent: 'c1' },
      { id: 'c3', name: 'Books', parent: null },
    ],
  });
  await importAll('POST', 'locations', {
    locations: [
      { id: 'north', name: 'North', parent: null },
      { id: 'north-1', name: 'North store', parent: 'north' },
      { id: 'south', name: 'South', parent: null },
    ],
  });
  await importAll('PUT', 'products', {
    items: [
      item({ id: 'a', name: 'Boot', categories: ['c2'], brand: 'Acme', price: 100, oldprice: 125, params: [{ name: 'Color', value: ['red'] }] }),
      item({ id: 'b', name: 'Sneaker', categories: ['c2'], brand: 'ACME', price: 60, params: [{ name: 'Color', value: ['blue'] }] }),
      item({ id: 'c', name: 'Sandal', categories: ['c2'], brand: 'Beta', price: 30, locations: [{ location: 'north-1', price: 25 }] }),
      item({ id: 'd', name: 'Novel', categories: ['c3'], brand: 'Reader', price: 12.5, locations: [{ location: 'south' }] }),
      item({ id: 'e', name: 'Old boot', categories: ['c2'], brand: 'Acme', price: 90, available: false }),
    ],
  });
  // Sales rates are the service's own figures; set before the shop's index is first built.
  for (const [id, rate] of [['a', 5], ['b', 9], ['c', 9], ['d', 1]] as const) {
    await fixture.database.ctx.sql`update products set sales_rate = ${rate} where shop_id = ${shop.shop_id} and id = ${id}`;
  }
});

describe('GET /collection/:id', () => {
  it('lists in-stock products of any group, each in its first group, by group then sales rate, limits kept', async () => {
    const id = await create({ groups: [{ categories: ['c1'], limit: 2 }, { brands: ['reader', 'acme'] }] });
    const { status, body } = await collection(id);
    expect(status).toBe(200);
    // Group 0: b and c (rate 9, by id), a cut by the limit but still group 0's; group 1: d (a is taken).
    expect(body.products.map((p: { id: string; group_id: string }) => [p.id, p.group_id])).toEqual([
      ['b', '0'],
      ['c', '0'],
      ['d', '1'],
    ]);
  });

  it('answers every field of spec 2.9 with the listing value types and tracking links', async () => {
    const id = await create({ groups: [{ ids: ['a'] }] });
    const [product] = (await collection(id)).body.products;
    expect(product).toMatchObject({
      id: 'a',
      _id: 'a',
      name: 'Boot',
      url: `https://shop.example/p/a?ref=feed&recommended_by=collection&recommended_code=${id}#top`,
      url_handle: `/p/a?ref=feed&recommended_by=collection&recommended_code=${id}#top`,
      description: '',
      category_ids: ['c2'],
      categories: ['c2'],
      brand: 'Acme',
      sales_rate: 5,
      relative_sales_rate: 56,
      picture: 'https://cdn.example/a.jpg',
      image_url: 'https://cdn.example/a.jpg',
      image_url_handle: '/a.jpg',
      price: 100,
      price_full: 100,
      price_formatted: '€100',
      price_full_formatted: '€100.00',
      currency: '€',
      group_id: '0',
    });
    expect(Object.keys(product.image_url_resized)).toEqual(['120', '140', '160', '180', '200', '220', '310', '520', 'original']);
  });

  it('applies every rule field', async () => {
    expect(await ids(await create({ groups: [{ price_min: 50, price_max: 100 }] }))).toEqual(['b', 'a']);
    expect(await ids(await create({ groups: [{ params: { Color: ['red'] } }] }))).toEqual(['a']);
    expect(await ids(await create({ groups: [{ params: { Size: ['42'] } }] }))).toEqual([]);
    expect(await ids(await create({ groups: [{ discount: true }] }))).toEqual(['a']);
    expect(await ids(await create({ groups: [{ discount: false, exclude_ids: ['b'] }] }))).toEqual(['c', 'd']);
    expect(await ids(await create({ groups: [{ ids: ['e', 'd', 'zzz'] }] }))).toEqual(['d']);
    expect(await ids(await create({ groups: [{ brands: ['acme'], categories: ['c2'] }] }))).toEqual(['b', 'a']);
  });

  it('keeps to products in stock in the location (and its descendants), at that location price', async () => {
    const id = await create({ groups: [{ categories: ['c1', 'c3'] }] });
    expect(await ids(id)).toEqual(['b', 'c', 'a', 'd']);
    expect(await ids(id, { location: 'north' })).toEqual(['b', 'c', 'a']);
    expect(await ids(id, { location: 'south' })).toEqual(['b', 'a', 'd']);
    const north = (await collection(id, { location: 'north' })).body.products.find((p: { id: string }) => p.id === 'c');
    expect(north).toMatchObject({ price: 25, price_full: 25 });
    expect(await ids(await create({ groups: [{ price_max: 26 }] }), { location: 'north' })).toEqual(['c']);
  });

  it('answers format=v2 with the collection and its template', async () => {
    const id = await create({ groups: [{ ids: ['d'] }] }, 'Reading <list>');
    const { body } = await collection(id, { format: 'v2' });
    expect(body.status).toBe('success');
    expect(body.payload.product_collection).toMatchObject({ id, name: 'Reading <list>' });
    expect(body.payload.product_collection.products.map((p: { id: string }) => p.id)).toEqual(['d']);
    expect(body.payload.product_collection.html).toContain('Reading &lt;list&gt;');
    expect(body.payload.product_collection.html).toContain('Novel');
    // Spec 2.9: price rounded to whole units; price_full exact.
    expect(body.payload.product_collection.products[0]).toMatchObject({ price: 13, price_formatted: '€13', price_full: 12.5, price_full_formatted: '€12.50' });
  });

  it('answers unknown, malformed ids and unknown shops with the error body', async () => {
    expect(await collection(999_999)).toEqual({ status: 404, body: { status: 'error', payload: { message: 'Collection not found' } } });
    for (const id of ['0', '-1', '1.5', '99999999999']) {
      const refused = await collection(id);
      expect(refused.status, id).toBe(400);
    }
    const noId = await fetch(`${fixture.server.url}/collection?shop_id=${shop.shop_id}`);
    expect(noId.status).toBe(400);
    expect((await noId.json()).payload.message).toContain('Collection id is required');
    const bad = await collection('abc');
    expect(bad.status).toBe(400);
    expect(bad.body.payload.message).toContain('Collection id must be a positive integer');
    const unknown = await fetch(`${fixture.server.url}/collection/1?shop_id=nope`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ status: 'error', payload: { message: 'Shop not found' } });
    const anonymous = await fetch(`${fixture.server.url}/collection/1`);
    expect(anonymous.status).toBe(400);
    expect((await anonymous.json()).payload.message).toBe('shop_id is required');
    // Another shop's collection is not found through this shop.
    const other = await createTestShop(fixture.database.ctx);
    const theirs = (await createCollection(fixture.database.ctx, other.shop_id, { name: 'Theirs', rules: { groups: [{}] } })).id;
    expect((await collection(theirs)).status).toBe(404);
  });

  it('refuses rules that are not rule groups, naming the problem', async () => {
    await expect(create({ groups: [] })).rejects.toThrow('groups must list at least one rule group');
    await expect(create({ groups: [{ limit: 0 }] })).rejects.toThrow('limit must be at least 1');
    await expect(create({ groups: [{ colour: ['red'] }] })).rejects.toThrow(/colour/);
    await expect(create({ groups: [{ brands: [] }] })).rejects.toThrow('brands must list at least one brand');
    // Text jsonb cannot hold is refused by name, not left to fail in PostgreSQL (a 500).
    await expect(create({ groups: [{ brands: ['a\u0000'] }] })).rejects.toThrow('rules must not contain NUL characters or half of a UTF-16 surrogate pair');
    await expect(create({ groups: [{ params: { 'Col\ud83d': ['red'] } }] })).rejects.toThrow('rules must not contain NUL characters');
    await expect(create({ groups: [{ limit: 1 }] }, 'a\u0000b')).rejects.toThrow('name must not contain NUL characters');
  });

  // Runs last: it changes the shop's settings and a product.
  it('answers anew once the collection, the shop’s settings or the catalog changed (answers are kept per index version)', async () => {
    const id = await create({ groups: [{ brands: ['beta', 'reader'] }] });
    const first = await collection(id);
    expect(first.body.products.map((p: { id: string }) => p.id)).toEqual(['c', 'd']);
    expect(await collection(id)).toEqual(first);
    // Changed by another process (the server reads collections and shops again within 2 s).
    await updateCollection(fixture.database.ctx, shop.shop_id, id, { name: 'Picks', rules: { groups: [{ brands: ['reader'] }] } });
    await fixture.database.ctx.sql`update shops set currency_symbol = 'EUR ' where id = ${shop.shop_id}`;
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const second = await collection(id);
    expect(second.body.products.map((p: { id: string; price_full_formatted: string }) => [p.id, p.price_full_formatted])).toEqual([['d', 'EUR 12.50']]);
    await importAll('POST', 'products', { items: [item({ id: 'd', name: 'Novel', categories: ['c3'], brand: 'Reader', price: 14, locations: [{ location: 'south' }] })] });
    const deadline = Date.now() + 10_000;
    let third = await collection(id);
    while (third.body.products[0].price_full !== 14 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      third = await collection(id);
    }
    expect(third.body.products[0]).toMatchObject({ id: 'd', price_full: 14, price_full_formatted: 'EUR 14.00' });
  });
});
