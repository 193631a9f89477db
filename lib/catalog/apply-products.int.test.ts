import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyTree } from './apply-tree';
import { applyAvailability, applyProducts } from './apply-products';
import { productsChangedSince } from './changes';
import { forgetStates, knownStatesAt, noteCommitted } from '@/lib/imports/pipeline/known-states';
import { freeSlots, prepareAhead, setPrepareOnWorker } from '@/lib/imports/pipeline/prepare-ahead';
import { storeProducts } from '@/lib/imports/pipeline/store';
import type { PreparedBatch } from './prepared-batch';
import { validateAndPrepare } from './prepared-items';
import { facetTokenList } from '@/lib/catalog/facet-tokens';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { appliedImports, offerRows, productItem, sentItemsOf } from '@/lib/testing/applied-imports';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const { committed, putText, put, availability } = appliedImports(() => database.ctx.sql);
const item = productItem;

async function rows(shopId: string) {
  return database.ctx.sql<Record<string, unknown>[]>`
    select p.id, group_id, name, price, oldprice, discount_percent, brand, merchants, categories, st.available, stock_quantity,
           rating, price_margin, sales_rate, data::jsonb as data, first_added_at::text as first_added_at, creation_date::text as creation_date, p.version
      from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
     where p.shop_id = ${shopId} order by p.id`;
}

const offers = (shopId: string) => offerRows(database.ctx.sql, shopId);

