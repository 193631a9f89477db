// Both sides of each item limit of CONTRACT §3 (a value at the limit is stored as sent, one past
// it skips the item with its reason), spec 2.4's required fields, and the types of spec 2.4–2.8
// that apply-products.int.test.ts does not try, for items and their location offers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { appliedImports, offerRows, productItem } from '@/lib/testing/applied-imports';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const { put: apply } = appliedImports(() => database.ctx.sql);

/** A PUT of `items` in a new shop, as the applier runs it, and what it stored. */
async function put(items: unknown[]) {
  const shop = await createTestShop(database.ctx);
  const outcome = await apply(shop.shop_id, items);
  const stored = await database.ctx.sql<{ id: string; data: Record<string, unknown>; price: number; rating: number | null; price_margin: number | null }[]>`
    select id, data::jsonb as data, price, rating, price_margin from products where shop_id = ${shop.shop_id} order by id`;
  const offers = await offerRows(database.ctx.sql, shop.shop_id);
  return { outcome, stored, offers, byId: new Map(stored.map((row) => [row.id, row])) };
}

const item = productItem;
const thisYear = new Date().getFullYear();

describe('item limits', () => {
  it('stores values at each limit as sent', async () => {
    const { outcome, byId } = await put([
      item('price', { price: 0.01 }),
      item('picture', { picture: `https://s.example/${'p'.repeat(500 - 'https://s.example/'.length)}` }),
      item('i'.repeat(64)),
      item('name', { name: 'n'.repeat(255) }),
      item('low', { rating: 1, price_margin: 0, seasonality: [1, 12] }),
      item('high', { rating: 5, price_margin: 100, seasonality: [12] }),
      item('year', { book: { year: thisYear - 1 } }),
      item('oldest', { book: { year: 1701 } }),
    ]);
    expect(outcome.errors).toEqual([]);
    expect(outcome.applied).toBe(8);
    expect(byId.get('price')!.price).toBe(0.01);
    expect((byId.get('picture')!.data.picture as string).length).toBe(500);
    expect(byId.has('i'.repeat(64))).toBe(true);
    expect(byId.get('name')!.data.name).toBe('n'.repeat(255));
    expect(byId.get('low')).toMatchObject({ rating: 1, price_margin: 0, data: { seasonality: [1, 12] } });
    expect(byId.get('high')).toMatchObject({ rating: 5, price_margin: 100, data: { seasonality: [12] } });
    expect(byId.get('year')!.data.book).toEqual({ year: thisYear - 1 });
    expect(byId.get('oldest')!.data.book).toEqual({ year: 1701 });
  });

  it('skips values just past each limit, with the reason', async () => {
    const { outcome, stored } = await put([
      item('ok'),
      item('negative', { price: -1 }),
      item('season', { seasonality: [13] }),
      item('low-rating', { rating: 0.5 }),
      item('margin', { price_margin: -1 }),
      item('year', { book: { year: 1700 } }),
    ]);
    expect(outcome.errors).toEqual([
      { item_id: 'negative', position: 1, message: 'price must be greater than 0' },
      { item_id: 'season', position: 2, message: 'seasonality values must be 1 to 12' },
      { item_id: 'low-rating', position: 3, message: 'rating must be 1 to 5' },
      { item_id: 'margin', position: 4, message: 'price_margin must be 0 to 100' },
      { item_id: 'year', position: 5, message: 'book.year must be above 1700 and below the current year' },
    ]);
    expect(stored.map((row) => row.id)).toEqual(['ok']);
  });

  it('skips an item missing any field spec 2.4 requires, naming it', async () => {
    const without = (field: string) => {
      const full: Record<string, unknown> = item(`no-${field}`);
      delete full[field];
      return full;
    };
    const { outcome, stored } = await put([item('ok'), ...['categories', 'picture', 'name', 'price', 'url'].map(without)]);
    expect(outcome.applied).toBe(1);
    expect(outcome.errors).toEqual([
      { item_id: 'no-categories', position: 1, message: 'categories is required' },
      { item_id: 'no-picture', position: 2, message: 'picture is required' },
      { item_id: 'no-name', position: 3, message: 'name is required' },
      { item_id: 'no-price', position: 4, message: 'price is required' },
      { item_id: 'no-url', position: 5, message: 'url is required' },
    ]);
    expect(stored.map((row) => row.id)).toEqual(['ok']);
  });
});

