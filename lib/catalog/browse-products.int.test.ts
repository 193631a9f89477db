import { expect, it } from 'vitest';
import { createTestShop } from '@/lib/testing/factories';
import { appliedImports, productItem } from '@/lib/testing/applied-imports';
import { databaseAsAppContext } from '@/lib/testing/fixtures';
import { applyTree } from './apply-tree';
import { pageProducts, paramUnits, productDetail, shopBrands } from './browse-products';
import { shopTrees } from './browse-trees';

const fixture = databaseAsAppContext();
const imports = appliedImports(() => fixture.database.ctx.sql);

it('browses a shop’s products by text, category and below, brand and stock, and counts its trees', async () => {
  const ctx = fixture.database.ctx;
  const [shop, other] = [await createTestShop(ctx), await createTestShop(ctx)];
  const tree = (kind: 'categories' | 'locations', nodes: unknown[]) => ctx.sql.begin((tx) => applyTree(tx, shop.shop_id, kind, 'replace', nodes));
  await tree('categories', [
    { id: 'top', name: 'Top', parent: null },
    { id: 'mid', name: 'Mid', parent: 'top' },
    { id: 'leaf', name: 'Leaf', parent: 'mid' },
    { id: 'side', name: 'Side', parent: 'top' },
  ]);
  await tree('locations', [
    { id: 'land', name: 'Land', parent: null },
    { id: 'town', name: 'Town', parent: 'land' },
  ]);
  const outcome = await imports.put(shop.shop_id, [
    productItem('a1', { name: 'Red Axe', brand: 'Acme', categories: ['leaf', 'side'], params: [{ name: 'Weight', value: [900], unit: 'g' }], locations: [{ location: 'town', price: 80 }] }),
    productItem('a2', { name: 'Blue axe', brand: 'ACME', categories: ['mid'] }),
    productItem('b1', { name: '100% wool', brand: 'Other', categories: ['side'], available: false }),
  ]);
  expect(outcome.errors).toEqual([]);
  await imports.put(other.shop_id, [productItem('a3', { name: 'Red axe elsewhere' })]);
  const page = (query: Record<string, unknown>) => pageProducts(ctx, shop.shop_id, query).then((p) => [p.total, p.products.map((r) => r.id)]);

  expect(await page({})).toEqual([3, ['a1', 'a2', 'b1']]);
  expect(await page({ q: 'AXE' })).toEqual([2, ['a1', 'a2']]);
  expect(await page({ q: 'a2' })).toEqual([1, ['a2']]);
  expect(await page({ q: '100%' })).toEqual([1, ['b1']]);
  expect(await page({ q: '%' })).toEqual([1, ['b1']]);
  expect(await page({ category: 'top' })).toEqual([3, ['a1', 'a2', 'b1']]);
  expect(await page({ category: 'mid' })).toEqual([2, ['a1', 'a2']]);
  expect(await page({ category: 'nothing' })).toEqual([0, []]);
  expect(await page({ brand: 'acme' })).toEqual([2, ['a1', 'a2']]);
  expect(await page({ availability: 'out_of_stock' })).toEqual([1, ['b1']]);
  await expect(pageProducts(ctx, shop.shop_id, { availability: 'maybe' })).rejects.toThrow('availability must be in_stock or out_of_stock');
  expect((await shopBrands(ctx, shop.shop_id)).map((b) => [b.name.toLowerCase(), b.products])).toEqual([
    ['acme', 2],
    ['other', 1],
  ]);
  expect(await paramUnits(ctx, shop.shop_id)).toEqual({ Weight: 'g' });

  const trees = await shopTrees(ctx, shop.shop_id);
  const counts = (nodes: { id: string; products: number; in_stock: number }[]) => Object.fromEntries(nodes.map((n) => [n.id, [n.in_stock, n.products]]));
  // a1 is in leaf and side, both under top: counted once there.
  expect(counts(trees.categories)).toEqual({ top: [2, 3], mid: [2, 2], leaf: [1, 1], side: [1, 2] });
  expect(counts(trees.locations)).toEqual({ land: [1, 1], town: [1, 1] });

  const detail = await productDetail(ctx, shop.shop_id, 'a1');
  expect(detail).toMatchObject({ id: 'a1', available: true, offers: [{ location_id: 'town', location_name: 'Town', price: 80 }] });
  expect(detail.categories.map((c) => c.path.map((n) => n.name).join(' › '))).toEqual(['Top › Mid › Leaf', 'Top › Side']);
  expect(detail.images.map((i) => i.size)).toEqual([120, 140, 160, 180, 200, 220, 310, 520]);
  await expect(productDetail(ctx, shop.shop_id, 'a3')).rejects.toThrow('Product a3 not found');
});

it('names the import that wrote a product even when it was claimed and applied within one millisecond', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  await imports.put(shop.shop_id, [productItem('m1')]);
  // The row written 0.9 ms into a millisecond by an import claimed 0.4 ms into it (a Date, which
  // keeps milliseconds, put the write before the claim).
  await ctx.sql`update products set updated_at = '2026-01-01 00:00:00.000900+00' where shop_id = ${shop.shop_id} and id = 'm1'`;
  const [{ id }] = await ctx.sql<{ id: number }[]>`
    insert into imports (shop_id, operation, status, received_at, started_at, finished_at, items_total, items_applied, items_rejected, body_bytes)
    values (${shop.shop_id}, 'products.put', 'done', '2026-01-01 00:00:00.000100+00', '2026-01-01 00:00:00.000400+00', '2026-01-01 00:00:00.001200+00', 1, 1, 0, 10)
    returning id::int as id`;
  expect((await productDetail(ctx, shop.shop_id, 'm1')).written_by_import).toBe(id);
});
