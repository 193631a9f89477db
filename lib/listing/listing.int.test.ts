import { beforeAll, describe, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { startServer } from '@/lib/testing/server';
import { eventually } from '@/lib/testing/receivers';

const fixture = serverWithDatabase();
let shop: TestShop;

const categories = [
  { id: 'c1', name: 'Clothes', parent: null, url: 'https://shop.example/c/clothes' },
  { id: 'c2', name: 'Shoes', parent: 'c1', url: 'https://shop.example/c/shoes?sort=new' },
  { id: 'c3', name: 'Boots', parent: 'c2', url: 'https://shop.example/c/boots' },
  { id: 'c4', name: 'Books', parent: null, url: 'https://shop.example/c/books' },
];
const locations = [
  { id: 'msk', name: 'Moscow', parent: null, type: 'city' },
  { id: 'msk-1', name: 'Moscow store 1', parent: 'msk', type: 'store' },
  { id: 'spb', name: 'Saint Petersburg', parent: null, type: 'city' },
];
const item = (fields: Record<string, unknown>) => ({ picture: `https://cdn.example/${fields.id}.jpg`, url: `https://shop.example/p/${fields.id}`, ...fields });
const items = [
  item({
    id: 'p1',
    name: 'Red running shoe',
    categories: ['c2'],
    brand: 'Acme',
    brand_picture: 'https://cdn.example/acme.png',
    price: 100,
    oldprice: 200,
    group_id: 'g1',
    url: 'https://shop.example/p/p1?a=1+2&b=%2B#top',
    params: [
      { name: 'Color', value: ['red'], priority: 5 },
      { name: 'Size', value: [42] },
      { name: 'Waterproof', value: [true] },
      { name: 'Internal', value: ['x'], searchable: false },
    ],
    fashion: { sizes: ['42'], colors: [{ color: 'Red' }] },
  }),
  item({ id: 'p2', name: 'Blue winter boot', categories: ['c3'], brand: 'acme', price: 150, group_id: 'g1', params: [{ name: 'Color', value: ['blue'], priority: 5 }, { name: 'Size', value: [44] }], fashion: { sizes: ['44'], colors: [{ color: 'blue' }] } }),
  item({ id: 'p3', name: 'Crème brûlée cookbook', categories: ['c4'], brand: 'Reader', price: 20.5, locations: [{ location: 'msk-1', price: 18, stock_quantity: 7 }], book: { author: 'Julia Child' } }),
  item({ id: 'p4', name: 'Old boot', categories: ['c3'], brand: 'Boot Co', price: 300, available: false }),
  item({ id: 'p5', name: 'Trail shoe', categories: ['c2'], brand: 'Acme', price: 80, locations: [{ location: 'spb' }], params: [{ name: 'Color', value: ['red'], priority: 5 }] }),
];

async function importAll(method: string, resource: string, fields: Record<string, unknown>) {
  const { response, importId } = await sendImport(fixture.server.url, method, resource, shop, fields);
  expect(response.status).toBe(204);
  const status = await waitForImport(fixture.server.url, shop, importId!);
  expect(status.status).toBe('done');
}

async function listing(params: Record<string, string>, init?: RequestInit) {
  const query = new URLSearchParams({ shop_id: shop.shop_id, did: 'd1', sid: 's1', ...params });
  const response = await fetch(`${fixture.server.url}/products?${query}`, init);
  return { status: response.status, body: await response.json() };
}

const ids = async (params: Record<string, string>) => (await listing(params)).body.products as string[];

beforeAll(async () => {
  shop = await createTestShop(fixture.database.ctx, { currency: 'USD' });
  await importAll('POST', 'categories', { categories });
  await importAll('POST', 'locations', { locations });
  await importAll('PUT', 'products', { items });
});

describe('GET /products', () => {
  it('lists products in stock, one per variant group, by sales rate then id', async () => {
    const { status, body } = await listing({});
    expect(status).toBe(200);
    expect(body.products).toEqual(['p1', 'p3', 'p5']);
    expect(body.products_total).toBe(3);
    expect(await ids({ collapse: 'false' })).toEqual(['p1', 'p2', 'p3', 'p5']);
    expect(await ids({ collapse: 'false', available: 'false' })).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });

  it('filters by categories with their descendants, brands case-insensitively, price, discount and exclude', async () => {
    expect(await ids({ categories: 'c2', collapse: 'false' })).toEqual(['p1', 'p2', 'p5']);
    expect(await ids({ categories: 'c3,c4', collapse: 'false' })).toEqual(['p2', 'p3']);
    expect(await ids({ brands: 'ACME', collapse: 'false' })).toEqual(['p1', 'p2', 'p5']);
    expect(await ids({ excluded_brands: 'acme', collapse: 'false' })).toEqual(['p3']);
    expect(await ids({ price_min: '90', price_max: '160', collapse: 'false' })).toEqual(['p1', 'p2']);
    expect(await ids({ discount: 'true', collapse: 'false' })).toEqual(['p1']);
    expect(await ids({ discount: 'false', collapse: 'false' })).toEqual(['p2', 'p3', 'p5']);
    expect(await ids({ exclude: 'p1,p3', collapse: 'false' })).toEqual(['p2', 'p5']);
    expect(await ids({ colors: 'red', collapse: 'false' })).toEqual(['p1']);
    expect(await ids({ fashion_sizes: '44', collapse: 'false' })).toEqual(['p2']);
    expect(await ids({ filters: JSON.stringify({ Color: ['red'] }), collapse: 'false' })).toEqual(['p1', 'p5']);
    expect(await ids({ filters: JSON.stringify({ Waterproof: ['true'] }), collapse: 'false' })).toEqual(['p1']);
  });

  it('prices by the cheapest offer in the asked locations and their descendants', async () => {
    const { body } = await listing({ locations: 'msk', collapse: 'false', sort_by: 'price', sort_dir: 'asc', extended: 'true' });
    expect(body.products.map((p: { id: string }) => p.id)).toEqual(['p3', 'p1', 'p2']);
    expect(body.products[0]).toMatchObject({ price: 18, price_full: 18, stock_quantity: 7 });
    expect(body.locations).toEqual([
      { id: 'msk', name: 'Moscow', type: 'city' },
      { id: 'msk-1', name: 'Moscow store 1', type: 'store' },
    ]);
    expect(await ids({ locations: 'spb', collapse: 'false' })).toEqual(['p1', 'p2', 'p5']);
  });

  it('sorts in both directions with ties by id, and pages', async () => {
    expect(await ids({ sort_by: 'price', sort_dir: 'asc', collapse: 'false' })).toEqual(['p3', 'p5', 'p1', 'p2']);
    expect(await ids({ sort_by: 'price', collapse: 'false' })).toEqual(['p2', 'p1', 'p5', 'p3']);
    expect(await ids({ sort_by: 'discount', collapse: 'false' })).toEqual(['p1', 'p2', 'p3', 'p5']);
    // collapsed: the group's best-ranked variant stands for it
    expect(await ids({ sort_by: 'price', sort_dir: 'desc' })).toEqual(['p2', 'p5', 'p3']);
    expect(await ids({ sort_by: 'price', sort_dir: 'asc', collapse: 'false', limit: '2', page: '2' })).toEqual(['p1', 'p2']);
    expect(await ids({ limit: '2', page: '5001' })).toEqual([]);
  });

  it('counts facets over the whole result, disjunctively, and groups once', async () => {
    const { body } = await listing({ brands: 'acme', filters: JSON.stringify({ Color: ['red'] }) });
    // p1 (g1) and p5 match; brand counts ignore the brand filter, Color counts ignore Color.
    expect(body.products).toEqual(['p1', 'p5']);
    expect(body.brands).toEqual([
      { name: 'Acme', picture: 'https://cdn.example/acme.png', count: 2 },
    ]);
    expect(body.filters.Color).toEqual({ count: 2, priority: 5, values: { red: 2, blue: 1 } });
    const all = await listing({ collapse: 'false' });
    expect(all.body.filters.Color).toEqual({ count: 3, priority: 5, values: { red: 2, blue: 1 } });
    expect(all.body.filters.Size).toEqual({ count: 2, priority: 0, values: {}, ranges: { min: 42, max: 44 } });
    expect(all.body.filters.Internal).toBeUndefined();
    expect(Object.keys(all.body.filters)[0]).toBe('Color');
    expect(all.body.brands).toEqual([
      { name: 'Acme', picture: 'https://cdn.example/acme.png', count: 3 },
      { name: 'Reader', picture: '', count: 1 },
    ]);
    expect(all.body.industrial_filters).toEqual({
      fashion_sizes: [
        { size: '42', count: 1 },
        { size: '44', count: 1 },
      ],
      colors: [
        { color: 'Red', count: 1 },
        { color: 'blue', count: 1 },
      ],
    });
    expect(all.body.categories).toEqual([
      { id: 'c1', name: 'Clothes', url: 'https://shop.example/c/clothes?recommended_by=listing', url_handle: '/c/clothes?recommended_by=listing', alias: '', count: 3 },
      { id: 'c2', name: 'Shoes', url: 'https://shop.example/c/shoes?sort=new&recommended_by=listing', url_handle: '/c/shoes?sort=new&recommended_by=listing', parent: 'c1', alias: '', count: 3 },
      { id: 'c3', name: 'Boots', url: 'https://shop.example/c/boots?recommended_by=listing', url_handle: '/c/boots?recommended_by=listing', parent: 'c2', alias: '', count: 1 },
      { id: 'c4', name: 'Books', url: 'https://shop.example/c/books?recommended_by=listing', url_handle: '/c/books?recommended_by=listing', alias: '', count: 1 },
    ]);
    const collapsed = await listing({});
    expect(collapsed.body.filters.Color.values).toEqual({ red: 2, blue: 1 });
    expect(collapsed.body.categories.find((c: { id: string }) => c.id === 'c2').count).toBe(2);
    expect((await listing({ brand_limit: '1', category_limit: '2' })).body.brands).toHaveLength(1);
  });

  it('reports price range, median and buckets of the result', async () => {
    const { body } = await listing({ collapse: 'false' });
    expect(body.price_range).toEqual({ min: 20, max: 150 });
    expect(body.price_median).toBe(90);
    expect(body.price_ranges.reduce((sum: number, bucket: { count: number }) => sum + bucket.count, 0)).toBe(4);
    expect(body.price_ranges).toEqual([
      { to: 50, count: 1 },
      { from: 50, to: 100, count: 1 },
      { from: 100, to: 150, count: 1 },
      { from: 150, count: 1 },
    ]);
  });

  it('shows full products when extended, priced and linked as CONTRACT §4 says', async () => {
    const { body } = await listing({ extended: 'true', limit: '1' });
    const p1 = body.products[0];
    expect(p1).toMatchObject({
      id: 'p1',
      _id: 'p1',
      name: 'Red running shoe',
      url: 'https://shop.example/p/p1?a=1+2&b=%2B&recommended_by=listing#top',
      url_handle: '/p/p1?a=1+2&b=%2B&recommended_by=listing#top',
      brand: 'Acme',
      category_ids: ['c2'],
      price: 100,
      price_full: 100,
      price_formatted: '$100',
      price_full_formatted: '$100.00',
      oldprice: 200,
      oldprice_formatted: '$200',
      discount_percent: 50,
      discount: 50,
      discount_formatted: '50%',
      currency: '$',
      group_id: 'g1',
      picture: 'https://cdn.example/p1.jpg',
      image_url: 'https://cdn.example/p1.jpg',
      image_url_handle: '/p1.jpg',
      categories: [{ id: 'c2', parent_id: 'c1', url: 'https://shop.example/c/shoes?sort=new&recommended_by=listing', name: 'Shoes', level: '2', name_with_parent: 'Clothes > Shoes', url_handle: '/c/shoes?sort=new&recommended_by=listing' }],
    });
    expect(Object.keys(p1.image_url_resized)).toEqual(['120', '140', '160', '180', '200', '220', '310', '520', 'original']);
    expect(p1.image_url_resized['220']).toMatch(new RegExp(`^${fixture.server.url}/images/220/`));
    expect(p1.params).toContainEqual({ key: 'Color', values: ['red'] });
    expect(body.html).toContain('Red running shoe');
    expect(body.requests_count).toBe(1);
  });

  it('gzips the answer for clients that take it, the same JSON either way', async () => {
    const url = `${fixture.server.url}/products?${new URLSearchParams({ shop_id: shop.shop_id, did: 'd1', sid: 's1', extended: 'true' })}`;
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const plainBody = await plain.json();
    for (const accepted of ['gzip', 'br;q=1, gzip;q=0.5']) {
      // Asked twice: the second answer reuses the facet blocks' compressed form.
      for (let time = 0; time < 2; time++) {
        const zipped = await fetch(url, { headers: { 'accept-encoding': accepted } });
        expect(zipped.headers.get('content-encoding')).toBe('gzip');
        const body = await zipped.json(); // fetch decodes (and checks) the gzip member
        expect({ ...body, requests_count: 0 }).toEqual({ ...plainBody, requests_count: 0 });
      }
    }
    const refused = await fetch(url, { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers.get('content-encoding')).not.toBe('gzip');
    expect((await refused.json()).products_total).toBe(plainBody.products_total);
  });

  it('answers format=v2 in the announced envelope', async () => {
    const { body } = await listing({ format: 'v2' });
    expect(body.status).toBe('success');
    expect(body.payload.listing.products).toEqual(['p1', 'p3', 'p5']);
    expect(body.payload.listing.products_total).toBe(3);
  });

  it('reads values encoded twice, seance for sid, filters under an empty name, and POST bodies', async () => {
    const url = `${fixture.server.url}/products?shop_id=${shop.shop_id}&did=d&seance=s&collapse=false&categories=c3%252Cc4&=${encodeURIComponent('{"Color"%3A["blue"]}')}&stream=web`;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect((await response.json()).products).toEqual(['p2']);
    const posted = await fetch(`${fixture.server.url}/products`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ shop_id: shop.shop_id, email: 'a@b.c', brands: ['acme'], collapse: false, filters: { Color: ['red'] } }),
    });
    expect((await posted.json()).products).toEqual(['p1', 'p5']);
  });

  it('searches words case- and accent-insensitively, the last as a prefix, by relevance', async () => {
    expect(await ids({ search_query: 'CREME' })).toEqual(['p3']);
    expect(await ids({ search_query: 'sho', collapse: 'false' })).toEqual(['p1', 'p5', 'p2']);
    expect(await ids({ search_query: 'sho' })).toEqual(['p1', 'p5']);
    expect(await ids({ search_query: 'julia', search_scope: 'books' })).toEqual(['p3']);
    expect(await ids({ search_query: 'julia', search_scope: 'general' })).toEqual([]);
  });

  it('refuses malformed parameters and unknown shops with the error body', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ sort_by: 'fame' }, 'sort_by'],
      [{ price_min: 'abc' }, 'price_min'],
      [{ filters: '[1]' }, 'filters'],
      [{ filters: '{"Color":"red"}' }, 'filters'],
      [{ page: '0' }, 'page'],
      [{ collapse: 'maybe' }, 'collapse'],
      [{ search_scope: 'constructor' }, 'search_scope'],
      [{ price_min: '0x10' }, 'price_min'],
      [{ price_max: '1e3' }, 'price_max'],
    ];
    for (const [params, name] of cases) {
      const { status, body } = await listing(params);
      expect(status).toBe(400);
      expect(body.status).toBe('error');
      expect(body.payload.message).toContain(name);
    }
    const unknown = await fetch(`${fixture.server.url}/products?shop_id=nope&did=d&sid=s`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ status: 'error', payload: { message: 'Shop not found' } });
    const nul = await fetch(`${fixture.server.url}/products?shop_id=a%00b&did=d&sid=s`);
    expect(nul.status).toBe(400);
    expect((await nul.json()).payload.message).toBe('Shop not found');
    const post = (body: string) => fetch(`${fixture.server.url}/products`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    // 50,000 levels of nesting: more than JSON.stringify can take back.
    const deep = `${'['.repeat(50_000)}1${']'.repeat(50_000)}`;
    const ids = `"shop_id":${JSON.stringify(shop.shop_id)},"did":"d","sid":"s"`;
    const ignored = await post(`{${ids},"stream":${deep}}`);
    expect(ignored.status).toBe(200);
    const nested = await post(`{${ids},"brands":[["acme"]]}`);
    expect(nested.status).toBe(400);
    expect((await nested.json()).payload.message).toBe('brands must be a string or a list of strings');
    const deepFilters = await post(`{${ids},"filters":{"Color":${deep}}}`);
    expect(deepFilters.status).toBe(400);
    expect((await deepFilters.json()).payload.message).toContain('filters');
    const anonymous = await fetch(`${fixture.server.url}/products?shop_id=${shop.shop_id}`);
    expect(anonymous.status).toBe(400);
    expect((await anonymous.json()).payload.message).toContain('did');
  });

  it('answers GET /init with device and session ids', async () => {
    const kept = await (await fetch(`${fixture.server.url}/init?shop_id=${shop.shop_id}&did=device-1`)).json();
    expect(kept.did).toBe('device-1');
    expect(kept.sid).toBe(kept.seance);
    const issued = await (await fetch(`${fixture.server.url}/init?shop_id=${shop.shop_id}`)).json();
    expect(issued.did).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await fetch(`${fixture.server.url}/init?shop_id=nope`);
    expect(unknown.status).toBe(400);
  });

  it('orders filters by filters_search_by and counts engine queries', async () => {
    const byName = await listing({ filters_search_by: 'name', collapse: 'false' });
    expect(Object.keys(byName.body.filters)).toEqual(['Color', 'Size', 'Waterproof']);
    const byQuantity = await listing({ filters_search_by: 'quantity', collapse: 'false' });
    expect(Object.keys(byQuantity.body.filters)).toEqual(['Color', 'Size', 'Waterproof']);
    const narrowed = await listing({ filters_search_by: 'quantity', collapse: 'false', categories: 'c2' });
    // Color: p1, p2, p5; Size: p1, p2; Waterproof: p1.
    expect(Object.entries(narrowed.body.filters).map(([name, f]) => [name, (f as { count: number }).count])).toEqual([
      ['Color', 3],
      ['Size', 2],
      ['Waterproof', 1],
    ]);
    expect((await listing({ brands: 'acme', filters: JSON.stringify({ Color: ['red'] }) })).body.requests_count).toBe(3);
  });

  it('explains each product with debug=true', async () => {
    const { body } = await listing({ debug: 'true', sort_by: 'price', sort_dir: 'asc', categories: 'c1', collapse: 'false' });
    expect(body.debug.products).toEqual([
      { id: 'p5', sort_by: 'price', sort_key: 80, matched: { filters: ['available', 'categories'], categories: ['c1'] } },
      { id: 'p1', sort_by: 'price', sort_key: 100, matched: { filters: ['available', 'categories'], categories: ['c1'] } },
      { id: 'p2', sort_by: 'price', sort_key: 150, matched: { filters: ['available', 'categories'], categories: ['c1'] } },
    ]);
  });

  it('shows full products without `extended` for shops that set it so', async () => {
    const sdkShop = await createTestShop(fixture.database.ctx);
    await fixture.database.ctx.sql`update shops set listing_extended_default = true where id = ${sdkShop.shop_id}`;
    const { response, importId } = await sendImport(fixture.server.url, 'PUT', 'products', sdkShop, { items: [item({ id: 'x1', name: 'Mug', categories: [], price: 9.5 })] });
    expect(response.status).toBe(204);
    await waitForImport(fixture.server.url, sdkShop, importId!);
    const read = async (extra: string) => (await (await fetch(`${fixture.server.url}/products?shop_id=${sdkShop.shop_id}&did=d&sid=s${extra}`)).json()).products;
    await eventually(() => read(''), (products) => products.length === 1);
    expect((await read(''))[0]).toMatchObject({ id: 'x1', name: 'Mug', price: 9, price_full: 9.5, price_full_formatted: '$9.50' });
    expect(await read('&extended=false')).toEqual(['x1']);
  });

  it('keeps a web node without workers fresh through NOTIFY', async () => {
    const web = await startServer({ DATABASE_URL: fixture.database.url, WORKERS: 'off' });
    try {
      const read = async () => (await (await fetch(`${web.url}/products?shop_id=${shop.shop_id}&did=d&sid=s&collapse=false&available=false`)).json()).products as string[];
      const before = await read();
      expect(before).not.toContain('p7');
      await importAll('PUT', 'products', { items: [item({ id: 'p7', name: 'Scarf', categories: ['c1'], price: 15 })] });
      await eventually(read, (list) => list.includes('p7'), 10_000);
    } finally {
      await web.stop();
    }
  });

  it('shows an import within seconds: availability patched, new products rebuilt', async () => {
    await importAll('PATCH', 'products', { items: ['p3'] });
    await eventually(() => ids({ collapse: 'false' }), (list) => list.join() === 'p3', 10_000);
    await importAll('PUT', 'products', { items: [item({ id: 'p6', name: 'New hat', categories: ['c1'], price: 5 })] });
    await eventually(() => ids({ collapse: 'false' }), (list) => list.join() === 'p3,p6', 10_000);
    // A category import alone (no product changed) rebuilds too: the new name shows.
    await importAll('PUT', 'categories', { categories: [{ id: 'c4', name: 'Cookbooks', parent: null, url: 'https://shop.example/c/books' }] });
    await eventually(
      async () => (await listing({})).body.categories as { id: string; name: string }[],
      (list) => list.some((c) => c.id === 'c4' && c.name === 'Cookbooks'),
      10_000,
    );
  });
});