describe('PUT products', () => {
  it('stores valid items, skips invalid ones with id, position and reason', async () => {
    const shop = await createTestShop(database.ctx);
    const outcome = await put(shop.shop_id, [
      item('a'),
      item('b', { price: 0 }),
      item('c', { picture: 'x'.repeat(501) }),
      item('d', { seasonality: [0, 5] }),
      item('e', { rating: 6 }),
      item('f', { price_margin: 101 }),
      item('g', { book: { year: 1700 } }),
      item('h'.repeat(65)),
      item('i', { name: 'n'.repeat(256) }),
      { name: 'no id', price: 1, url: 'u', picture: 'p', categories: [] },
      item('j', { price: '100' }),
      item('k', { book: { year: new Date().getFullYear() } }),
      item('l', { book: { year: 1999 } }),
    ]);
    expect(outcome.applied).toBe(2);
    expect(outcome.rejected).toBe(11);
    expect(outcome.errors).toEqual([
      { item_id: 'b', position: 1, message: 'price must be greater than 0' },
      { item_id: 'c', position: 2, message: 'picture must be at most 500 characters' },
      { item_id: 'd', position: 3, message: 'seasonality values must be 1 to 12' },
      { item_id: 'e', position: 4, message: 'rating must be 1 to 5' },
      { item_id: 'f', position: 5, message: 'price_margin must be 0 to 100' },
      { item_id: 'g', position: 6, message: 'book.year must be above 1700 and below the current year' },
      { item_id: 'h'.repeat(65), position: 7, message: 'id must be at most 64 characters' },
      { item_id: 'i', position: 8, message: 'name must be at most 255 characters' },
      { item_id: undefined, position: 9, message: 'id is required' },
      { item_id: 'j', position: 10, message: 'price must be a number' },
      { item_id: 'k', position: 11, message: 'book.year must be above 1700 and below the current year' },
    ]);
    expect((await rows(shop.shop_id)).map((r) => r.id)).toEqual(['a', 'l']);
  });

  it('applies CONTRACT §3 coercions: numeric ids, available as a count, merchant as a string, gift as a Boolean', async () => {
    const shop = await createTestShop(database.ctx);
    const outcome = await put(shop.shop_id, [
      { id: 101, name: 'Magento item', price: 10, url: 'u', picture: 'p', categories: [7, '8'], available: 0, merchant: 'Acme', gift: true },
      { id: 102, name: 'Shopware item', price: 11, url: 'u', picture: 'p', categories: [7], available: 5 },
      { id: 103, name: 'Default', price: 12, url: 'u', picture: 'p', categories: [7] },
    ]);
    expect(outcome.rejected).toBe(0);
    const stored = await rows(shop.shop_id);
    expect(stored.map((r) => [r.id, r.available, r.categories, r.merchants])).toEqual([
      ['101', false, ['7', '8'], ['Acme']],
      ['102', true, ['7'], null],
      ['103', true, ['7'], null],
    ]);
    expect((stored[0].data as Record<string, unknown>).gift).toBe(true);
  });

  it('computes discount_percent at the root and per location, offers inheriting price and oldprice', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [
      item('d1', { price: 71, oldprice: 100, locations: [{ location: 'l1' }, { location: 'l2', price: 50 }, { location: 'l3', oldprice: 80, price: 90 }, { location: 'l4', discount_percent: 7 }] }),
      item('d2', { price: 80, oldprice: 100, discount_percent: 33 }),
      item('d3', { price: 120, oldprice: 100 }),
    ]);
    const stored = await rows(shop.shop_id);
    expect(stored.map((r) => [r.id, r.discount_percent])).toEqual([
      ['d1', 29],
      ['d2', 33],
      ['d3', 0],
    ]);
    expect((await offers(shop.shop_id)).map((o) => [o.location_id, o.price, o.oldprice, o.discount_percent])).toEqual([
      ['l1', 71, 100, 29],
      ['l2', 50, 100, 50],
      ['l3', 90, 80, 0],
      ['l4', 71, 100, 7],
    ]);
  });

  it('drops params with an empty name, keeps searchable:false params', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [
      item('p1', {
        params: [
          { name: 'Color', value: ['red', 'blue'], priority: 2 },
          { name: '', value: ['x'] },
          { name: '   ', value: ['y'] },
          { name: 'SKU', value: ['123'], searchable: false },
          { name: 'Waterproof', value: [true] },
        ],
      }),
    ]);
    const [row] = await rows(shop.shop_id);
    expect((row.data as { params: unknown[] }).params).toEqual([
      { name: 'Color', value: ['red', 'blue'], priority: 2 },
      { name: 'SKU', value: ['123'], searchable: false },
      { name: 'Waterproof', value: [true] },
    ]);
  });

  it('replaces the stored product, keeping sales_rate and the first-added date; never disables others', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('r1', { brand: 'Old', description: 'gone soon', oldprice: 150 }), item('r2')]);
    await database.ctx.sql`update products set sales_rate = 42 where shop_id = ${shop.shop_id} and id = 'r1'`;
    const [before] = await rows(shop.shop_id);
    await put(shop.shop_id, [item('r1', { brand: 'New', price: 90 })]);
    const [after, other] = await rows(shop.shop_id);
    expect(after).toMatchObject({ brand: 'New', price: 90, oldprice: null, discount_percent: 0, sales_rate: 42, first_added_at: before.first_added_at, available: true });
    expect((after.data as Record<string, unknown>).description).toBeUndefined();
    expect(other).toMatchObject({ id: 'r2', available: true });
  });

  it('marks a PUT item with available:false not in stock', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('x1', { available: false })]);
    expect((await rows(shop.shop_id))[0].available).toBe(false);
  });

  it('writes nothing for an unchanged re-send and stamps changes with the catalog version', async () => {
    const shop = await createTestShop(database.ctx);
    const first = await put(shop.shop_id, [item('v1'), item('v2')]);
    expect(first.changed).toBe(true);
    const again = await put(shop.shop_id, [item('v1'), item('v2')]);
    expect(again.changed).toBe(false);
    const third = await put(shop.shop_id, [item('v1'), item('v2', { price: 5 })]);
    expect(third.changed).toBe(true);
    const changes = await productsChangedSince(database.ctx.sql, shop.shop_id, first.version!);
    expect(changes.version).toBe(third.version);
    expect(changes.products.map((p) => [p.id, p.version, p.price])).toEqual([['v2', third.version, 5]]);
    expect((await productsChangedSince(database.ctx.sql, shop.shop_id, 0)).products.map((p) => p.id)).toEqual(['v1', 'v2']);
  });

  it('uses the last occurrence of a repeated id, with a warning', async () => {
    const shop = await createTestShop(database.ctx);
    const outcome = await put(shop.shop_id, [item('dup', { price: 1, locations: [{ location: 'a' }] }), item('dup', { price: 2, locations: [{ location: 'b' }] })]);
    expect(outcome.applied).toBe(1);
    expect(outcome.warnings).toContainEqual({ item_id: 'dup', position: 1, message: 'id dup appears more than once; the last one is used' });
    expect((await rows(shop.shop_id)).map((r) => r.price)).toEqual([2]);
    expect((await offers(shop.shop_id)).map((o) => o.location_id)).toEqual(['b']);
  });

  it('warns about unknown categories and locations and empty categories, which never reject', async () => {
    const shop = await createTestShop(database.ctx);
    await database.ctx.sql.begin((tx) => applyTree(tx, shop.shop_id, 'categories', 'replace', [{ id: 'c1', name: 'Known' }]));
    const outcome = await put(shop.shop_id, [item('w1', { categories: ['c1', 'c404'], locations: [{ location: 'nowhere' }] }), item('w2', { categories: [] })]);
    expect(outcome.rejected).toBe(0);
    expect(outcome.warnings).toEqual([
      { item_id: 'w1', position: 0, message: 'category c404 is unknown; the product counts in it once it arrives' },
      { item_id: 'w1', position: 0, message: 'location nowhere is unknown' },
      { item_id: 'w2', position: 1, message: 'categories is empty; the product is in no category' },
    ]);
    expect((await rows(shop.shop_id)).map((r) => r.categories)).toEqual([['c1', 'c404'], []]);
  });

  it('POST without method loads the listed items and disables every other product', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('o1'), item('o2'), item('o3')]);
    await put(shop.shop_id, [item('o2'), item('o4')], 'load');
    expect((await rows(shop.shop_id)).map((r) => [r.id, r.available])).toEqual([
      ['o1', false],
      ['o2', true],
      ['o3', false],
      ['o4', true],
    ]);
  });

  it('keeps shops apart', async () => {
    const one = await createTestShop(database.ctx);
    const two = await createTestShop(database.ctx);
    await Promise.all([put(one.shop_id, [item('same', { price: 1 })]), put(two.shop_id, [item('same', { price: 2 })])]);
    await availability(one.shop_id, 'patch', []);
    expect((await rows(one.shop_id)).map((r) => [r.price, r.available])).toEqual([[1, false]]);
    expect((await rows(two.shop_id)).map((r) => [r.price, r.available])).toEqual([[2, true]]);
  });
});

