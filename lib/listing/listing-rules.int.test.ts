// CONTRACT §4's and spec 2.10's listing rules that listing.int.test.ts does not reach: the sorts
// the feed and the service set, limit's default and cap, category_limit, filter and value order,
// every product field, the price range under price filters, escaping in `html`, and the requests
// a client gets wrong. Each is asked over HTTP, as a storefront asks.
import { beforeAll, describe, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { eventually } from '@/lib/testing/receivers';
import { logLines } from '@/lib/testing/log-lines';

const fixture = serverWithDatabase();

const categories = [
  { id: 'root', name: 'Home', parent: null, url: 'https://shop.example/c/home' },
  { id: 'kitchen', name: 'Kitchen', parent: 'root', url: 'https://shop.example/c/kitchen' },
  { id: 'garden', name: 'Garden', parent: 'root', url: 'https://shop.example/c/garden' },
  { id: 'tools', name: 'Tools', parent: 'garden', url: 'https://shop.example/c/tools' },
];
const item = (fields: Record<string, unknown>) => ({ picture: `https://cdn.example/${fields.id}.jpg`, url: `https://shop.example/p/${fields.id}`, ...fields });
// Param A is the most important (priority 5) on one product, B the least (0) on three, C (1) on two.
const items = [
  item({
    id: 'a1',
    name: 'Kettle <b>"steel"</b> & lid',
    categories: ['kitchen'],
    price: 40.25,
    oldprice: 50.5,
    creation_date: '2020-03-01',
    price_margin: 10,
    rating: 4,
    merchant: 'North',
    model: 'K-100',
    barcode: 4600000000017,
    vendor_code: 'VC-1',
    deeplink_android: 'app://p/a1',
    deeplink_ios: 'ios://p/a1',
    params: [{ name: 'A', value: ['x'], priority: 5 }, { name: 'B', value: ['y'] }],
  }),
  item({ id: 'a2', name: 'Pan', categories: ['kitchen'], price: 25, creation_date: '2021-07-15', price_margin: 30, rating: 2, merchant: 'South', params: [{ name: 'B', value: ['x'] }, { name: 'C', value: ['m'], priority: 1 }] }),
  item({ id: 'a3', name: 'Rake', categories: ['tools'], price: 15, creation_date: '2019-01-10', price_margin: 20, rating: 5, merchant: ['North', 'West'], params: [{ name: 'B', value: ['x'] }, { name: 'C', value: ['n'], priority: 1 }] }),
  // No creation_date: ordered by when it was first stored, which is now.
  item({ id: 'a4', name: 'Hose', categories: ['garden'], price: 60, price_margin: 5, merchant: 'South' }),
];

let shop: TestShop;

async function importAll(target: TestShop, method: string, resource: string, fields: Record<string, unknown>) {
  const { response, importId } = await sendImport(fixture.server.url, method, resource, target, fields);
  expect(response.status).toBe(204);
  expect((await waitForImport(fixture.server.url, target, importId!)).status).toBe('done');
}

const get = (query: string, init?: RequestInit) => fetch(`${fixture.server.url}/products?${query}`, init);
async function listing(params: Record<string, string>, target: TestShop = shop) {
  const response = await get(new URLSearchParams({ shop_id: target.shop_id, did: 'd1', sid: 's1', ...params }).toString());
  expect(response.status).toBe(200);
  return response.json();
}
const ids = async (params: Record<string, string>, target?: TestShop) => (await listing(params, target)).products as string[];

beforeAll(async () => {
  shop = await createTestShop(fixture.database.ctx, { currency: 'USD' });
  await importAll(shop, 'POST', 'categories', { categories });
  await importAll(shop, 'PUT', 'products', { items });
  // The service keeps sales_rate (no feed sets it): given here before the shop's first listing
  // builds its index.
  const rates = { a1: 10, a2: 40, a3: 40, a4: 0 };
  for (const [id, rate] of Object.entries(rates)) await fixture.database.ctx.sql`update products set sales_rate = ${rate} where shop_id = ${shop.shop_id} and id = ${id}`;
});

describe('listing orders', () => {
  it('orders by sales_rate desc then id by default, and ignores sort_by=popular', async () => {
    expect(await ids({})).toEqual(['a2', 'a3', 'a1', 'a4']);
    expect(await ids({ sort_by: 'popular' })).toEqual(['a2', 'a3', 'a1', 'a4']);
    expect(await ids({ sort_by: 'sales_rate', sort_dir: 'asc' })).toEqual(['a4', 'a1', 'a2', 'a3']);
  });

  it('orders by date added (creation_date, else when first stored), price_margin and rating', async () => {
    expect(await ids({ sort_by: 'date' })).toEqual(['a4', 'a2', 'a1', 'a3']);
    expect(await ids({ sort_by: 'date', sort_dir: 'asc' })).toEqual(['a3', 'a1', 'a2', 'a4']);
    expect(await ids({ sort_by: 'price_margin' })).toEqual(['a2', 'a3', 'a1', 'a4']);
    // A product without a rating comes last either way.
    expect(await ids({ sort_by: 'rating' })).toEqual(['a3', 'a1', 'a2', 'a4']);
    expect(await ids({ sort_by: 'rating', sort_dir: 'asc' })).toEqual(['a2', 'a1', 'a3', 'a4']);
  });

  it('keeps and drops merchants case-insensitively', async () => {
    expect(await ids({ merchants: 'north', sort_by: 'price', sort_dir: 'asc' })).toEqual(['a3', 'a1']);
    expect(await ids({ merchants: 'WEST,South', sort_by: 'price', sort_dir: 'asc' })).toEqual(['a3', 'a2', 'a4']);
    expect(await ids({ excluded_merchants: 'south', sort_by: 'price', sort_dir: 'asc' })).toEqual(['a3', 'a1']);
  });
});

describe('listing facets', () => {
  it('orders filters by popularity (priority, then count), quantity or name, and values by count then name', async () => {
    const names = async (by?: string) => Object.keys((await listing(by ? { filters_search_by: by } : {})).filters);
    expect(await names()).toEqual(['A', 'C', 'B']);
    expect(await names('popularity')).toEqual(['A', 'C', 'B']);
    expect(await names('quantity')).toEqual(['B', 'C', 'A']);
    expect(await names('name')).toEqual(['A', 'B', 'C']);
    const { filters } = await listing({});
    expect(filters.B).toEqual({ count: 3, priority: 0, values: { x: 2, y: 1 } });
    expect(Object.keys(filters.B.values)).toEqual(['x', 'y']);
    // Equal counts: by name.
    expect(Object.keys(filters.C.values)).toEqual(['m', 'n']);
  });

  it('returns at most category_limit categories and brand_limit brands', async () => {
    const all = await listing({});
    expect(all.categories.map((c: { id: string }) => c.id).sort()).toEqual(['garden', 'kitchen', 'root', 'tools']);
    expect((await listing({ category_limit: '2' })).categories).toHaveLength(2);
    expect((await listing({ category_limit: '1' })).categories).toHaveLength(1);
  });

  it('reports the price range of the result with the price filters applied', async () => {
    expect((await listing({})).price_range).toEqual({ min: 15, max: 60 });
    // 40.25 is the lowest price at or above 30: its floor, 40.
    expect((await listing({ price_min: '30' })).price_range).toEqual({ min: 40, max: 60 });
    expect((await listing({ price_min: '30', price_max: '50' })).price_range).toEqual({ min: 40, max: 41 });
  });
});

describe('listing products', () => {
  it('shows every field of spec 2.10 with its value', async () => {
    const { products } = await listing({ extended: 'true', sort_by: 'date', sort_dir: 'asc' });
    const a1 = products.find((p: { id: string }) => p.id === 'a1');
    expect(a1).toMatchObject({
      name: 'Kettle <b>"steel"</b> & lid',
      deeplink_android: 'app://p/a1',
      deeplink_ios: 'ios://p/a1',
      barcode: '4600000000017',
      vendor_code: 'VC-1',
      model: 'K-100',
      sales_rate: 10,
      // Its rate against the shop's highest (40).
      relative_sales_rate: 25,
      price: 40,
      price_full: 40.25,
      price_formatted: '$40',
      price_full_formatted: '$40.25',
      oldprice: 50,
      oldprice_full: 50.5,
      oldprice_formatted: '$50',
      oldprice_full_formatted: '$50.50',
      discount_percent: 20,
      discount: 20,
      discount_formatted: '20%',
      currency: '$',
      stock_quantity: 0,
    });
    expect(a1.image_url_resized.original).toBe('https://cdn.example/a1.jpg');
    expect(a1.categories).toEqual([
      {
        id: 'kitchen',
        parent_id: 'root',
        url: 'https://shop.example/c/kitchen?recommended_by=listing',
        name: 'Kitchen',
        level: '2',
        name_with_parent: 'Home > Kitchen',
        url_handle: '/c/kitchen?recommended_by=listing',
      },
    ]);
    const a2 = products.find((p: { id: string }) => p.id === 'a2');
    expect(a2).toMatchObject({ oldprice: 0, oldprice_full: 0, oldprice_formatted: '', oldprice_full_formatted: '', discount: 0, relative_sales_rate: 100, barcode: '', deeplink_ios: '' });
  });

  it('describes a root category without parent_id', async () => {
    await importAll(shop, 'PUT', 'products', { items: [item({ id: 'r1', name: 'Doormat', categories: ['root'], price: 9, creation_date: '2018-01-01' })] });
    // The import is committed; the index catches up within seconds.
    const [r1] = await eventually(
      async () => (await listing({ extended: 'true', sort_by: 'date', sort_dir: 'asc', limit: '1' })).products as { id: string; categories: Record<string, string>[] }[],
      (products) => products[0]?.id === 'r1',
      10_000,
    );
    expect(r1.categories).toEqual([{ id: 'root', url: 'https://shop.example/c/home?recommended_by=listing', name: 'Home', level: '1', name_with_parent: 'Home', url_handle: '/c/home?recommended_by=listing' }]);
  });

  it('escapes product values in the built-in html template', async () => {
    const { html } = await listing({ extended: 'true', sort_by: 'price', sort_dir: 'asc' });
    expect(html).toContain('Kettle &lt;b&gt;&#34;steel&#34;&lt;/b&gt; &amp; lid');
    expect(html).not.toContain('<b>');
  });
});

describe('listing pages', () => {
  let many: TestShop;
  beforeAll(async () => {
    many = await createTestShop(fixture.database.ctx, { currency: 'USD' });
    const numbered = Array.from({ length: 1050 }, (_, n) => item({ id: `m${String(n).padStart(4, '0')}`, name: `Item ${n}`, categories: [], price: 1 + n }));
    await importAll(many, 'PUT', 'products', { items: numbered });
  });

  it('gives 24 products by default and reads a limit above 1000 as 1000', async () => {
    const first = await listing({ sort_by: 'price', sort_dir: 'asc' }, many);
    expect(first.products_total).toBe(1050);
    expect(first.products).toEqual(Array.from({ length: 24 }, (_, n) => `m${String(n).padStart(4, '0')}`));
    expect(await ids({ sort_by: 'price', sort_dir: 'asc', limit: '1500' }, many)).toHaveLength(1000);
    // Page 2 of 1000 (not of 5000, which would pass 10,000 and be empty): the last 50.
    const second = await ids({ sort_by: 'price', sort_dir: 'asc', limit: '5000', page: '2' }, many);
    expect(second).toHaveLength(50);
    expect(second[0]).toBe('m1000');
    // 11 × 1000 is past 10,000: no products, the total still counted.
    const beyond = await listing({ limit: '5000', page: '11' }, many);
    expect(beyond.products).toEqual([]);
    expect(beyond.products_total).toBe(1050);
  });
});

describe('merchants in a feed without them', () => {
  it('ignores merchants and excluded_merchants when no product has merchants (spec 4.7)', async () => {
    const plain = await createTestShop(fixture.database.ctx);
    await importAll(plain, 'PUT', 'products', { items: [item({ id: 'n1', name: 'Cup', categories: [], price: 3 }), item({ id: 'n2', name: 'Jug', categories: [], price: 4 })] });
    expect(await ids({ sort_by: 'price', sort_dir: 'asc' }, plain)).toEqual(['n1', 'n2']);
    expect(await ids({ merchants: 'North', sort_by: 'price', sort_dir: 'asc' }, plain)).toEqual(['n1', 'n2']);
    expect(await ids({ excluded_merchants: 'North', sort_by: 'price', sort_dir: 'asc' }, plain)).toEqual(['n1', 'n2']);
  });
});

describe('listing requests as real clients send them', () => {
  it('never fails on a lone %, ignores a GET Content-Type, and reads Accept-Version: 2', async () => {
    const base = `shop_id=${shop.shop_id}&did=d&sid=s`;
    const lone = await get(`${base}&categories=kitchen%`);
    expect(lone.status).toBe(200);
    expect((await lone.json()).products).toEqual([]);
    const typed = await get(base, { headers: { 'Content-Type': 'text/plain' } });
    expect(typed.status).toBe(200);
    expect((await typed.json()).products).toEqual(['a2', 'a3', 'a1', 'a4', 'r1']);
    const versioned = await get(base, { headers: { 'Accept-Version': '2' } });
    const body = await versioned.json();
    expect(body.status).toBe('success');
    expect(body.payload.listing.products).toEqual(['a2', 'a3', 'a1', 'a4', 'r1']);
  });

  it('refuses a missing shop_id and a POST body that is not JSON with the error body', async () => {
    const missing = await get('did=d&sid=s');
    expect(missing.status).toBe(400);
    const missingBody = await missing.json();
    expect(missingBody.status).toBe('error');
    expect(missingBody.payload.message).toContain('shop_id');
    for (const text of ['{"shop_id":', 'not json', '']) {
      const posted = await fetch(`${fixture.server.url}/products`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
      expect(posted.status).toBe(400);
      const body = await posted.json();
      expect(body.status).toBe('error');
      expect(typeof body.payload.message).toBe('string');
      expect(body.payload.message.length).toBeGreaterThan(0);
    }
  });

  it('answers GET /init with a session id under both names, and refuses an unknown shop', async () => {
    const first = await (await fetch(`${fixture.server.url}/init?shop_id=${shop.shop_id}&did=dev`)).json();
    expect(Object.keys(first).sort()).toEqual(['did', 'seance', 'sid']);
    expect(first.sid).toMatch(/\S/);
    expect(first.seance).toBe(first.sid);
    const second = await (await fetch(`${fixture.server.url}/init?shop_id=${shop.shop_id}&did=dev`)).json();
    expect(second.sid).not.toBe(first.sid);
    const unknown = await fetch(`${fixture.server.url}/init?shop_id=nope`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ status: 'error', payload: { message: 'Shop not found' } });
  });
});

describe('an unexpected failure', () => {
  it('is a 500 whose message gives a request id, the details only in the log', async () => {
    // A shop not asked for yet (its settings are read, not remembered), read while a column the
    // read needs is missing.
    const fresh = await createTestShop(fixture.database.ctx);
    await fixture.database.ctx.sql`alter table shops rename column listing_template to listing_template_gone`;
    try {
      const response = await get(`shop_id=${fresh.shop_id}&did=d&sid=s`);
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body.status).toBe('error');
      const requestId = /^Internal error \(request id ([0-9a-f-]{36})\)$/.exec(body.payload.message)?.[1];
      expect(requestId).toBeDefined();
      // The answer's X-Request-Id names it too, and the error's log line carries it with the details.
      expect(response.headers.get('x-request-id')).toBe(requestId);
      const logged = logLines(fixture.server.output()).find((line) => line.msg === 'unexpected error' && line.requestId === requestId);
      expect(logged, fixture.server.output().slice(-3000)).toMatchObject({ level: 50, err: { message: expect.stringContaining('listing_template') } });
    } finally {
      await fixture.database.ctx.sql`alter table shops rename column listing_template_gone to listing_template`;
    }
    expect(await ids({}, fresh)).toEqual([]);
  });
});

describe('a shop template that fails when read', () => {
  it('gives way to the default template, the listing still answers, and the failure is logged', async () => {
    // Saved before templates were tried on sample data, or failing only on real data.
    const fresh = await createTestShop(fixture.database.ctx);
    await importAll(fresh, 'PUT', 'products', { items: [item({ id: 'tpl-1', name: 'Kept', price: 10, categories: ['1'] })] });
    await fixture.database.ctx.sql`
      update shops set listing_template = ${"{% if products_total > 0 %}{% include 'card' %}{% endif %}"} where id = ${fresh.shop_id}`;
    const answer = await listing({ extended: '1' }, fresh);
    expect(answer.html).toContain('<ul class="vitrine-products">');
    expect(answer.html).toContain('data-id="tpl-1"');
    expect(fixture.server.output()).toMatch(/a shop's template \([\w-]+\) failed, the default one was used: .*Failed to lookup/);
  });
});
