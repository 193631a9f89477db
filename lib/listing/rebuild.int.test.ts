import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import { applyTree } from '@/lib/catalog/apply-tree';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { buildIndex, documentValues, FIRST_PARAM_DIM, idOf, rebuildIndex, type ShopIndex } from './indexing';

// A rebuild replays the documents of unchanged products from the previous index and reads only the
// changed rows: after any sequence of imports it must give exactly the index a full build gives.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const CATEGORIES = [
  { id: 'c0', name: 'Shoes', parent: null },
  { id: 'c1', name: 'Boots', parent: 'c0' },
  { id: 'c2', name: 'Hats', parent: null },
  { id: 'c3', name: 'Caps', parent: 'c2' },
];
const LOCATIONS = [
  { id: 'l0', name: 'State', parent: null },
  { id: 'l1', name: 'City', parent: 'l0' },
  { id: 'l2', name: 'Store', parent: 'l1' },
];

const product = fc.record({
  id: fc.constantFrom(...Array.from({ length: 14 }, (_, i) => `p${i}`)),
  group_id: fc.constantFrom(undefined, 'g0', 'g1', 'g2'),
  price: fc.constantFrom(1, 5, 5.5, 10, 99.99, 250),
  oldprice: fc.constantFrom(undefined, 10, 300),
  categories: fc.uniqueArray(fc.constantFrom('c0', 'c1', 'c2', 'c3', 'cx'), { maxLength: 2 }),
  // Spellings that fold together, and pictures: the cheapest product's show.
  brand: fc.constantFrom(undefined, 'Acme', 'ACME', 'acme', 'Beta'),
  brand_picture: fc.constantFrom(undefined, 'https://s.example/a.png', 'https://s.example/b.png'),
  merchant: fc.option(fc.uniqueArray(fc.constantFrom('M1', 'm2'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
  available: fc.boolean(),
  rating: fc.constantFrom(undefined, 1, 4.5),
  price_margin: fc.constantFrom(undefined, 0, 30),
  creation_date: fc.constantFrom(undefined, '2026-01-01', '2025-06-30'),
  // A param's priority is its highest over every product: a change can lower it.
  params: fc.uniqueArray(
    fc.record({ name: fc.constantFrom('Color', 'Size', 'Mat'), value: fc.array(fc.constantFrom('red', 'Red', 1, 10), { minLength: 1, maxLength: 2 }), priority: fc.constantFrom(undefined, 0, 2, 5) }),
    { selector: (p) => p.name, maxLength: 2 },
  ),
  fashion: fc.option(fc.record({ sizes: fc.array(fc.constantFrom('S', 's', 42), { maxLength: 2 }), colors: fc.array(fc.constantFrom('Red', 'red').map((color) => ({ color })), { maxLength: 1 }) }), { nil: undefined }),
  locations: fc.option(
    fc.uniqueArray(fc.record({ location: fc.constantFrom('l0', 'l1', 'l2', 'lx'), price: fc.constantFrom(undefined, 3, 50) }), { selector: (o) => o.location, minLength: 1, maxLength: 2 }),
    { nil: undefined },
  ),
});

// Trees change under the products: a category renamed, moved, added or removed (products naming
// it keep their ids, whose ancestors change), a location renamed, moved, added or removed.
const treeChange = fc.oneof(
  fc.record({ kind: fc.constant('categories' as const), mode: fc.constant('upsert' as const), list: fc.constantFrom(
    [{ id: 'c1', name: 'Wellies', parent: 'c0' }],
    [{ id: 'c1', name: 'Boots', parent: 'c2' }],
    [{ id: 'c3', name: 'Caps', parent: null }],
    [{ id: 'cx', name: 'Late', parent: 'c3' }],
    [{ id: 'c0', name: 'Footwear', parent: null }, { id: 'c2', name: 'Headwear', parent: 'c0' }],
  ) }),
  fc.record({ kind: fc.constant('categories' as const), mode: fc.constant('delete' as const), list: fc.constantFrom(['c1'], ['c3', 'cx']) }),
  fc.record({ kind: fc.constant('locations' as const), mode: fc.constant('upsert' as const), list: fc.constantFrom(
    [{ id: 'l2', name: 'Shop', parent: 'l1' }],
    [{ id: 'l2', name: 'Store', parent: 'l0' }],
    [{ id: 'lx', name: 'Outlet', parent: 'l1' }],
  ) }),
  fc.record({ kind: fc.constant('locations' as const), mode: fc.constant('delete' as const), list: fc.constantFrom(['l2'], ['l1', 'l2'], ['lx']) }),
);

const change = fc.oneof(
  { weight: 3, arbitrary: fc.record({ put: fc.array(product, { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ patch: fc.uniqueArray(fc.constantFrom('p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p13'), { maxLength: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ delete: fc.uniqueArray(fc.constantFrom('p0', 'p1', 'p6', 'p7'), { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ tree: treeChange }) },
);

const item = (p: Record<string, unknown>) => ({
  ...Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined)),
  name: String(p.id),
  url: `https://s.example/${String(p.id)}`,
  picture: `https://s.example/${String(p.id)}.jpg`,
});

/** Everything a query reads of an index, by product id and value key (document numbers may differ). */
function shape(index: ShopIndex) {
  const groupOf = new Map<number, string[]>();
  const docs = Array.from({ length: index.n }, (_, doc) => doc).sort((a, b) => index.idRank[a] - index.idRank[b]);
  const perDocument = docs.map((doc) => {
    const id = idOf(index, doc);
    (groupOf.get(index.groupOf[doc]) ?? groupOf.set(index.groupOf[doc], []).get(index.groupOf[doc])!).push(id);
    const offers = [];
    const rank = index.groupRank[doc];
    for (let o = index.rankOfferOffsets[rank]; o < index.rankOfferOffsets[rank + 1]; o++) {
      // Each offer knows its rank, and is in its location's list.
      const location = index.offerLocation[o];
      const list = index.locationOffers.subarray(index.locationOfferOffsets[location], index.locationOfferOffsets[location + 1]);
      if (index.offerRank[o] !== rank || !list.includes(o)) throw new Error(`offer ${o} of ${id} is not where its rank and location say`);
      offers.push([index.locations[location].id, index.offerPrice[o], index.offerOldprice[o], index.offerDiscount[o]]);
    }
    // Its param dimensions are those it has values of.
    const dims = new Set(documentValues(index, doc).map((value) => index.valueDim[value]).filter((dim) => dim >= FIRST_PARAM_DIM));
    for (let bit = 0; bit < 64; bit++) {
      if ((((index.paramDims![2 * rank + (bit >>> 5)] >>> (bit & 31)) & 1) === 1) !== dims.has(FIRST_PARAM_DIM + bit)) throw new Error(`${id}'s param dimensions are wrong at ${bit}`);
    }
    return {
      id,
      columns: [index.price[doc], index.oldprice[doc], index.discount[doc], index.salesRate[doc], index.date[doc], index.priceMargin[doc], index.rating[doc]],
      available: (index.available[doc >>> 5] & (1 << (doc & 31))) !== 0,
      values: documentValues(index, doc).map((value) => `${index.dims[index.valueDim[value]].key}=${index.valueKey[value]}`).sort(),
      merchants: [...index.merchants].filter(([, list]) => list.includes(doc)).map(([key]) => key).sort(),
      offers,
    };
  });
  // Offers are numbered in rank order: each location's list ascends, and offers' ranks too.
  for (let o = 1; o < index.offerRank.length; o++) if (index.offerRank[o] < index.offerRank[o - 1]) throw new Error(`offer ${o} is out of rank order`);
  for (let l = 0; l < index.locations.length; l++) {
    for (let i = index.locationOfferOffsets[l] + 1; i < index.locationOfferOffsets[l + 1]; i++) {
      if (index.locationOffers[i] <= index.locationOffers[i - 1]) throw new Error(`location ${index.locations[l].id}'s offers do not ascend`);
    }
  }
  return {
    perDocument,
    groups: [...groupOf.values()].map((ids) => ids.sort().join()).sort(),
    labels: [...index.valueKey.keys()].map((value) => `${index.dims[index.valueDim[value]].key}=${index.valueKey[value]}:${index.valueLabel[value]}`).sort(),
    pictures: [...index.brandPicture].map(([value, url]) => `${index.valueKey[value]}:${url}`).sort(),
    // Numbered as first seen (a full build's depends on the table's order too): never shown so.
    dims: index.dims.map((dim) => `${dim.key}:${dim.priority}:${dim.numeric}`).sort(),
    // The tree's locations in its order, then those only offers name, numbered as met (in the
    // table's order, or the previous index's when replayed): never shown so.
    locations: [
      ...index.locations.slice(0, index.knownLocations).map((node) => `${node.id}:${node.name}:${node.path.join('/')}`),
      ...index.locations.slice(index.knownLocations).map((node) => `${node.id}:${node.name}:${node.path.join('/')}`).sort(),
    ],
    knownLocations: index.knownLocations,
    categories: [...index.categories.values()].map((node) => `${node.id}:${node.name}:${node.parent}:${node.path.join('/')}:${node.known}`).sort(),
  };
}

it('rebuilds after any sequence of imports exactly the index a full build gives', { timeout: 300_000 }, async () => {
  const sql = database.ctx.sql;
  let rebuilt = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(product, { minLength: 1, maxLength: 12 }), fc.array(change, { minLength: 1, maxLength: 5 }), async (initial, changes) => {
      const { shop_id: shopId } = await createTestShop(database.ctx);
      await sql.begin(async (tx) => {
        await applyTree(tx, shopId, 'categories', 'replace', CATEGORIES);
        await applyTree(tx, shopId, 'locations', 'replace', LOCATIONS);
        await applyProducts(tx, shopId, 'put', initial.map(item));
      });
      let previous = await buildIndex(sql, shopId);
      for (const step of changes) {
        await sql.begin(async (tx) => {
          if ('put' in step) await applyProducts(tx, shopId, 'put', step.put.map(item));
          else if ('tree' in step) await applyTree(tx, shopId, step.tree.kind, step.tree.mode, [...step.tree.list]);
          else if ('patch' in step) await applyAvailability(tx, shopId, 'patch', step.patch);
          else await applyAvailability(tx, shopId, 'delete', step.delete);
        });
        const next = await rebuildIndex(sql, previous);
        expect(next, 'a rebuild, trees changed or not').not.toBeNull();
        const full = await buildIndex(sql, shopId);
        expect(next!.version).toBe(full.version);
        expect(shape(next!)).toEqual(shape(full));
        // Group numbers stay below the number of documents (they index arrays of that size).
        expect(Math.max(-1, ...next!.groupOf)).toBeLessThan(next!.n);
        rebuilt++;
        previous = next!;
      }
    }),
    { numRuns: Number(process.env.LISTING_PROPERTY_RUNS ?? 60), endOnFailure: true },
  );
  expect(rebuilt).toBeGreaterThanOrEqual(60);
});

it('builds from scratch when most of a large catalog changed, and replays when a tree did', async () => {
  const sql = database.ctx.sql;
  const { shop_id: shopId } = await createTestShop(database.ctx);
  const items = Array.from({ length: 2100 }, (_, i) => item({ id: `p${i}`, price: i + 1, categories: ['c1'] }));
  await sql.begin(async (tx) => {
    await applyTree(tx, shopId, 'categories', 'replace', CATEGORIES);
    await applyProducts(tx, shopId, 'put', items);
  });
  const first = await buildIndex(sql, shopId);
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', items.slice(0, 1100).map((i) => ({ ...i, price: 5000 }))));
  expect(await rebuildIndex(sql, first)).toBeNull(); // 1,100 of 2,100 changed
  const second = await buildIndex(sql, shopId);
  await sql.begin((tx) => applyTree(tx, shopId, 'categories', 'upsert', [{ id: 'c4', name: 'New', parent: 'c0' }, { id: 'c1', name: 'Wellies', parent: 'c2' }]));
  const third = await rebuildIndex(sql, second);
  expect(third?.buildSteps).toMatch(/^0 changed products read, the rest replayed/);
  expect(third!.categories.get('c1')?.name).toBe('Wellies');
  expect(third!.dims[0].values.has('c2') && !third!.dims[0].values.has('c0')).toBe(true); // c1's ancestors now
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', items.slice(1100, 2000).map((i) => ({ ...i, price: 1 }))));
  const fourth = await rebuildIndex(sql, third!);
  expect(fourth?.buildSteps).toMatch(/^900 changed products read, the rest replayed/);
  expect(idOf(fourth!, 0)).toBe('p1100'); // at price 1, first by id
});

it('keeps group numbers below the number of documents however many rebuilds renumber ungrouped products', async () => {
  const sql = database.ctx.sql;
  const { shop_id: shopId } = await createTestShop(database.ctx);
  const items = ['a', 'b', 'c'].map((id, i) => item({ id, price: i + 1, categories: [] }));
  await sql.begin((tx) => applyProducts(tx, shopId, 'put', items));
  let index = await buildIndex(sql, shopId);
  for (let run = 1; run <= 4; run++) {
    // Each change of a product without a group id gives it a new group number.
    await sql.begin((tx) => applyProducts(tx, shopId, 'put', items.map((i, k) => ({ ...i, price: 10 * run + k }))));
    index = (await rebuildIndex(sql, index))!;
    expect([...index.groupOf].sort()).toEqual([0, 1, 2]);
    expect(shape(index)).toEqual(shape(await buildIndex(sql, shopId)));
  }
});