describe('item types', () => {
  it('skips wrong types in item fields and niche sections, naming the field', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['is_new', { is_new: 'yes' }],
      ['stock_quantity', { stock_quantity: 2.5 }],
      ['installment', { installment: 'three' }],
      ['date', { date: 'last tuesday' }],
      ['cosmetic.hypoallergenic', { cosmetic: { hypoallergenic: 'no' } }],
      ['pharmacy.volumes', { pharmacy: { volumes: [{ value: 'big', price: 10 }] } }],
      ['fashion.colors', { fashion: { colors: 'red' } }],
      ['params', { params: { name: 'Color', value: ['red'] } }],
      ['seasonality', { seasonality: ['may'] }],
    ];
    const { outcome, stored } = await put([item('ok'), ...cases.map(([field, extra]) => item(field, extra))]);
    expect(outcome.applied).toBe(1);
    expect(outcome.errors.map((error) => [error.item_id, error.message])).toEqual([
      ['is_new', 'is_new must be true or false'],
      ['stock_quantity', 'stock_quantity must be an integer'],
      ['installment', 'installment must be an integer'],
      ['date', 'date must be an ISO 8601 date'],
      ['cosmetic.hypoallergenic', 'cosmetic.hypoallergenic must be true or false'],
      ['pharmacy.volumes', 'pharmacy.volumes[0].value must be a number'],
      ['fashion.colors', 'fashion.colors must be an array of {color, picture}'],
      ['params', 'params must be an array of {name, value}'],
      ['seasonality', 'seasonality[0] must be an integer'],
    ]);
    expect(stored.map((row) => row.id)).toEqual(['ok']);
  });

  it('stores location offers as sent and skips an item whose offer breaks spec 2.5', async () => {
    const good = item('good', {
      locations: [
        { location: 'a', price: 90.5, oldprice: 120, stock_quantity: 3, weight: 2, sizes: ['S'], delivery_types: { store: 1, delivery: 0, shop: 4 } },
        { location: 'b' },
      ],
    });
    const bad: [string, Record<string, unknown>][] = [
      ['no-location', { price: 10 }],
      ['zero-price', { location: 'a', price: 0 }],
      ['text-stock', { location: 'a', stock_quantity: 'many' }],
      ['text-delivery', { location: 'a', delivery_types: { store: 'yes' } }],
    ];
    const { outcome, stored, offers } = await put([good, ...bad.map(([id, offer]) => item(id, { locations: [offer] }))]);
    expect(outcome.applied).toBe(1);
    expect(outcome.errors.map((error) => [error.item_id, error.message])).toEqual([
      ['no-location', 'locations[0].location is required'],
      ['zero-price', 'locations[0].price must be greater than 0'],
      ['text-stock', 'locations[0].stock_quantity must be an integer'],
      ['text-delivery', 'locations[0].delivery_types.store must be an integer'],
    ]);
    expect(stored.map((row) => row.id)).toEqual(['good']);
    // The offers as sent, in the item's data.
    expect(stored[0].data.locations).toEqual((good as Record<string, unknown>).locations);
    expect(offers).toEqual([
      { product_id: 'good', location_id: 'a', price: 90.5, oldprice: 120, discount_percent: 24, stock_quantity: 3 },
      // No price: the item's, as CONTRACT §3 says.
      { product_id: 'good', location_id: 'b', price: 100, oldprice: null, discount_percent: 0, stock_quantity: null },
    ]);
  });
});