describe('PATCH and DELETE products', () => {
  it('PATCH marks the listed in stock and every other product not in stock; unknown ids warn', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a1', { available: false }), item('a2'), item('a3')]);
    const outcome = await availability(shop.shop_id, 'patch', ['a1', 'a3', 'ghost', 404]);
    expect(outcome.rejected).toBe(0);
    expect(outcome.warnings.map((w) => w.message)).toEqual(['product 404 is not stored; nothing to mark in stock', 'product ghost is not stored; nothing to mark in stock']);
    expect((await rows(shop.shop_id)).map((r) => [r.id, r.available])).toEqual([
      ['a1', true],
      ['a2', false],
      ['a3', true],
    ]);
  });

  it('DELETE marks only the listed not in stock and rejects entries that are not ids', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('b1'), item('b2')]);
    const outcome = await availability(shop.shop_id, 'delete', ['b1', { id: 'b2' }, '']);
    expect(outcome.rejected).toBe(2);
    expect(outcome.errors[0]).toMatchObject({ position: 1 });
    expect(outcome.errors[0].message).toMatch(/^items\[1\] must be a product id/);
    expect((await rows(shop.shop_id)).map((r) => [r.id, r.available])).toEqual([
      ['b1', false],
      ['b2', true],
    ]);
  });

  it('counts an id listed twice once, warns once about an unknown one, and changes nothing when all is as listed', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('c1'), item('c2'), item('c3')]);
    const patched = await availability(shop.shop_id, 'patch', ['c1', ' c1 ', 'ghost', 'c2', 'ghost', 'c1']);
    expect([patched.itemsTotal, patched.applied, patched.rejected, patched.changed]).toEqual([6, 3, 0, true]);
    expect(patched.warnings.map((w) => w.message)).toEqual(['product ghost is not stored; nothing to mark in stock']);
    expect((await rows(shop.shop_id)).map((r) => r.available)).toEqual([true, true, false]);
    const again = await availability(shop.shop_id, 'patch', ['c2', 'c1']);
    expect([again.applied, again.changed]).toEqual([2, false]);
    const deleted = await availability(shop.shop_id, 'delete', ['c3', 'c2', 'c2']);
    expect([deleted.applied, deleted.changed]).toEqual([2, true]);
    expect((await rows(shop.shop_id)).map((r) => r.available)).toEqual([true, false, false]);
    expect((await availability(shop.shop_id, 'delete', ['c3'])).changed).toBe(false);
  });
});

