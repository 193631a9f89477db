import zlib from 'node:zlib';
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { startServer, type TestServer } from '@/lib/testing/server';
import { createCollection } from '@/lib/collections/manage-collections';

// Listings and collections skip Next.js's request handling (lib/http/direct-routes.ts): the same
// requests to a server that sends them through Next.js (DIRECT_ROUTES=off), on the same database,
// must get the same answers.
const fixture = serverWithDatabase();
let throughNext: TestServer;
let shop: TestShop;
let collectionId: number;

beforeAll(async () => {
  throughNext = await startServer({ DATABASE_URL: fixture.database.url, DIRECT_ROUTES: 'off', WORKERS: 'off' });
  shop = await createTestShop(fixture.database.ctx);
  const items = Array.from({ length: 40 }, (_, n) => ({
    id: `p${n}`,
    name: `Kettle ${n} — “Ørsted” ${'★'.repeat(n % 3)}`,
    price: 10 + n,
    oldprice: n % 4 === 0 ? 60 + n : undefined,
    url: `https://shop.example/p${n}`,
    picture: `https://shop.example/p${n}.jpg`,
    categories: [n % 2 ? 'c1' : 'c2'],
    params: [{ name: 'Colour', value: n % 3 ? 'red' : 'blue' }],
    available: n % 5 !== 0,
  }));
  const { importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items });
  expect((await waitForImport(fixture.server.url, shop, importId!)).status).toBe('done');
  collectionId = (await createCollection(fixture.database.ctx, shop.shop_id, { name: 'Picks', rules: { groups: [{ limit: 12 }] } })).id;
}, 60_000);

afterAll(async () => {
  await throughNext?.stop();
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function ask(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const request = http.request(`${base}${path}`, { method, headers: sent }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        let bytes = Buffer.concat(parts);
        if (response.headers['content-encoding'] === 'gzip') bytes = zlib.gunzipSync(bytes);
        // Links name the server's own address; each read counts toward `requests_count`.
        const text = bytes.toString('utf8').replaceAll(base.replace('http://', ''), 'HOST').replace(/"requests_count":\d+/g, '"requests_count":0');
        resolve({ status: response.statusCode!, headers: response.headers, body: text });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

it('answers listings and collections as Next.js does: statuses, types, bodies, errors', async () => {
  const s = shop.shop_id;
  const cases: [string, string, Record<string, string>?, string?][] = [
    ['GET', `/products?shop_id=${s}&did=d&sid=s&limit=5`],
    ['GET', `/products?shop_id=${s}&did=d&sid=s&limit=30&extended=true&sort=price&order=desc`, { 'accept-encoding': 'gzip' }],
    ['GET', `/products?shop_id=${s}&did=d&sid=s&filters=${encodeURIComponent(JSON.stringify({ Colour: ['red'] }))}&format=v2`, { 'accept-encoding': 'br;q=1, gzip;q=0.5' }],
    ['GET', `/products?shop_id=${s}&did=d&sid=s&search_query=kettle&limit=3`, { 'accept-encoding': 'gzip;q=0' }],
    ['GET', `/products?shop_id=${s}&did=d&sid=s&limit=abc`],
    ['GET', `/products?did=d&sid=s`],
    ['GET', `/products?shop_id=no-such-shop&did=d&sid=s`],
    ['POST', `/products`, { 'content-type': 'application/json' }, JSON.stringify({ shop_id: s, did: 'd', sid: 's', limit: 4, extended: true })],
    ['POST', `/products?shop_id=${s}`, { 'content-type': 'application/json' }, JSON.stringify({ did: 'd', sid: 's', categories: 'c1' })],
    ['POST', `/products`, { 'content-type': 'application/json' }, '{"shop_id": '],
    ['POST', `/products`, { 'content-type': 'text/plain' }, 'shop_id=1'],
    ['GET', `/collection/${collectionId}?shop_id=${s}&did=d&sid=s`, { 'accept-encoding': 'gzip' }],
    ['GET', `/collection/${encodeURIComponent(String(collectionId))}?shop_id=${s}&did=d&sid=s&extended=true`],
    ['GET', `/collection/99999999?shop_id=${s}&did=d&sid=s`],
    ['GET', `/collection/abc?shop_id=${s}&did=d&sid=s`],
    ['GET', `/collection/${collectionId}?did=d`],
  ];
  for (const [method, path, headers, body] of cases) {
    const direct = await ask(fixture.server.url, method, path, headers, body);
    const next = await ask(throughNext.url, method, path, headers, body);
    const label = `${method} ${path}`;
    expect(direct.status, label).toBe(next.status);
    expect(direct.headers['content-type'], label).toBe(next.headers['content-type']);
    expect(direct.body, label).toBe(next.body);
    expect(JSON.parse(direct.body), label).toBeTypeOf('object');
    // Large answers are gzipped for clients that take gzip, either way.
    if (direct.body.length >= 1024) expect(direct.headers['content-encoding'], label).toBe(next.headers['content-encoding']);
    // The two servers did answer differently: Next.js names its router's headers in Vary and
    // streams; the direct answer has a length.
    expect(next.headers.vary, label).toMatch(/next-router/);
    expect(direct.headers.vary, label).toBe('Accept-Encoding');
    expect(Number(direct.headers['content-length']), label).toBeGreaterThan(0);
  }
  // What the direct path does not take goes through Next.js there too.
  const put = await ask(fixture.server.url, 'PUT', '/products');
  expect([put.status, put.headers.allow, put.headers.vary]).toEqual([405, 'GET, POST', expect.stringMatching(/next-router/)]);
});

it('refuses a Host that is no host name with the error body', async () => {
  const answer = await ask(fixture.server.url, 'GET', `/products?shop_id=${shop.shop_id}&did=d&sid=s`, { host: 'a b' });
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toEqual({ status: 'error', payload: { message: 'Host header is not a host name' } });
});
