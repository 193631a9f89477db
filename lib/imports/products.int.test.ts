import { describe, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { offerRows } from '@/lib/testing/applied-imports';
import { createTestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase();

// Every field of spec 2.4–2.8, each set.
const fullItem = {
  id: 'full-1',
  available: true,
  categories: ['c1', 'c2'],
  picture: 'https://cdn.example/full-1.jpg',
  name: 'Trail\tshoe \\ "pro"',
  price: 71.5,
  url: 'https://shop.example/p/full-1?utm=x#reviews',
  oldprice: 100,
  currency: 'EUR',
  params: [
    { name: 'Color', value: ['red', 'blue'], unit: null, priority: 3, searchable: true },
    { name: 'Weight', value: [320], unit: 'g', priority: 1 },
    { name: 'Internal', value: ['x'], searchable: false },
  ],
  group_id: 'g-1',
  type_prefix: 'Shoe',
  brand: 'Acme',
  brand_picture: 'https://cdn.example/acme.png',
  vendor_code: 'VC-1',
  barcode: '4600000000001',
  model: 'TR-1',
  description: 'Light "trail" shoe, back\\slash, tab\there,\nnew line, unicode ✓',
  merchant: ['Acme Store', 'Partner'],
  tags: ['trail', 'running'],
  stock_quantity: 12,
  discount_percent: 28,
  gift: 'socks',
  installment: 6,
  promocode: 'RUN10',
  price_with_promocode: 64.35,
  deeplink_android: 'acme://p/full-1',
  deeplink_ios: 'acme://ios/p/full-1',
  bonuses_accrual_allowed: true,
  bonuses_spending_allowed: false,
  discounts_allowed: true,
  accessories: ['acc-1'],
  customer_recommendations: ['rec-1', 'rec-2'],
  seasonality: [3, 4, 5],
  rating: 4.5,
  leftovers: 'few',
  is_new: true,
  is_child: false,
  is_fashion: true,
  date: '2026-05-01T10:00:00Z',
  creation_date: '2026-04-30',
  price_margin: 35,
  ignored: false,
  locations: [
    { location: 'msk', price: 69, oldprice: 99, merchant: ['Acme Moscow'], stock_quantity: 3, sizes: ['42', '43'], weight: 320, delivery_types: { store: 2, delivery: 5, shop: 1 } },
    { location: 'spb' },
  ],
  fashion: { gender: 'f', type: 'shoes', sizes: [42, '43'], colors: [{ color: 'red', picture: 'https://cdn.example/red.jpg' }], feature: 'waterproof' },
  child: { type: 'shoes', gender: 'f', age: { min: 8, max: 12 } },
  jewelry: { gender: 'f', color: 'gold', metal: 'gold', gem: 'none', ring_sizes: ['16'], bracelet_sizes: [18], chain_sizes: ['45'] },
  cosmetic: {
    gender: 'f',
    hypoallergenic: true,
    periodic: false,
    professional: false,
    skin: { part: ['face'], type: ['dry'], condition: ['acne'] },
    hair: { type: ['curly'], condition: ['dry'] },
    nail: { type: 'natural', polish_color: 'red' },
    perfume: { aroma: 'citrus', family: 'fresh' },
  },
  pharmacy: { volumes: [{ value: 50, price: 10 }] },
  book: { author: 'A', publisher: 'P', series: 'S', editor: 'E', illustrator: 'I', year: 2001, isbn: ['978-3-16-148410-0'] },
  realty: { action: 'sale', type: 'flat', space: { min: 30, max: 60, final: 45 } },
  auto: { vds: 'VDS', periodic: true, compatibility: [{ brand: 'VW', model: 'Golf' }] },
  fmcg: { hypoallergenic: false, periodic: true },
  pets: { periodic: true, breed: 'any', type: 'dog', age: 'adult', size: 'm' },
  custom_field_from_a_plugin: { kept: true },
};

describe('product import over HTTP', () => {
  it('keeps every field of an item and gives it back unchanged', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const { response, importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [fullItem] });
    expect(response.status).toBe(204);
    const record = await waitForImport(fixture.server.url, shop, importId!);
    expect(record).toMatchObject({ status: 'done', items_total: 1, items_applied: 1, items_rejected: 0 });
    const [row] = await fixture.database.ctx.sql<{ data: unknown; model: string | null; book: string | null; price: number; discount_percent: number; merchants: string[]; available: boolean; group_id: string }[]>`
      select data::jsonb as data, model, book, price, discount_percent, merchants, st.available, group_id
        from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id where p.shop_id = ${shop.shop_id}`;
    expect(row.data).toEqual(fullItem);
    // What search reads besides the name, in columns of their own.
    expect(row.model).toBe(fullItem.model);
    expect(JSON.parse(row.book!)).toEqual(fullItem.book);
    expect(row).toMatchObject({ price: 71.5, discount_percent: 28, merchants: ['Acme Store', 'Partner'], available: true, group_id: 'g-1' });
    // The offers as the listing reads them (as sent, they are in data.locations).
    const offers = await offerRows(fixture.database.ctx.sql, shop.shop_id);
    expect(offers.map((o) => [o.location_id, o.price, o.oldprice, o.discount_percent, o.stock_quantity])).toEqual([
      ['msk', 69, 99, 30, 3],
      ['spb', 71.5, 100, 28, null],
    ]);
  });

  it('applies PUT → PATCH → PUT sent back to back in order', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const item = (id: string, price: number) => ({ id, name: id, price, url: 'u', picture: 'p', categories: ['c'] });
    const first = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [item('a', 1), item('b', 1)] });
    const second = await sendImport(fixture.server.url, 'PATCH', 'products', shop, { items: ['a'] });
    const third = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [item('b', 2)] });
    for (const sent of [first, second, third]) expect(sent.response.status).toBe(204);
    for (const sent of [first, second, third]) expect((await waitForImport(fixture.server.url, shop, sent.importId!)).status).toBe('done');
    const rows = await fixture.database.ctx.sql`
      select p.id, p.price, st.available from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
       where p.shop_id = ${shop.shop_id} order by p.id`;
    expect(rows.map((r) => [r.id, r.price, r.available])).toEqual([
      ['a', 1, true],
      ['b', 2, true],
    ]);
  });

  it('takes Magento- and Shopware-style payloads: numeric ids, stock counts, POST with "method"', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const magento = await sendImport(fixture.server.url, 'POST', 'products', shop, {
      method: 'PUT',
      items: [
        { id: 1001, name: 'M1', price: 10, url: 'u', picture: 'p', categories: [12, 13], available: 4 },
        { id: 1002, name: 'M2', price: 11, url: 'u', picture: 'p', categories: [12], available: 0 },
      ],
    });
    expect((await waitForImport(fixture.server.url, shop, magento.importId!)).status).toBe('done');
    const patch = await sendImport(fixture.server.url, 'POST', 'products', shop, { method: 'PATCH', items: [1002] });
    const record = await waitForImport(fixture.server.url, shop, patch.importId!);
    expect(record).toMatchObject({ status: 'done', operation: 'products.patch' });
    const rows = await fixture.database.ctx.sql`
      select p.id, p.categories, st.available from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
       where p.shop_id = ${shop.shop_id} order by p.id`;
    expect(rows.map((r) => [r.id, r.categories, r.available])).toEqual([
      ['1001', ['12', '13'], false],
      ['1002', ['12'], true],
    ]);
  });

  it('refuses ids JSON.parse would round and impossible dates; takes oldprice 0; trims category references', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const tree = await sendImport(fixture.server.url, 'PUT', 'categories', shop, { categories: [{ id: '7', name: 'Seven', parent: null }] });
    expect((await waitForImport(fixture.server.url, shop, tree.importId!)).status).toBe('done');
    // Raw text: 12345678901234567890 and …891 both parse to 12345678901234567000.
    const item = (fields: string) => `{"name":"N","price":50,"url":"u","picture":"p","categories":["7"],${fields}}`;
    const send = (method: string, items: string[]) =>
      fetch(`${fixture.server.url}/import/products`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: `{"shop_id":"${shop.shop_id}","shop_secret":"${shop.shop_secret}","items":[${items.join(',')}]}`,
      });
    const put = await send('PUT', [
      item('"id":12345678901234567890'),
      item('"id":12345678901234567891'),
      item('"id":"c","categories":[12345678901234567890]'),
      item('"id":"d","group_id":12345678901234567890'),
      item('"id":"e","categories":[" 7"],"oldprice":0'),
      item('"id":"f","creation_date":"2024-02-30"'),
      item('"id":"g","oldprice":-1'),
      item('"id":9007199254740991,"creation_date":"2024-02-29"'),
    ]);
    const record = await waitForImport(fixture.server.url, shop, Number(put.headers.get('x-import-id')));
    expect(record.errors).toEqual([
      { position: 0, message: 'id is a number too large to keep exactly; send it as a string' },
      { position: 1, message: 'id is a number too large to keep exactly; send it as a string' },
      { item_id: 'c', position: 2, message: 'categories[0] is a number too large to keep exactly; send it as a string' },
      { item_id: 'd', position: 3, message: 'group_id is a number too large to keep exactly; send it as a string' },
      { item_id: 'f', position: 5, message: 'creation_date must be an ISO 8601 date' },
      { item_id: 'g', position: 6, message: 'oldprice must not be negative' },
    ]);
    // " 7" is category 7: no warning that it is unknown.
    expect(record.warnings).toEqual([]);
    const rows = await fixture.database.ctx.sql`
      select id, categories, oldprice, discount_percent, creation_date::text as creation_date from products where shop_id = ${shop.shop_id} order by id`;
    expect(rows.map((r) => [r.id, r.categories, r.oldprice, r.discount_percent, r.creation_date])).toEqual([
      ['9007199254740991', ['7'], null, 0, '2024-02-29 00:00:00+00'],
      ['e', ['7'], 0, 0, null],
    ]);
    const patch = await send('PATCH', ['12345678901234567890', '"e"']);
    const patched = await waitForImport(fixture.server.url, shop, Number(patch.headers.get('x-import-id')));
    expect(patched.errors).toEqual([{ position: 0, message: 'items[0] must be a product id: id is a number too large to keep exactly; send it as a string' }]);
  });

  it('a POST load with a rejected item still marks the unlisted products out of stock, but not the rejected one', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const item = (id: string, price = 5) => ({ id, name: id, price, url: 'u', picture: 'p', categories: [] });
    const first = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [item('a'), item('b'), item('c')] });
    expect((await waitForImport(fixture.server.url, shop, first.importId!)).status).toBe('done');
    const load = await sendImport(fixture.server.url, 'POST', 'products', shop, { items: [item('a'), item('b', 0)] });
    const record = await waitForImport(fixture.server.url, shop, load.importId!);
    expect(record).toMatchObject({ status: 'failed', items_applied: 1, items_rejected: 1 });
    const available = async () =>
      (await fixture.database.ctx.sql`select product_id, available from product_state where shop_id = ${shop.shop_id} order by product_id`).map((r) => [r.product_id, r.available]);
    expect(await available()).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ]);
    // c sent again exactly as first stored: its availability is written, whatever the process remembered.
    const again = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [item('c')] });
    expect((await waitForImport(fixture.server.url, shop, again.importId!)).status).toBe('done');
    expect((await available())[2]).toEqual(['c', true]);
  });

  it('records an import that fails inside PostgreSQL with a reference, the details only in the log', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const { sql } = fixture.database.ctx;
    // A failure that is not transient (not a lost connection): an error raised while the rows are written.
    await sql.unsafe(`create function vitrine_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'internal detail: table products, shop %', new.shop_id; end $$`);
    await sql.unsafe(`create trigger vitrine_test_refuse before insert on products for each row when (new.shop_id = '${shop.shop_id}') execute function vitrine_test_refuse()`);
    try {
      const { importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [{ id: 'x', name: 'X', price: 5, url: 'u', picture: 'p', categories: [] }] });
      const record = await waitForImport(fixture.server.url, shop, importId!);
      expect(record.status).toBe('failed');
      expect(record.message).toMatch(/^Import could not be applied: an internal error \(reference [0-9a-f-]{36}\); nothing of it was stored$/);
      const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from products where shop_id = ${shop.shop_id}`;
      expect(count).toBe(0);
    } finally {
      await sql.unsafe('drop trigger vitrine_test_refuse on products; drop function vitrine_test_refuse()');
    }
  });

  it('fails an import with rejected items while applying the valid ones, and reports each', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const { importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, {
      items: [{ id: 'ok', name: 'Ok', price: 5, url: 'u', picture: 'p', categories: [] }, { id: 'bad', name: 'Bad', price: -1, url: 'u', picture: 'p', categories: [] }, 'not an object'],
    });
    const record = await waitForImport(fixture.server.url, shop, importId!);
    expect(record).toMatchObject({
      status: 'failed',
      items_total: 3,
      items_applied: 1,
      items_rejected: 2,
      message: '2 of 3 items were rejected; the other one was applied',
    });
    expect(record.errors[0]).toEqual({ item_id: 'bad', position: 1, message: 'price must be greater than 0' });
    expect(record.errors[1].position).toBe(2);
    expect(record.warnings).toEqual([{ item_id: 'ok', position: 0, message: 'categories is empty; the product is in no category' }]);
  });
});