describe('values PostgreSQL cannot store as sent', () => {
  it('stores lone surrogates and NUL characters cleaned, instead of failing the import', async () => {
    const shop = await createTestShop(database.ctx);
    const outcome = await put(shop.shop_id, [
      item('s1', { name: 'emoji cut \ud83d', description: 'nul\u0000here', 'odd\u0000key': 1 }),
      item('s2', { categories: ['x\u0000'] }),
      { ...item('s3'), id: 'a\u0000b' },
    ]);
    expect(outcome.applied).toBe(1);
    expect(outcome.errors).toEqual([
      { item_id: 's2', position: 1, message: 'categories must not contain NUL characters' },
      { item_id: 'ab', position: 2, message: 'id must not contain NUL characters' },
    ]);
    const [row] = await rows(shop.shop_id);
    expect(row.name).toBe('emoji cut \ufffd');
    expect(row.data).toMatchObject({ name: 'emoji cut \ufffd', description: 'nulhere', oddkey: 1 });
  });

  it('rejects dates outside the years 1 to 9999 and reads zoneless date-times as UTC', async () => {
    const shop = await createTestShop(database.ctx);
    const outcome = await put(shop.shop_id, [item('d1', { creation_date: '9999-12-31T23:00:00-05:00' }), item('d2', { creation_date: '2026-01-01T10:00' })]);
    expect(outcome.errors).toEqual([{ item_id: 'd1', position: 0, message: 'creation_date must be an ISO 8601 date' }]);
    const [{ created }] = await database.ctx.sql<{ created: string }[]>`
      select to_char(creation_date at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as created from products where shop_id = ${shop.shop_id} and id = 'd2'`;
    expect(created).toBe('2026-01-01 10:00');
  });

  it('keeps the last offer of a location listed twice in one item', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('o', { locations: [{ location: 'l', price: 5 }, { location: 'l', price: 7 }] })]);
    expect((await offers(shop.shop_id)).map((o) => [o.location_id, o.price])).toEqual([['l', 7]]);
  });
});

describe('disabling the rest when entries are rejected', () => {
  it('PATCH with rejected entries marks the listed in stock and the unlisted not, leaving a rejected entry’s product as it was', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('k1', { available: false }), item('k2'), item('k3'), item('k4', { available: false })]);
    const outcome = await availability(shop.shop_id, 'patch', ['k1', { id: 'k2' }, { id: 'k4' }, { not: 'an id' }]);
    expect(outcome.rejected).toBe(3);
    expect(outcome.errors.map((e) => e.item_id)).toEqual(['k2', 'k4', undefined]);
    expect((await rows(shop.shop_id)).map((r) => [r.id, r.available])).toEqual([
      ['k1', true],
      ['k2', true],
      ['k3', false],
      ['k4', false],
    ]);
  });

  it('POST load with rejected items marks the unlisted out of stock, leaving a rejected item’s product as it was', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('m1'), item('m2'), item('m3'), item('m4', { available: false })]);
    const outcome = await put(shop.shop_id, [item('m1'), item(' m2 ', { price: -1 }), item('m4', { price: 0 }), { name: 'no id', price: 1, url: 'u', picture: 'p', categories: [] }], 'load');
    expect(outcome.rejected).toBe(3);
    expect((await rows(shop.shop_id)).map((r) => [r.id, r.available])).toEqual([
      ['m1', true],
      ['m2', true],
      ['m3', false],
      ['m4', false],
    ]);
  });
});

