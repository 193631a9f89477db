import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import { applyTree } from '@/lib/catalog/apply-tree';
import { backfillFacets } from '@/lib/catalog/backfill-facets';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { eventually } from '@/lib/testing/receivers';
import { categoryLinks } from './category-links';
import { buildIndex, docOf, documentValues, idOf, type ShopIndex } from './indexing';
import { runListing } from './engine';
import { dropIndexes, indexFor, loadedIndexes, nextRefreshAt, recentRefreshes, REFRESH_PACE, setIndexBudget, yieldToBuilds } from './index-store';
import { paramsFromSearch, parseListingQuery } from './query';
import { listProducts } from './listing';
import { storedProducts } from './stored-products';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  dropIndexes();
  await database?.close();
});

const item = (id: string, price: number) => ({ id, name: id, price, categories: [], url: `https://s.example/${id}`, picture: `https://s.example/${id}.jpg` });

async function shopWith(count: number) {
  const shop = await createTestShop(database.ctx);
  await database.ctx.sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', Array.from({ length: count }, (_, i) => item(`p${i}`, i + 1))));
  return shop.shop_id;
}

it('drops the least recently used index above the memory budget and builds it again when asked', async () => {
  const sql = database.ctx.sql;
  const [a, b] = [await shopWith(50), await shopWith(60)];
  setIndexBudget(1); // one index at a time
  expect((await indexFor(sql, a)).n).toBe(50);
  expect(loadedIndexes().map((i) => i.shopId)).toEqual([a]);
  expect((await indexFor(sql, b)).n).toBe(60);
  expect(loadedIndexes().map((i) => i.shopId)).toEqual([b]);
  expect((await indexFor(sql, a)).n).toBe(50);
  expect(loadedIndexes().map((i) => i.shopId)).toEqual([a]);
  setIndexBudget(1024 * 1024 * 1024);
  expect((await indexFor(sql, b)).n).toBe(60);
  expect(loadedIndexes().map((i) => i.shopId).sort()).toEqual([a, b].sort());
});

it('weighs the budget again after refreshes, at most once a second and never skipping the last', async () => {
  const sql = database.ctx.sql;
  const [a, b] = [await shopWith(50), await shopWith(60)];
  await indexFor(sql, a);
  const before = await indexFor(sql, b); // a first build weighs the budget at once
  setIndexBudget(1);
  await sql.begin((tx) => applyProducts(tx, b, 'put', [item('p1', 5)]));
  // The refresh comes within a second of the last check: its check waits, and still drops `a`.
  await eventually(() => Promise.resolve(loadedIndexes().map((i) => i.shopId)), (ids) => !ids.includes(a), 5_000);
  expect((await indexFor(sql, b)).version).toBeGreaterThan(before.version);
  setIndexBudget(1024 * 1024 * 1024);
});

it('keeps answering from the current index while the next one is built, then swaps it in', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(20);
  const first = await indexFor(sql, shopId);
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', [item('new', 5)]));
  // Right after the commit the old index still answers, without waiting.
  const meanwhile = await indexFor(sql, shopId);
  expect([first.version, first.version + 1]).toContain(meanwhile.version);
  const next = await eventually(() => indexFor(sql, shopId), (index) => docOf(index, 'new') !== undefined, 10_000);
  expect(next.version).toBe(first.version + 1);
  expect(next.n).toBe(21);
});

it('paces refreshes while imports keep committing: the next starts only REFRESH_PACE times the last one’s duration after it', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(20_000);
  await indexFor(sql, shopId);
  // Commits every few ms for two seconds.
  const end = performance.now() + 2_000;
  let k = 0;
  for (; performance.now() < end; k++) {
    await sql.begin((tx) => applyProducts(tx, shopId, 'put', [item(`p${k}`, 1000 + k)]));
    await indexFor(sql, shopId);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // Still fresh: the last commit shows soon after.
  const lastId = `p${k - 1}`;
  await eventually(() => indexFor(sql, shopId), (index) => index.price[docOf(index, lastId)!] === 1000 + k - 1, 10_000);
  const refreshes = recentRefreshes(shopId);
  expect(refreshes.length).toBeGreaterThan(2);
  for (let i = 1; i < refreshes.length; i++) {
    const before = refreshes[i - 1];
    expect(refreshes[i].started, JSON.stringify(refreshes)).toBeGreaterThanOrEqual(nextRefreshAt(before.started, before.finished) - 1);
    // Refreshes of a 20,000-product shop take far less than FRESHNESS_MS: the full pace applies.
    expect(nextRefreshAt(before.started, before.finished)).toBe(before.finished + REFRESH_PACE * (before.finished - before.started));
  }
}, 60_000);

