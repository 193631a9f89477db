import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { importStatus, sendImport, waitForImport } from '@/lib/testing/api';
import { startServer } from '@/lib/testing/server';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { JsonSyntaxError, scanJson } from '@/lib/http/json-scan';

const fixture = serverWithDatabase();

async function post(path: string, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }, method = 'POST') {
  const response = await fetch(`${fixture.server.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe('import intake', () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop(fixture.database.ctx);
  });

  it('accepts a valid import with 204, no body and X-Import-Id, and applies it', async () => {
    const { response, importId } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }] });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(importId).toBeGreaterThan(0);
    const record = await waitForImport(fixture.server.url, shop, importId!);
    expect(record).toMatchObject({ id: importId, shop_id: shop.shop_id, operation: 'categories.replace', status: 'done', items_total: 1, items_applied: 1, items_rejected: 0, errors: [], message: null });
    expect(Date.parse(record.finished_at as string)).toBeGreaterThanOrEqual(Date.parse(record.received_at as string));
  });

  it('wakes the applier of its own process, with no job row, when it applies imports itself', async () => {
    const own = await createTestShop(fixture.database.ctx);
    const { importId } = await sendImport(fixture.server.url, 'POST', 'categories', own, { categories: [{ id: 'a', name: 'A' }] });
    expect((await waitForImport(fixture.server.url, own, importId!)).status).toBe('done');
    const jobs = await fixture.database.ctx.sql`select id from pgboss.job where name = 'imports.apply' and data->>'shopId' = ${own.shop_id}`;
    expect(jobs.length).toBe(0);
  });

  it('answers 400 with the error body for a body that is not JSON', async () => {
    const result = await post('/import/categories', '{"shop_id": ');
    expect(result.status).toBe(400);
    expect(result.body.status).toBe('error');
    expect(result.body.payload.message).toMatch(/not valid JSON/);
  });

  // Bodies of 256 KiB and more are scanned on the server's scanning thread (lib/imports/pipeline/scan-thread.ts).
  const largeItems = (count: number) =>
    Array.from({ length: count }, (_, n) => ({ id: `big${n}`, name: `Product ${n}`, price: 10 + n, url: `https://s.example/${n}`, picture: `https://s.example/${n}.jpg`, categories: [], description: 'd'.repeat(300) }));

  it('takes a large body scanned off the request thread, and applies it', async () => {
    const own = await createTestShop(fixture.database.ctx);
    const items = largeItems(1_000);
    expect(JSON.stringify(items).length).toBeGreaterThan(256 << 10);
    const { response, importId } = await sendImport(fixture.server.url, 'PUT', 'products', own, { items });
    expect(response.status).toBe(204);
    expect(await waitForImport(fixture.server.url, own, importId!)).toMatchObject({ status: 'done', items_total: 1_000, items_applied: 1_000 });
    const [{ count }] = await fixture.database.ctx.sql<{ count: number }[]>`select count(*)::int as count from products where shop_id = ${own.shop_id}`;
    expect(count).toBe(1_000);
  });

  it('answers 400 naming the byte of the fault in a large body', async () => {
    const bytes = Buffer.from(JSON.stringify({ ...shop, items: largeItems(1_000) }));
    bytes[300_000] = 0x01;
    let fault: JsonSyntaxError | undefined;
    try {
      scanJson(bytes);
    } catch (error) {
      fault = error as JsonSyntaxError;
    }
    expect(fault?.position).toBe(300_000);
    const response = await fetch(`${fixture.server.url}/import/products`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: bytes });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ status: 'error', payload: { message: `Request body is not valid JSON: ${fault!.message}` } });
  });

  it('answers 400 alike for an unknown shop and a wrong secret', async () => {
    const unknown = await post('/import/categories', JSON.stringify({ shop_id: 'nope', shop_secret: shop.shop_secret, categories: [] }));
    const wrong = await post('/import/categories', JSON.stringify({ shop_id: shop.shop_id, shop_secret: 'wrong', categories: [] }));
    const missing = await post('/import/categories', JSON.stringify({ categories: [] }));
    const nul = await post('/import/categories', JSON.stringify({ shop_id: 'a\u0000', shop_secret: 'x', categories: [] }));
    for (const result of [unknown, wrong, missing, nul]) {
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ status: 'error', payload: { message: 'Invalid shop_id or shop_secret' } });
    }
  });

  it('answers 415 for a Content-Type other than application/json', async () => {
    const result = await post('/import/categories', JSON.stringify({ ...shop, categories: [] }), { 'Content-Type': 'text/plain' });
    expect(result.status).toBe(415);
    expect(result.body.payload.message).toBe('Content-Type must be application/json');
    const withCharset = await post('/import/categories', JSON.stringify({ ...shop, categories: [] }), { 'Content-Type': 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(204);
  });

  it('answers 400 naming the field for a missing or non-array list and a bad webhook', async () => {
    const missing = await post('/import/locations', JSON.stringify({ ...shop }));
    expect(missing.status).toBe(400);
    expect(missing.body.payload.message).toBe('locations is required');
    const notArray = await post('/import/products', JSON.stringify({ ...shop, items: {} }), undefined, 'PUT');
    expect(notArray.status).toBe(400);
    expect(notArray.body.payload.message).toBe('items must be an array');
    const webhook = await post('/import/categories', JSON.stringify({ ...shop, categories: [], webhook: 'ftp://example.com/x' }));
    expect(webhook.status).toBe(400);
    expect(webhook.body.payload.message).toBe('webhook must be an http(s) URL');
    // CONTRACT §3: a webhook that is not an http(s) URL is a 400, an empty one too (null is none).
    const empty = await post('/import/categories', JSON.stringify({ ...shop, categories: [], webhook: '' }));
    expect(empty.status).toBe(400);
    expect(empty.body.payload.message).toBe('webhook must be an http(s) URL');
    const none = await post('/import/categories', JSON.stringify({ ...shop, categories: [], webhook: null }));
    expect(none.status).toBe(204);
    const method = await post('/import/products', JSON.stringify({ ...shop, items: [], method: 'GET' }));
    expect(method.status).toBe(400);
    expect(method.body.payload.message).toBe('method must be one of PUT, PATCH, DELETE');
  });

  it('answers a method an endpoint does not take with 405, the error body and Allow', async () => {
    for (const [path, method, allowed] of [
      ['/import/products', 'GET', 'PUT, PATCH, DELETE, POST'],
      ['/import/categories', 'PATCH', 'POST, PUT, DELETE'],
      ['/import/status', 'GET', 'POST'],
      ['/products', 'DELETE', 'GET, POST'],
      ['/subscriptions/callback', 'PUT', 'POST'],
      ['/collection/some-id', 'POST', 'GET'],
    ]) {
      const response = await fetch(`${fixture.server.url}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
      expect([path, method, response.status, response.headers.get('allow')]).toEqual([path, method, 405, allowed]);
      expect(await response.json()).toEqual({ status: 'error', payload: { message: `This endpoint takes ${allowed}` } });
    }
  });

  it('answers a path under an endpoint that is no endpoint with 404 and the error body', async () => {
    for (const [method, path] of [
      ['POST', '/import/nothing'],
      ['GET', '/import/products/x'],
      ['PUT', '/subscriptions/other'],
      ['GET', '/products/x'],
      ['GET', '/init/x'],
      ['GET', '/collection/1/x'],
      ['GET', '/images/220'],
      ['GET', '/images/220/key/more'],
    ]) {
      const response = await fetch(`${fixture.server.url}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(await response.json()).toEqual({ status: 'error', payload: { message: `No endpoint at ${path}` } });
    }
  });

  it('records the operation each method maps to', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['PUT', 'categories', { categories: [] }, 'categories.upsert'],
      ['DELETE', 'categories', { categories: [] }, 'categories.delete'],
      ['POST', 'locations', { locations: [] }, 'locations.replace'],
      ['PUT', 'products', { items: [] }, 'products.put'],
      ['PATCH', 'products', { items: [] }, 'products.patch'],
      ['DELETE', 'products', { items: [] }, 'products.delete'],
      ['POST', 'products', { items: [] }, 'products.load'],
      ['POST', 'products', { items: [], method: 'patch' }, 'products.patch'],
    ];
    for (const [method, resource, fields, operation] of cases) {
      const { response, importId } = await sendImport(fixture.server.url, method, resource, shop, fields);
      expect(response.status, `${method} ${resource}`).toBe(204);
      expect((await importStatus(fixture.server.url, shop, importId!)).operation).toBe(operation);
    }
  });

  it('refuses a declared body over 35 MiB with 413 before reading it', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${fixture.server.url}/import/categories`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(36_700_161) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on('error', reject);
      // Only the first bytes are ever sent: the answer must come without the rest.
      req.write('{"shop_id":"x"');
    });
    expect(status).toBe(413);
  });

  it('stops reading a chunked body at the 35 MiB limit with 413', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 40) return controller.close();
        sent++;
        controller.enqueue(sent === 1 ? Buffer.from('{"a":"') : chunk);
      },
    });
    const response = await fetch(`${fixture.server.url}/import/categories`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).payload.message).toMatch(/exceeds the limit of 36700160 bytes/);
  });

  it('accepts a body just under the limit', async () => {
    const filler = 'x'.repeat(36_700_160 - 200);
    const body = JSON.stringify({ ...shop, categories: [], note: filler });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(36_700_160);
    const result = await post('/import/categories', body);
    expect(result.status).toBe(204);
  });
});

describe('failed authentications', () => {
  it('lock the client address out with 429 once the limit is reached', async () => {
    const limited = await startServer({ DATABASE_URL: fixture.database.url, AUTH_FAILURES_PER_MINUTE: '5' });
    try {
      const shop = await createTestShop(fixture.database.ctx);
      const guessStatus = () =>
        fetch(`${limited.url}/import/status`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ shop_id: shop.shop_id, shop_secret: 'guess', import_id: 1 }),
        }).then((response) => response.status);
      // Guesses at /import/status cost a scrypt too, and count with the imports' ones.
      const statuses: number[] = [await guessStatus(), await guessStatus()];
      for (let i = 0; i < 4; i++) {
        statuses.push((await sendImport(limited.url, 'PUT', 'categories', { shop_id: shop.shop_id, shop_secret: 'guess' }, { categories: [] })).response.status);
      }
      statuses.push(await guessStatus());
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
      const { response } = await sendImport(limited.url, 'PUT', 'categories', shop, { categories: [] });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await response.json()).payload.message).toMatch(/^Too many failed authentications from this address/);
      // A spoofed address header changes nothing: the server sets it from the socket.
      const spoofed = await fetch(`${limited.url}/import/categories`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-Vitrine-Client-Address': '203.0.113.9' },
        body: JSON.stringify({ ...shop, categories: [] }),
      });
      expect(spoofed.status).toBe(429);
    } finally {
      await limited.stop();
    }
  });
});

describe('import status', () => {
  it('answers only the owning shop, with 404 for unknown ids', async () => {
    const owner = await createTestShop(fixture.database.ctx);
    const other = await createTestShop(fixture.database.ctx);
    const { importId } = await sendImport(fixture.server.url, 'PUT', 'locations', owner, { locations: [{ id: 'msk', name: 'Moscow', parent: null }] });
    await waitForImport(fixture.server.url, owner, importId!);
    const foreign = await post('/import/status', JSON.stringify({ ...other, import_id: importId }));
    expect(foreign.status).toBe(404);
    expect(foreign.body.payload.message).toBe(`Import ${importId} not found`);
    const badCreds = await post('/import/status', JSON.stringify({ shop_id: owner.shop_id, shop_secret: 'x', import_id: importId }));
    expect(badCreds.status).toBe(400);
    for (const id of ['abc', true, 1.5, '1e3', [importId], 1e20, '9223372036854775808', -1]) {
      const badId = await post('/import/status', JSON.stringify({ ...owner, import_id: id }));
      expect(badId.status, JSON.stringify(id)).toBe(400);
      expect(badId.body.payload.message).toBe('import_id must be a positive integer');
    }
    // A string of digits is the id too.
    const asString = await post('/import/status', JSON.stringify({ ...owner, import_id: ` ${importId}` }));
    expect(asString.status).toBe(200);
    expect(asString.body.id).toBe(importId);
  });
});