describe('items sent again unchanged', () => {
  const state = (shopId: string) =>
    database.ctx.sql<{ id: string; version: number; updated_at: string; source_digest: string | null; available: boolean }[]>`
      select p.id, p.version, p.updated_at::text, st.source_digest, st.available
        from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
       where p.shop_id = ${shopId} order by p.id`;

  it('writes nothing for the same bytes, yet counts them applied and warns as the first time', async () => {
    const shop = await createTestShop(database.ctx);
    const items = [item('a', { categories: ['nowhere'] }), item('b', { available: 0 })];
    await put(shop.shop_id, items);
    const before = await state(shop.shop_id);
    expect(before.every((row) => row.source_digest !== null)).toBe(true);
    const outcome = await put(shop.shop_id, items);
    expect(outcome.applied).toBe(2);
    expect(outcome.changed).toBe(false);
    expect(outcome.warnings).toEqual([{ item_id: 'a', position: 0, message: 'category nowhere is unknown; the product counts in it once it arrives' }, { item_id: 'b', position: 1, message: 'category c1 is unknown; the product counts in it once it arrives' }]);
    expect(await state(shop.shop_id)).toEqual(before);
  });

  it('puts a product taken out of stock back in stock when its unchanged item says so', async () => {
    const shop = await createTestShop(database.ctx);
    const items = [item('a'), item('b', { available: 3 }), item('c', { available: false })];
    await put(shop.shop_id, items);
    await availability(shop.shop_id, 'delete', ['a', 'b']);
    await availability(shop.shop_id, 'patch', ['c']);
    const outcome = await put(shop.shop_id, items);
    expect(outcome.changed).toBe(true);
    expect((await state(shop.shop_id)).map((row) => [row.id, row.available])).toEqual([['a', true], ['b', true], ['c', false]]);
  });

  it('takes the new digest of the same item sent with other spacing, without a new version', async () => {
    const shop = await createTestShop(database.ctx);
    await putText(shop.shop_id, JSON.stringify({ items: [item('a')] }));
    const [before] = await state(shop.shop_id);
    const outcome = await putText(shop.shop_id, JSON.stringify({ items: [item('a')] }, null, 2));
    const [after] = await state(shop.shop_id);
    expect(outcome.changed).toBe(false);
    expect(after.source_digest).not.toBe(before.source_digest);
    expect({ ...after, source_digest: null }).toEqual({ ...before, source_digest: null });
  });

  it('keeps the version of the same item sent with its keys in another order, whose stored text then differs', async () => {
    const shop = await createTestShop(database.ctx);
    const sent = item('a', { params: [{ name: 'colour', value: ['red'] }] });
    await putText(shop.shop_id, JSON.stringify({ items: [sent] }));
    const [before] = await state(shop.shop_id);
    const reordered = Object.fromEntries(Object.entries(sent).reverse());
    const outcome = await putText(shop.shop_id, JSON.stringify({ items: [reordered] }));
    const [after] = await state(shop.shop_id);
    expect(outcome.changed).toBe(false);
    expect(after.source_digest).not.toBe(before.source_digest);
    expect({ ...after, source_digest: null }).toEqual({ ...before, source_digest: null });
    const [{ data }] = await database.ctx.sql<{ data: string }[]>`select data from products where shop_id = ${shop.shop_id}`;
    expect(Object.keys(JSON.parse(data))).toEqual(Object.keys(reordered));
    // A real change in the same spelling moves the version.
    const changed = await putText(shop.shop_id, JSON.stringify({ items: [{ ...reordered, name: 'Renamed' }] }));
    expect(changed.changed).toBe(true);
    expect((await state(shop.shop_id))[0].version).toBeGreaterThan(before.version);
  });

  it('applies a changed item whose id is also sent unchanged earlier in the request, the last one winning', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a', { price: 10 })]);
    const outcome = await put(shop.shop_id, [item('a', { price: 10 }), item('a', { price: 20 })]);
    expect(outcome.warnings).toContainEqual({ item_id: 'a', position: 1, message: 'id a appears more than once; the last one is used' });
    expect((await rows(shop.shop_id)).map((row) => row.price)).toEqual([20]);
    await put(shop.shop_id, [item('a', { price: 30 }), item('a', { price: 10 })]);
    expect((await rows(shop.shop_id)).map((row) => row.price)).toEqual([10]);
  });

  it('keeps unchanged items of a load in stock and takes the unlisted out', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a'), item('b'), item('c')]);
    const outcome = await put(shop.shop_id, [item('a'), item('b')], 'load');
    expect(outcome.applied).toBe(2);
    expect((await state(shop.shop_id)).map((row) => [row.id, row.available])).toEqual([['a', true], ['b', true], ['c', false]]);
  });

  it('validates an item stored without a digest, and stores its digest', async () => {
    const shop = await createTestShop(database.ctx);
    await database.ctx.sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', [item('a')]));
    expect((await state(shop.shop_id))[0].source_digest).toBeNull();
    const outcome = await put(shop.shop_id, [item('a', { price: 5 })]);
    expect(outcome.changed).toBe(true);
    const [row] = await state(shop.shop_id);
    expect(row.source_digest).not.toBeNull();
    expect((await rows(shop.shop_id))[0].price).toBe(5);
  });

  it('takes a product stored without its availability row as stored, and gives it one', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a'), item('b')]);
    await database.ctx.sql`delete from product_state where shop_id = ${shop.shop_id} and product_id = 'a'`;
    // Sent unchanged: its digest was in the row that is gone, so it is validated and upserted
    // (taken for new at first, its row fails to go into products: the import starts again).
    const outcome = await put(shop.shop_id, [item('a', { price: 7 }), item('b'), item('n')]);
    expect(outcome.rejected).toBe(0);
    expect(outcome.changed).toBe(true);
    expect(outcome.applied).toBe(3);
    // Each item's warning once (category c1 is unknown), not again for the first try.
    expect(outcome.warnings.map((warning) => warning.item_id)).toEqual(['a', 'b', 'n']);
    expect((await rows(shop.shop_id)).map((r) => [r.id, r.price, r.available])).toEqual([['a', 7, true], ['b', 100, true], ['n', 100, true]]);
    expect((await state(shop.shop_id)).every((r) => r.source_digest !== null)).toBe(true);
  });

  it('applies a request mixing new products with stored ones changed and unchanged, whichever kind is streamed', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a', { price: 1 }), item('b', { price: 2 })]);
    // Mostly new (new rows streamed, the changed one held for staging), then mostly stored.
    await put(shop.shop_id, [item('a', { price: 10, locations: [{ location: 'l1' }] }), item('b', { price: 2 }), item('c', { price: 3 }), item('d', { price: 4 }), item('e', { price: 5, available: false })]);
    expect((await rows(shop.shop_id)).map((row) => [row.id, row.price, row.available])).toEqual([['a', 10, true], ['b', 2, true], ['c', 3, true], ['d', 4, true], ['e', 5, false]]);
    expect((await offers(shop.shop_id)).map((offer) => [offer.product_id, offer.location_id, offer.price])).toEqual([['a', 'l1', 10]]);
    await put(shop.shop_id, [item('a', { price: 11 }), item('b', { price: 2 }), item('c', { price: 3, available: false }), item('f', { price: 6, locations: [{ location: 'l2', price: 7 }] })]);
    expect((await rows(shop.shop_id)).map((row) => [row.id, row.price, row.available])).toEqual([['a', 11, true], ['b', 2, true], ['c', 3, false], ['d', 4, true], ['e', 5, false], ['f', 6, true]]);
    expect((await offers(shop.shop_id)).map((offer) => [offer.product_id, offer.location_id, offer.price])).toEqual([['f', 'l2', 7]]);
  });
});