it('keeps what its queries made when an import changed nothing: the same index under the next version', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(30);
  const first = await indexFor(sql, shopId);
  const query = parseListingQuery(paramsFromSearch(new URLSearchParams(`shop_id=${shopId}&did=d&sid=s&price_min=5`)));
  runListing(first, query, null);
  expect(first.memo.facetCounts?.size).toBeGreaterThan(0);
  // The same items again: stored as they were, the catalog's version moves on.
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', Array.from({ length: 30 }, (_, i) => item(`p${i}`, i + 1))));
  const next = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  expect(next.buildSteps).toBe('nothing changed');
  expect(next.memo).toBe(first.memo);
  expect(next.available).toBe(first.available);
});

it('lets background work (orders, a word index) wait while any index is being built, unless a query waits for it', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(40);
  const order: string[] = [];
  const built = indexFor(sql, shopId).then(() => order.push('built'));
  const background = yieldToBuilds().then(() => order.push('background'));
  const wanted = yieldToBuilds(() => true).then(() => order.push('wanted'));
  await Promise.all([built, background, wanted]);
  expect(order).toEqual(['wanted', 'built', 'background']);
});

it('patches availability into a copy: the unfiltered listing in a kept order counts the new stock', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(30);
  const unfiltered = (index: ShopIndex) => {
    const query = parseListingQuery(paramsFromSearch(new URLSearchParams(`shop_id=${shopId}&did=d&sid=s&limit=5`)));
    // Read off the kept order (as results above a few thousand products are) with its kept figures.
    const result = runListing(index, query, null, { sortDirectlyBelow: 0 });
    return { total: result.total, page: Array.from(result.page, (doc) => idOf(index, doc)), range: result.stats?.range };
  };
  const first = await indexFor(sql, shopId);
  // Same sales rate everywhere: the default order is by id.
  expect(unfiltered(first)).toEqual({ total: 30, page: ['p0', 'p1', 'p10', 'p11', 'p12'], range: { min: 1, max: 30 } });
  await sql.begin((tx) => applyAvailability(tx, shopId, 'delete', ['p0', 'p10', 'p29']));
  const patched = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  expect(patched.buildSteps).toMatch(/availability of 3 products patched/);
  expect(unfiltered(patched)).toEqual({ total: 27, page: ['p1', 'p11', 'p12', 'p13', 'p14'], range: { min: 2, max: 29 } });
});

