import { describe, expect, it } from 'vitest';
import { importStatus, sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

// The rate limit test needs the contract's limit (40 writes a minute), whatever the caller's
// environment says.
const fixture = serverWithDatabase({ LIMITS: undefined, RATE_LIMIT_PER_MINUTE: undefined });

const item = (id: string, price: number) => ({ id, name: id, price, url: `https://shop.example/p/${id}`, picture: `https://cdn.example/${id}.jpg`, categories: ['c'] });

async function applyImport(shop: TestShop, method: string, fields: Record<string, unknown>) {
  const { response, importId } = await sendImport(fixture.server.url, method, 'products', shop, fields);
  expect(response.status).toBe(204);
  return waitForImport(fixture.server.url, shop, importId!);
}

/** The shop's stored products as [id, price, available], by id. */
async function storedProducts(shop: TestShop) {
  const rows = await fixture.database.ctx.sql<{ id: string; price: number; available: boolean }[]>`
    select p.id, p.price, st.available from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
     where p.shop_id = ${shop.shop_id} order by p.id`;
  return rows.map((r) => [r.id, r.price, r.available]);
}

async function importCount(shop: TestShop) {
  const [{ count }] = await fixture.database.ctx.sql<{ count: number }[]>`select count(*)::int as count from imports where shop_id = ${shop.shop_id}`;
  return count;
}

describe('product import methods', () => {
  it('takes a DELETE of an unknown id as a warning, not a failure', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    expect((await applyImport(shop, 'PUT', { items: [item('a', 10), item('b', 20)] })).status).toBe('done');
    const record = await applyImport(shop, 'DELETE', { items: ['a', 'ghost'] });
    expect(record).toMatchObject({ status: 'done', operation: 'products.delete', items_total: 2, items_rejected: 0, errors: [], message: null });
    expect(record.warnings).toEqual([{ item_id: 'ghost', message: 'product ghost is not stored; nothing to mark not in stock' }]);
    expect(await storedProducts(shop)).toEqual([
      ['a', 10, false],
      ['b', 20, true],
    ]);
  });

  it('acts as DELETE for a POST with "method": "DELETE", leaving unlisted products in stock', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    expect((await applyImport(shop, 'PUT', { items: [item('a', 1), item('b', 2), item('c', 3)] })).status).toBe('done');
    const record = await applyImport(shop, 'POST', { method: 'DELETE', items: ['a', 'c'] });
    expect(record).toMatchObject({ status: 'done', operation: 'products.delete', items_rejected: 0 });
    expect(await storedProducts(shop)).toEqual([
      ['a', 1, false],
      ['b', 2, true],
      ['c', 3, false],
    ]);
  });

  it('answers 400 naming items when it is missing or not an array, and queues nothing', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const cases: [string, Record<string, unknown>, string][] = [
      ['PUT', {}, 'items is required'],
      ['PATCH', {}, 'items is required'],
      ['DELETE', {}, 'items is required'],
      ['POST', {}, 'items is required'],
      ['POST', { method: 'DELETE' }, 'items is required'],
      ['PUT', { items: {} }, 'items must be an array'],
      ['PATCH', { items: 'a' }, 'items must be an array'],
      ['DELETE', { items: null }, 'items must be an array'],
      ['POST', { items: 1 }, 'items must be an array'],
    ];
    for (const [method, fields, message] of cases) {
      const { response, importId } = await sendImport(fixture.server.url, method, 'products', shop, fields);
      const label = `${method} ${JSON.stringify(fields)}`;
      expect(response.status, label).toBe(400);
      expect(await response.json(), label).toEqual({ status: 'error', payload: { message } });
      expect(importId, label).toBeUndefined();
    }
    expect(await importCount(shop)).toBe(0);
  });

  it('keeps two shops apart when they import the same product ids at the same time', async () => {
    const [first, second] = await Promise.all([createTestShop(fixture.database.ctx), createTestShop(fixture.database.ctx)]);
    const puts = await Promise.all([
      applyImport(first, 'PUT', { items: [item('p1', 11), item('p2', 12), item('only-first', 13)] }),
      applyImport(second, 'PUT', { items: [item('p1', 21), item('p2', 22)] }),
    ]);
    expect(puts.map((record) => record.status)).toEqual(['done', 'done']);
    const patches = await Promise.all([applyImport(first, 'PATCH', { items: ['p1', 'only-first'] }), applyImport(second, 'PATCH', { items: ['p2'] })]);
    expect(patches.map((record) => [record.status, record.warnings])).toEqual([
      ['done', []],
      ['done', []],
    ]);
    expect(await storedProducts(first)).toEqual([
      ['only-first', 13, true],
      ['p1', 11, true],
      ['p2', 12, false],
    ]);
    expect(await storedProducts(second)).toEqual([
      ['p1', 21, false],
      ['p2', 22, true],
    ]);
  });

  it('counts neither /import/status nor storefront reads against the write rate limit', async () => {
    const limit = 40;
    const shop = await createTestShop(fixture.database.ctx);
    const { response, importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [item('p1', 5)] });
    expect(response.status).toBe(204);
    for (let i = 0; i <= limit; i++) expect((await importStatus(fixture.server.url, shop, importId!)).id).toBe(importId);
    expect((await waitForImport(fixture.server.url, shop, importId!)).status).toBe('done');
    const listing = `${fixture.server.url}/products?${new URLSearchParams({ shop_id: shop.shop_id, did: 'd1', sid: 's1' })}`;
    for (let i = 0; i <= limit; i++) {
      const read = await fetch(listing);
      expect(read.status, `read ${i + 1}`).toBe(200);
      expect((await read.json()).products).toEqual(['p1']);
    }
    // Had any of those calls counted, the shop's budget would be spent before the first of these.
    const statuses: number[] = [];
    for (let i = 1; i <= limit; i++) statuses.push((await sendImport(fixture.server.url, 'PATCH', 'products', shop, { items: ['p1'] })).response.status);
    expect(statuses).toEqual([...Array(limit - 1).fill(204), 429]);
  });
});