describe('numeric params', () => {
  let weighed: TestShop;
  const query = async (params: Record<string, string>) => {
    const search = new URLSearchParams({ shop_id: weighed.shop_id, did: 'd1', sid: 's1', collapse: 'false', ...params });
    return (await (await fetch(`${fixture.server.url}/products?${search}`)).json()) as { products: string[]; filters: Record<string, unknown> };
  };

  beforeAll(async () => {
    weighed = await createTestShop(fixture.database.ctx, { currency: 'USD' });
    const send = async (resource: string, fields: Record<string, unknown>) => {
      const { importId } = await sendImport(fixture.server.url, resource === 'categories' ? 'POST' : 'PUT', resource, weighed, fields);
      expect((await waitForImport(fixture.server.url, weighed, importId!)).status).toBe('done');
    };
    await send('categories', { categories: [{ id: 'a', name: 'A', parent: null }, { id: 'b', name: 'B', parent: null }] });
    const weights: [string, string, number, unknown[]][] = [
      ['w1', 'a', 10, [-1.5]],
      ['w2', 'a', 20, [0]],
      ['w3', 'a', 30, [2.25, 7]],
      ['w4', 'b', 40, [10]],
      ['w5', 'b', 50, [100]],
      ['w6', 'b', 60, []],
    ];
    await send('products', {
      items: weights.map(([id, category, price, weight]) =>
        item({ id, name: id, categories: [category], price, params: [{ name: 'Weight', value: weight, unit: 'kg' }, { name: 'Mixed', value: [price === 10 ? 'light' : price] }] }),
      ),
    });
  });

  it('shows a numeric param as the range of the values counted, disjunctively, and a mixed one as values', async () => {
    const all = await query({});
    expect(all.filters.Weight).toEqual({ count: 5, priority: 0, values: {}, ranges: { min: -1.5, max: 100 } });
    expect(all.filters.Mixed).toEqual({ count: 6, priority: 0, values: { light: 1, '20': 1, '30': 1, '40': 1, '50': 1, '60': 1 } });
    // Narrowed by another filter: the range of what is left.
    expect((await query({ categories: 'a' })).filters.Weight).toEqual({ count: 3, priority: 0, values: {}, ranges: { min: -1.5, max: 7 } });
    expect((await query({ categories: 'b' })).filters.Weight).toEqual({ count: 2, priority: 0, values: {}, ranges: { min: 10, max: 100 } });
    // Its own selection does not narrow its range (every filter but its own); its count is the
    // result's products with it (spec 2.10); the others' counts follow the selection.
    const chosen = await query({ filters: JSON.stringify({ Weight: ['7', '10'] }) });
    expect(chosen.products).toEqual(['w3', 'w4']);
    expect(chosen.filters.Weight).toEqual({ count: 2, priority: 0, values: {}, ranges: { min: -1.5, max: 100 } });
    expect(chosen.filters.Mixed).toEqual({ count: 2, priority: 0, values: { '30': 1, '40': 1 } });
    // Nothing left with a value: no Weight filter at all.
    expect((await query({ categories: 'b', price_min: '55' })).filters.Weight).toBeUndefined();
  });
});