it('builds the same index from dictionary numbers, from facet tokens and from data, brand pictures and spellings included', async () => {
  const sql = database.ctx.sql;
  const shop = await createTestShop(database.ctx);
  const products = [
    { ...item('a', 5), brand: 'NIKE', brand_picture: 'https://s.example/nike-a.png', params: [{ name: 'Size', value: ['M', 42], priority: 2 }] },
    // "c" ties with "b" on price and is stored first, so its group is laid out first: the lower id
    // wins the spelling and the picture all the same.
    { ...item('c', 3), brand: 'nike', brand_picture: 'https://s.example/nike-c.png', categories: ['x'], params: [{ name: 'Odd', value: 'x\u001ey' }] },
    { ...item('b', 3), brand: 'Nike', brand_picture: 'https://s.example/nike-b.png', fashion: { sizes: ['S'], colors: [{ color: 'Red' }] } },
    { ...item('d', 9), brand: 'Acme', brand_picture: 'https://s.example/acme.png' },
  ];
  await sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', products));
  const shape = (index: Awaited<ReturnType<typeof buildIndex>>) => ({
    pictures: Object.fromEntries([...index.brandPicture].map(([value, url]) => [index.valueLabel[value], url])),
    labels: [...index.valueLabel].sort(),
    // By key: a build numbers param dimensions as their rows arrive, in the table's physical order,
    // which the updates below may change (a row moved by an update, or into space freed by pruning).
    dims: index.dims.map((dim) => [dim.key, dim.priority, dim.numeric, [...dim.values.keys()].sort()]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    postings: Array.from({ length: index.n }, (_, doc) => [idOf(index, doc), documentValues(index, doc).map((value) => index.valueKey[value]).sort()]),
  });
  const stored = shape(await buildIndex(sql, shop.shop_id));
  expect(stored.pictures).toEqual({ Nike: 'https://s.example/nike-b.png', Acme: 'https://s.example/acme.png' });
  // Rows stored before the dictionary, with tokens, then rows stored before either.
  expect(await sql`select id from products where shop_id = ${shop.shop_id} and facet_values is null`).toEqual([]);
  await sql`update products set facet_values = null where shop_id = ${shop.shop_id}`;
  expect(await backfillFacets(sql, shop.shop_id)).toBe(3); // "c" holds the separator
  expect(shape(await buildIndex(sql, shop.shop_id))).toEqual(stored);
  await sql`update products set facets = null where shop_id = ${shop.shop_id}`;
  expect(shape(await buildIndex(sql, shop.shop_id))).toEqual(stored);
});

it('refuses to build from a facet number its dictionary lacks, even one that text tokens were numbered with', async () => {
  const sql = database.ctx.sql;
  const shop = await createTestShop(database.ctx);
  await sql.begin((tx) => applyProducts(tx, shop.shop_id, 'put', [{ ...item('a', 1), brand: 'Acme' }, { ...item('b', 2), brand: 'Beta' }]));
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from facet_tokens where shop_id = ${shop.shop_id}`;
  // "a" is read from its data (its tokens get numbers after the dictionary's); "b" names the first of those.
  await sql`update products set facet_values = null, facets = null where shop_id = ${shop.shop_id} and id = 'a'`;
  await sql`update products set facet_values = ${String(count)} where shop_id = ${shop.shop_id} and id = 'b'`;
  const order = await sql<{ id: string }[]>`select id from products where shop_id = ${shop.shop_id}`;
  expect(order.map((row) => row.id)).toEqual(['a', 'b']); // as the build reads them
  await expect(buildIndex(sql, shop.shop_id)).rejects.toThrow(`facet value ${count} is not in shop ${shop.shop_id}'s dictionary`);
});

it('answers queries for locations alone with the new stock after a patch, and prepares them again for the patched index', async () => {
  const sql = database.ctx.sql;
  const shop = await createTestShop(database.ctx);
  const shopId = shop.shop_id;
  // p0..p9 have an offer in store s1, p10..p19 none: in stock everywhere.
  const items = Array.from({ length: 20 }, (_, i) => ({ ...item(`p${i}`, i + 1), ...(i < 10 ? { locations: [{ location: 's1', price: 100 + i }] } : {}) }));
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', items));
  const inStore = (index: ShopIndex) => {
    const query = parseListingQuery(paramsFromSearch(new URLSearchParams(`shop_id=${shopId}&did=d&sid=s&locations=s1&sort_by=price&sort_dir=desc&limit=3`)));
    const result = runListing(index, query, null);
    return { total: result.total, page: Array.from(result.page, (doc) => idOf(index, doc)), prices: Array.from(result.pagePrice), max: result.stats?.range.max };
  };
  const first = await indexFor(sql, shopId);
  expect(inStore(first)).toEqual({ total: 20, page: ['p9', 'p8', 'p7'], prices: [109, 108, 107], max: 109 });
  expect(first.memo.locationBases.has(true)).toBe(true);
  await sql.begin((tx) => applyAvailability(tx, shopId, 'delete', ['p9', 'p19']));
  const patched = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  expect(patched.buildSteps).toMatch(/availability of 2 products patched/);
  // Made again in the background after the swap, for the new stock.
  await eventually(
    async () => patched.memo.locationBases.get(true),
    (base) => base !== undefined && base.counts.has(true) && base.representatives.has('price:desc'),
    10_000,
  );
  expect(patched.memo.locationBases.get(true)!.size).toBe(9);
  expect(inStore(patched)).toEqual({ total: 18, page: ['p8', 'p7', 'p6'], prices: [108, 107, 106], max: 108 });
});

it('carries the stored rows of products a rebuild did not read again, and reads the changed ones anew', async () => {
  const sql = database.ctx.sql;
  const shopId = await shopWith(30);
  const first = await indexFor(sql, shopId);
  const before = await storedProducts(sql, first, ['p1', 'p2']);
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', [{ ...item('p1', 2), name: 'p1 renamed' }]));
  const next = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  expect(next.buildSteps).toMatch(/^1 changed products read/); // a rebuild, not a full build
  const after = await storedProducts(sql, next, ['p1', 'p2']);
  expect(after.get('p1')!.data.name).toBe('p1 renamed');
  expect(after.get('p2')).toBe(before.get('p2')); // the same object: kept, not read again
  expect(next.reread).toBeNull(); // let go once carried
});

it('carries the stored rows of unchanged products into the next version after the tree changed, and reads the changed ones anew', async () => {
  const sql = database.ctx.sql;
  // A rebuild (the tree and a product changed), then a full build (most of a large catalog did).
  const shopId = await shopWith(2100);
  const first = await indexFor(sql, shopId);
  const before = await storedProducts(sql, first, ['p1', 'p2']);
  categoryLinks(first, { recommended_by: 'listing' }); // as a listing makes them: they name the tree's URLs
  expect(first.memo.links.size).toBe(1);
  await sql.begin(async (tx) => {
    await applyTree(tx, shopId, 'categories', 'upsert', [{ id: 'c1', name: 'A category' }]);
    await applyProducts(tx, shopId, 'put', [{ ...item('p1', 2), name: 'p1 renamed' }]);
  });
  const next = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  expect(next.buildSteps).toMatch(/^1 changed products read/);
  const after = await storedProducts(sql, next, ['p1', 'p2']);
  expect(after.get('p1')!.data.name).toBe('p1 renamed');
  expect(after.get('p2')).toBe(before.get('p2')); // kept, not read again
  expect(next.memo.links.size).toBe(0); // the links of the old tree stay behind

  categoryLinks(next, { recommended_by: 'listing' });
  await sql.begin(async (tx) => {
    await applyTree(tx, shopId, 'categories', 'upsert', [{ id: 'c1', name: 'Another name' }]);
    await applyProducts(tx, shopId, 'put', Array.from({ length: 1100 }, (_, i) => ({ ...item(`p${i + 1000}`, 3), name: 'cheaper' })).concat([{ ...item('p1', 2), name: 'p1 again' }]));
  });
  const third = await eventually(() => indexFor(sql, shopId), (index) => index.version > next.version, 10_000);
  expect(third.buildSteps).not.toMatch(/changed products read/); // a full build
  const kept = await storedProducts(sql, third, ['p1', 'p2']);
  expect(kept.get('p1')!.data.name).toBe('p1 again');
  expect(kept.get('p2')).toBe(before.get('p2'));
  expect(third.memo.links.size).toBe(0);
});

it('carries the facet orders of dimensions whose values a rebuild numbers the same, and answers as with orders made anew', async () => {
  const sql = database.ctx.sql;
  const shop = await createTestShop(database.ctx);
  const shopId = shop.shop_id;
  const dressed = (id: string, price: number, material: string, weight: number, style: string) => ({
    ...item(id, price),
    params: [
      { name: 'Style', value: [style] },
      { name: 'Material', value: [material] },
      { name: 'Weight', value: [weight] },
    ],
  });
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', Array.from({ length: 40 }, (_, i) => dressed(`p${i}`, i + 1, ['wool', 'linen', 'silk'][i % 3], 100 + (i % 7) * 2.5, ['plain', 'striped'][i % 2]))));
  const answer = async () => {
    const parts = await listProducts(database.ctx, { params: new Map([['shop_id', shopId], ['did', 'd'], ['sid', 's']]), origin: 'http://localhost' });
    return JSON.parse(Buffer.concat(parts).toString()).filters as Record<string, unknown>;
  };
  await answer();
  const first = await indexFor(sql, shopId);
  const dim = (index: ShopIndex, name: string) => index.dimByKey.get(`param:${name}`)!;
  const orders = (index: ShopIndex) => index.memo.facetOrders!;
  const material = orders(first).byLabel[dim(first, 'Material')];
  const weight = orders(first).byNumber[dim(first, 'Weight')];
  expect(material).toBeDefined();
  expect(weight).toBeDefined();

  // A new product brings a new Style value: Style's values change, and Material's and Weight's
  // are numbered one further on, in the same places within their dimensions.
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', [dressed('p40', 41, 'silk', 105, 'checked')]));
  const next = await eventually(() => indexFor(sql, shopId), (index) => index.version > first.version, 10_000);
  expect(next.buildSteps).toMatch(/^1 changed products read/); // a rebuild
  expect(next.dimValues[dim(next, 'Material')]).toBe(first.dimValues[dim(first, 'Material')] + 1);
  expect(orders(next).byLabel[dim(next, 'Material')]).toBe(material);
  expect(orders(next).byNumber[dim(next, 'Weight')]).toBe(weight);
  expect(orders(next).byLabel[dim(next, 'Style')]).toBeUndefined();
  const carried = await answer();
  expect(carried.Style).toMatchObject({ values: { plain: 20, striped: 20, checked: 1 } });
  next.memo.facetOrders = undefined;
  next.memo.facetBlocks = undefined;
  expect(await answer()).toEqual(carried);
});
