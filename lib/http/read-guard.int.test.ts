import { beforeAll, expect, it } from 'vitest';
import { createCollection } from '@/lib/collections/manage-collections';
import { createTestShop, createTestStaff, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { requestFrom } from '@/lib/testing/http-from';

// Each test reads from addresses of its own (127.0.0.x): one budget per address.
const LIMIT = 4;
const fixture = serverWithDatabase({ READ_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
let shop: TestShop;
let collectionId: number;

const json = { 'Content-Type': 'application/json' };

/** One read of each kind the guard counts: listing (GET and POST), init, collection, image. */
function reads(from: string, headers: Record<string, string> = {}) {
  const url = fixture.server.url;
  return [
    () => requestFrom(from, `${url}/products?shop_id=${shop.shop_id}&did=d&sid=s`, { headers }),
    () => requestFrom(from, `${url}/products`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify({ shop_id: shop.shop_id, did: 'd', sid: 's' }) }),
    () => requestFrom(from, `${url}/init?shop_id=${shop.shop_id}`, { headers }),
    () => requestFrom(from, `${url}/collection/${collectionId}?shop_id=${shop.shop_id}`, { headers }),
    () => requestFrom(from, `${url}/images/120/unsigned.key`, { headers }),
  ];
}

beforeAll(async () => {
  shop = await createTestShop(fixture.database.ctx);
  collectionId = (await createCollection(fixture.database.ctx, shop.shop_id, { name: 'All', rules: { groups: [{ discount: false }] } })).id;
});

it('counts listings, init, collections and images against one budget per address, and answers 429 past it', async () => {
  const [listing, listingPost, init, collection, image] = reads('127.0.0.10');
  expect((await listing()).status).toBe(200);
  expect((await listingPost()).status).toBe(200);
  expect((await init()).status).toBe(200);
  expect((await collection()).status).toBe(200);
  for (const next of [image, listing, init]) {
    const refused = await next();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toEqual({ status: 'error', payload: { message: `Too many requests from this address: at most ${LIMIT} reads a minute` } });
  }
  // Another address has its own budget.
  expect((await reads('127.0.0.11')[0]()).status).toBe(200);
});

it('does not count imports, import status, the callback or the admin API', async () => {
  const from = '127.0.0.12';
  const url = fixture.server.url;
  const staff = await createTestStaff(fixture.database.ctx);
  for (let n = 0; n < LIMIT + 2; n++) {
    expect((await requestFrom(from, `${url}/import/products`, { method: 'PUT', headers: json, body: JSON.stringify({ ...shop, items: [] }) })).status).toBe(204);
    expect((await requestFrom(from, `${url}/import/status`, { method: 'POST', headers: json, body: JSON.stringify({ ...shop, import_id: 1 }) })).status).not.toBe(429);
    expect((await requestFrom(from, `${url}/subscriptions/callback`, { method: 'POST', headers: json, body: JSON.stringify({ ...shop, email: 'a@example.test', event: 'unsubscribed' }) })).status).toBe(200);
    expect((await requestFrom(from, `${url}/admin/api/session`, { method: 'POST', headers: json, body: JSON.stringify(staff) })).status).toBe(200);
  }
  const all = reads(from);
  for (const read of all.slice(0, LIMIT)) expect((await read()).status).not.toBe(429);
  expect((await all[LIMIT]()).status).toBe(429);
});

it('takes the address from the connection: client-address headers neither spend nor spare another budget', async () => {
  const spoofs = ['X-Vitrine-Client-Address', 'X-Forwarded-For', 'X-Real-IP', 'Forwarded'];
  for (let n = 0; n < LIMIT; n++) {
    const header = spoofs[n];
    const read = reads('127.0.0.13', { [header]: header === 'Forwarded' ? `for=10.0.0.${n}` : `10.0.0.${n}` })[n];
    expect((await read()).status).not.toBe(429);
  }
  for (const header of spoofs) expect((await reads('127.0.0.13', { [header]: '10.0.0.99' })[0]()).status).toBe(429);
  // Nor did they spend the budget of the addresses they named: 127.0.0.14 named by a client is untouched.
  const named = reads('127.0.0.15', { 'X-Vitrine-Client-Address': '127.0.0.14', 'X-Forwarded-For': '127.0.0.14' });
  for (const read of named.slice(0, LIMIT)) await read();
  expect((await reads('127.0.0.14')[0]()).status).toBe(200);
});