describe('the states this process knows', () => {
  const available = (shopId: string) =>
    database.ctx.sql<{ id: string; available: boolean }[]>`select product_id as id, available from product_state where shop_id = ${shopId} order by product_id`;

  it('knows every product of a shop first seen empty, as stored', async () => {
    const shop = await createTestShop(database.ctx);
    const outcome = await put(shop.shop_id, [item('a'), item('b', { available: false })]);
    const known = knownStatesAt(shop.shop_id, outcome.version!);
    expect(known?.complete).toBe(true);
    const stored = await database.ctx.sql<{ id: string; source_digest: string; available: boolean }[]>`
      select product_id as id, source_digest, available from product_state where shop_id = ${shop.shop_id} order by product_id`;
    expect(known!.states.size).toBe(stored.length);
    const states = known!.states;
    expect(stored.map((row) => ({ id: row.id, source_digest: states.digest(states.find(row.id)), available: states.available(states.find(row.id)) }))).toEqual(stored.map((row) => ({ ...row })));
  });

  it('asks PostgreSQL again after a change it did not see commit (another process)', async () => {
    const shop = await createTestShop(database.ctx);
    const items = [item('a'), item('b')];
    await put(shop.shop_id, items);
    // Applied as another process would: this one is not told.
    await database.ctx.sql.begin((tx) => applyAvailability(tx, shop.shop_id, 'delete', ['a']));
    const outcome = await put(shop.shop_id, items);
    expect(outcome.changed).toBe(true);
    expect(await available(shop.shop_id)).toEqual([{ id: 'a', available: true }, { id: 'b', available: true }]);
    // Known again from what was looked up, though not complete.
    expect(knownStatesAt(shop.shop_id, outcome.version!)?.complete).toBe(false);
    const states = knownStatesAt(shop.shop_id, outcome.version!)!.states;
    expect(states.available(states.find('a'))).toBe(true);
  });

  it('follows a load that takes the unlisted out, and a PATCH, into the next re-send', async () => {
    const shop = await createTestShop(database.ctx);
    const items = [item('a'), item('b'), item('c')];
    await put(shop.shop_id, items);
    await put(shop.shop_id, [item('a')], 'load');
    let outcome = await put(shop.shop_id, items);
    expect(outcome.changed).toBe(true);
    expect((await available(shop.shop_id)).map((row) => row.available)).toEqual([true, true, true]);
    await availability(shop.shop_id, 'patch', ['b']);
    outcome = await put(shop.shop_id, [item('b')]);
    expect(outcome.changed).toBe(false);
    expect((await available(shop.shop_id)).map((row) => row.available)).toEqual([false, true, false]);
    outcome = await put(shop.shop_id, items);
    expect(outcome.changed).toBe(true);
    expect((await available(shop.shop_id)).map((row) => row.available)).toEqual([true, true, true]);
  });

  it('knows nothing of an import that rolled back', async () => {
    const shop = await createTestShop(database.ctx);
    const first = await put(shop.shop_id, [item('a')]);
    await expect(
      database.ctx.sql.begin(async (tx) => {
        await applyProducts(tx, shop.shop_id, 'put', [item('a', { available: false }), item('n')]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    noteCommitted(shop.shop_id, undefined);
    expect(knownStatesAt(shop.shop_id, first.version!)?.states.find('n')).toBe(-1);
    await put(shop.shop_id, [item('a'), item('n')]);
    expect(await available(shop.shop_id)).toEqual([{ id: 'a', available: true }, { id: 'n', available: true }]);
  });
});

describe.each([
  ['on a thread of their own', true],
  ["on the applier's thread", false],
])('items prepared ahead %s', (_, onWorker) => {
  beforeAll(() => setPrepareOnWorker(onWorker));
  afterAll(() => setPrepareOnWorker(true));

  /**
   * As the applier does it with the body read ahead: prepared while nothing else runs, then
   * applied. `made()`: where the batch the applier took was made (undefined: it took none).
   */
  async function putAhead(shopId: string, items: unknown[], mode: 'put' | 'load' = 'put') {
    const text = JSON.stringify({ shop_id: shopId, items });
    const sent = sentItemsOf(text);
    const ahead = prepareAhead(shopId, sent, Buffer.byteLength(text));
    let taken: PreparedBatch | undefined;
    const take = async () => (taken = await ahead.take());
    return { prepared: ahead.done, apply: () => committed(shopId, (tx) => storeProducts(tx, shopId, mode, sent, undefined, { take })), made: () => taken && (taken.madeHere ? 'here' : 'elsewhere') };
  }

  const facetTexts = (shopId: string) =>
    database.ctx.sql<{ id: string; tokens: string[] | null }[]>`
      select p.id, (select array_agg(t.token order by n.ord) from unnest(string_to_array(p.facet_values, ' ')::int[]) with ordinality n (number, ord)
                     join facet_tokens t on t.shop_id = p.shop_id and t.number = n.number) as tokens
        from products p where p.shop_id = ${shopId} order by p.id`;

  it('stores what preparing each item as it is reached stores: rows, offers, facet tokens, problems', async () => {
    const [inline, ahead] = [await createTestShop(database.ctx), await createTestShop(database.ctx)];
    const offer = (location: string, extra: Record<string, unknown> = {}) => ({ location, price: 90, ...extra });
    const items = [
      item('a', { brand: 'Acme', params: [{ name: 'Size', value: 'M' }, { name: '', value: 'dropped' }], locations: [offer('l1'), offer('l2', { stock_quantity: 3 })] }),
      item('b', { price: -1 }),
      item('c', { fashion: { gender: 'women', sizes: ['S', 'M'], colors: [{ color: 'Red' }] }, brand: 'Zeta' }),
      item(7 as unknown as string, { available: 2, categories: ['c2', 'c1'] }),
      item('a', { name: 'A again', brand: 'Acme' }),
    ];
    // Tokens in the shops' dictionaries already: the batch's numbers are not the shop's.
    for (const shop of [inline, ahead]) await put(shop.shop_id, [item('z', { brand: 'Before', categories: ['c9'] })]);
    const first = await put(inline.shop_id, items);
    const { prepared, apply, made } = await putAhead(ahead.shop_id, items);
    await prepared;
    const second = await apply();
    expect(made()).toBe(onWorker ? 'elsewhere' : 'here');
    expect({ errors: second.errors, warnings: second.warnings, applied: second.applied }).toEqual({ errors: first.errors, warnings: first.warnings, applied: first.applied });
    expect(second.errors).toHaveLength(1);
    const stored = async (shopId: string) => (await rows(shopId)).map(({ first_added_at: _, ...row }) => row);
    expect(await stored(ahead.shop_id)).toEqual(await stored(inline.shop_id));
    expect(await offers(ahead.shop_id)).toEqual(await offers(inline.shop_id));
    const tokens = await facetTexts(ahead.shop_id);
    expect(tokens).toEqual(await facetTexts(inline.shop_id));
    // The tokens each stored item carries, in order.
    const expectedTokens = ['7', 'a', 'c', 'z'].map((id) => {
      const valid = validateAndPrepare([item('z', { brand: 'Before', categories: ['c9'] }), ...items].findLast((sent) => String(sent.id) === id), 0);
      return { id, tokens: valid.ok ? facetTokenList(valid.prepared.facets) : null };
    });
    expect(tokens).toEqual(expectedTokens);
    expect(tokens.find((row) => row.id === 'c')?.tokens).toContain('bZeta');
  });

  it('leaves to the applier an item it guessed unchanged that changed meanwhile', async () => {
    const shop = await createTestShop(database.ctx);
    await put(shop.shop_id, [item('a'), item('b')]);
    // Sent again as stored: guessed unchanged, not prepared.
    const again = await putAhead(shop.shop_id, [item('a'), item('b', { name: 'B new' })]);
    await again.prepared;
    // Then changed by an import applied before it.
    await put(shop.shop_id, [item('a', { name: 'A changed' })]);
    const outcome = await again.apply();
    expect(outcome.changed).toBe(true);
    expect((await rows(shop.shop_id)).map((row) => [row.id, row.name])).toEqual([['a', 'Item a'], ['b', 'B new']]);
  });

  it('writes nothing for an item prepared ahead that turns out sent unchanged', async () => {
    const shop = await createTestShop(database.ctx);
    const items = [item('a'), item('b')];
    await put(shop.shop_id, items);
    const before = await rows(shop.shop_id);
    // Not known here (another process, say): every item is prepared ahead.
    forgetStates(shop.shop_id);
    const again = await putAhead(shop.shop_id, items);
    await again.prepared;
    const outcome = await again.apply();
    expect(outcome.changed).toBe(false);
    expect(outcome.applied).toBe(2);
    expect(await rows(shop.shop_id)).toEqual(before);
  });

  it('stores each of more imports prepared ahead at once than the thread has shared memory for as it stores them prepared as reached', async () => {
    const [inline, ahead] = [await createTestShop(database.ctx), await createTestShop(database.ctx)];
    // Overlapping ids: later imports update what earlier ones stored.
    const imports = Array.from({ length: 7 }, (_, k) =>
      Array.from({ length: 600 }, (_, n) => item(`p${k * 250 + n}`, { name: `Item ${k}/${n}`, brand: `B${(k + n) % 5}`, params: [{ name: 'k', value: String(k) }] })),
    );
    for (const items of imports) await put(inline.shop_id, items);
    const slots = freeSlots();
    // Six read ahead before any is applied: some find no free slot.
    const early = imports.slice(0, 6).map((items) => putAhead(ahead.shop_id, items));
    await Promise.all(early.map(async (each) => (await each).prepared));
    if (onWorker) expect(freeSlots()).toBe(0);
    for (const each of early) await (await each).apply();
    // Every slot given back once its import is applied, and used again.
    expect(freeSlots()).toBe(slots);
    const last = await putAhead(ahead.shop_id, imports[6]);
    await last.prepared;
    await last.apply();
    expect(last.made()).toBe(onWorker ? 'elsewhere' : 'here');
    expect(freeSlots()).toBe(slots);
    const stored = async (shopId: string) => (await rows(shopId)).map(({ first_added_at: _, version: __, ...row }) => row);
    const expected = await stored(inline.shop_id);
    expect(expected).toHaveLength(6 * 250 + 600);
    expect(await stored(ahead.shop_id)).toEqual(expected);
    expect(await facetTexts(ahead.shop_id)).toEqual(await facetTexts(inline.shop_id));
  });

  it('stops preparing once the applier takes the items, which it prepares from there', async () => {
    const shop = await createTestShop(database.ctx);
    const items = Array.from({ length: 3000 }, (_, n) => item(`p${n}`, { params: [{ name: 'n', value: String(n % 7) }] }));
    const { prepared, apply } = await putAhead(shop.shop_id, items);
    // Applied at once: preparing ahead has had a turn or none.
    const outcome = await apply();
    await prepared;
    expect(outcome.applied).toBe(3000);
    const stored = await rows(shop.shop_id);
    expect(stored).toHaveLength(3000);
    expect(stored.find((row) => row.id === 'p2999')?.name).toBe('Item p2999');
  });
});
