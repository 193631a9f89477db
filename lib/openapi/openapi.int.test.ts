import http from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection } from '@/lib/collections/manage-collections';
import { imageSigningKey, linkExpiry, resizedImagePath } from '@/lib/images/image-urls';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

// /openapi.json is a valid OpenAPI 3.1 document, and the running server's real answers — a
// success and an error of every operation it lists — conform to it.

const fixture = serverWithDatabase({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', BODY_LIMIT_BYTES: '100000' });
type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>> } & Record<string, unknown>;
let doc: Doc;
let shop: TestShop;
let origin: http.Server;
let originUrl: string;
let collectionId: number;
const DOC_ID = 'https://vitrine.test/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const checked = new Map<string, Set<number>>();

const url = (path: string) => `${fixture.server.url}${path}`;
const post = (path: string, body: unknown, method = 'POST', contentType = 'application/json') =>
  fetch(url(path), { method, headers: { 'Content-Type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });

function validatorFor(ref: string) {
  const id = `${DOC_ID}${ref}`;
  return ajv.getSchema(id) ?? ajv.compile({ $id: `${id}-check`, $ref: id });
}

/** Checks an answer against the document's entry for that operation and status. */
async function conforms(method: string, template: string, response: Response) {
  const operation = doc.paths[template]?.[method.toLowerCase()];
  expect(operation, `${method} ${template} is in the document`).toBeDefined();
  const declared = operation.responses[String(response.status)] as { content?: Record<string, { schema: { $ref?: string } }>; headers?: Record<string, unknown> } | undefined;
  expect(declared, `${method} ${template} declares ${response.status}`).toBeDefined();
  for (const header of Object.keys(declared!.headers ?? {})) expect(response.headers.get(header), `${header} of ${response.status}`).not.toBeNull();
  const body = Buffer.from(await response.arrayBuffer());
  if (!declared!.content) {
    expect(body.length, `${method} ${template} ${response.status} has no body`).toBe(0);
  } else {
    const type = response.headers.get('content-type')!.split(';')[0];
    const content = declared!.content[type];
    expect(content, `${method} ${template} ${response.status} declares ${type}`).toBeDefined();
    if (content.schema.$ref) {
      const validate = validatorFor(content.schema.$ref);
      const json = JSON.parse(body.toString('utf8'));
      expect(validate(json), `${method} ${template} ${response.status}: ${ajv.errorsText(validate.errors)}\n${body.toString('utf8').slice(0, 500)}`).toBe(true);
    }
  }
  const key = `${method.toUpperCase()} ${template}`;
  checked.set(key, (checked.get(key) ?? new Set()).add(response.status));
}

beforeAll(async () => {
  const response = await fetch(url('/openapi.json'));
  expect(response.status).toBe(200);
  doc = await response.json();
  ajv.addSchema(doc, DOC_ID);
  shop = await createTestShop(fixture.database.ctx, { currency: 'EUR' });
  const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3060c0' } }).png().toBuffer();
  origin = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(photo));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
  const items = [
    { id: 'a', name: 'Red dress', price: 10, oldprice: 20, url: 'https://shop.example/a', picture: `${originUrl}/a.png`, categories: ['c1'], brand: 'Brand', params: [{ name: 'color', value: ['red'] }], locations: [{ location: 'l1' }] },
    { id: 'b', name: 'Blue dress', price: 30, url: 'https://shop.example/b', picture: `${originUrl}/b.png`, categories: ['c1'], fashion: { sizes: ['42'] } },
  ];
  for (const [resource, fields] of [
    ['categories', { categories: [{ id: 'c1', name: 'Dresses', parent: null, url: 'https://shop.example/c1' }] }],
    ['locations', { locations: [{ id: 'l1', name: 'Oslo', parent: null, type: 'city' }] }],
    ['products', { items }],
  ] as const) {
    const { importId } = await sendImport(fixture.server.url, resource === 'products' ? 'PUT' : 'POST', resource, shop, fields);
    expect((await waitForImport(fixture.server.url, shop, importId!)).status).toBe('done');
  }
  collectionId = (await createCollection(fixture.database.ctx, shop.shop_id, { name: 'Dresses', rules: { groups: [{ categories: ['c1'] }] } })).id;
});

afterAll(async () => {
  origin?.closeAllConnections();
  await new Promise((resolve) => origin?.close(resolve));
});

it('is a valid OpenAPI 3.1 document whose examples match their schemas', async () => {
  const result = await new Validator().validate(structuredClone(doc) as never);
  expect(result.errors ?? [], 'OpenAPI validation').toEqual([]);
  expect(result.valid).toBe(true);
  expect(doc.openapi).toBe('3.1.0');
  // The checks below can fail: an error body without its payload does not conform.
  expect(validatorFor('#/components/schemas/Error')({ status: 'error' })).toBe(false);
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const bodies = [
        ...Object.values((operation.requestBody as { content?: Record<string, { schema: { $ref?: string }; example?: unknown }> } | undefined)?.content ?? {}),
        ...Object.values(operation.responses).flatMap((response) => Object.values((response as { content?: Record<string, { schema: { $ref?: string }; example?: unknown }> }).content ?? {})),
      ];
      for (const { schema, example } of bodies) {
        if (!schema.$ref || example === undefined) continue;
        const validate = validatorFor(schema.$ref);
        expect(validate(example), `example of ${method} ${template} against ${schema.$ref}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  }
});

describe('real answers conform to the document', () => {
  it('imports: a success and an error of each method', async () => {
    const wrong = { shop_id: shop.shop_id, shop_secret: 'wrong' };
    const cases: [string, string, Record<string, unknown>][] = [
      ['POST', '/import/categories', { categories: [{ id: 'c1', name: 'Dresses', parent: null }] }],
      ['PUT', '/import/categories', { categories: [{ id: 'c2', name: 'Skirts', parent: 'c1' }] }],
      ['DELETE', '/import/categories', { categories: ['c2'] }],
      ['POST', '/import/locations', { locations: [{ id: 'l1', name: 'Oslo', parent: null }] }],
      ['PUT', '/import/locations', { locations: [{ id: 'l2', name: 'Bergen', parent: null }] }],
      ['DELETE', '/import/locations', { locations: ['l2'] }],
      ['PUT', '/import/products', { items: [{ id: 'c', name: 'Coat', price: 5, url: 'https://shop.example/c', picture: 'https://shop.example/c.png', categories: ['c1'] }] }],
      ['PATCH', '/import/products', { items: ['a', 'b', 'c'] }],
      ['DELETE', '/import/products', { items: ['c'] }],
      ['POST', '/import/products', { method: 'DELETE', items: ['c'] }],
    ];
    for (const [method, path, fields] of cases) {
      const accepted = await post(path, { ...shop, ...fields }, method);
      expect(accepted.status, `${method} ${path}`).toBe(204);
      expect(Number(accepted.headers.get('x-import-id'))).toBeGreaterThan(0);
      await conforms(method, path, accepted);
      const refused = await post(path, { ...wrong, ...fields }, method);
      expect(refused.status).toBe(400);
      await conforms(method, path, refused);
    }
    const notJson = await post('/import/products', 'items=1', 'PUT', 'text/plain');
    expect(notJson.status).toBe(415);
    await conforms('PUT', '/import/products', notJson);
    const tooLarge = await post('/import/products', { ...shop, items: [], padding: 'x'.repeat(100_001) }, 'PUT');
    expect(tooLarge.status).toBe(413);
    await conforms('PUT', '/import/products', tooLarge);
  });

  it('imports past the rate limit: 429 with Retry-After', async () => {
    const busy = await createTestShop(fixture.database.ctx);
    let last: Response | undefined;
    for (let i = 0; i < 41; i++) {
      last = await post('/import/categories', { ...busy, categories: [] }, 'PUT');
      if (last.status !== 204) break;
      await last.arrayBuffer();
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    await conforms('PUT', '/import/categories', last!);
  });

  it('import status, listing, init, collection, callback, images, health', async () => {
    const { importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [{ id: 'bad', name: 'Bad', price: 0, url: 'u', picture: 'p', categories: [] }] });
    await waitForImport(fixture.server.url, shop, importId!);
    const answers: [string, string, Promise<Response>, number][] = [
      ['POST', '/import/status', post('/import/status', { ...shop, import_id: importId }), 200],
      ['POST', '/import/status', post('/import/status', { ...shop }), 400],
      ['POST', '/import/status', post('/import/status', { ...shop, import_id: 999_999 }), 404],
      ['GET', '/products', fetch(url(`/products?shop_id=${shop.shop_id}&did=d&sid=s&extended=true&locations=l1`)), 200],
      ['GET', '/products', fetch(url(`/products?shop_id=${shop.shop_id}&did=d&sid=s&format=v2&filters=${encodeURIComponent('{"color":["red"]}')}`)), 200],
      ['GET', '/products', fetch(url('/products?shop_id=nope&did=d&sid=s')), 400],
      ['POST', '/products', post('/products', { shop_id: shop.shop_id, did: 'd', sid: 's', sort_by: 'price', extended: true }), 200],
      ['POST', '/products', post('/products', { shop_id: shop.shop_id, did: 'd', sid: 's', sort_by: 'cheapest' }), 400],
      ['POST', '/products', post('/products', 'shop_id=1', 'POST', 'text/plain'), 415],
      ['GET', '/init', fetch(url(`/init?shop_id=${shop.shop_id}&did=device-1`)), 200],
      ['GET', '/init', fetch(url('/init?shop_id=nope')), 400],
      ['GET', '/collection/{id}', fetch(url(`/collection/${collectionId}?shop_id=${shop.shop_id}`)), 200],
      ['GET', '/collection/{id}', fetch(url(`/collection/${collectionId}?shop_id=${shop.shop_id}&format=v2`)), 200],
      ['GET', '/collection/{id}', fetch(url(`/collection/999999?shop_id=${shop.shop_id}`)), 404],
      ['GET', '/collection/{id}', fetch(url(`/collection/x?shop_id=${shop.shop_id}`)), 400],
      ['POST', '/subscriptions/callback', post('/subscriptions/callback', { ...shop, email: 'Customer@Example.com', event: 'unsubscribed' }), 200],
      ['POST', '/subscriptions/callback', post('/subscriptions/callback', { ...shop, shop_secret: 'wrong', email: 'a@example.com', event: 'unsubscribed' }), 400],
      ['GET', '/images/{size}/{key}', fetch(url(resizedImagePath(imageSigningKey(fixture.database.ctx.sealKey), 120, { shopId: shop.shop_id, url: `${originUrl}/a.png`, expires: linkExpiry(Date.now()) })), { headers: { Accept: 'image/webp' } }), 200],
      ['GET', '/images/{size}/{key}', fetch(url('/images/120/forged.aHR0cDovL2V4YW1wbGUuY29tL3gucG5n')), 404],
      ['GET', '/healthz', fetch(url('/healthz')), 200],
      ['GET', '/readyz', fetch(url('/readyz')), 200],
    ];
    for (const [method, template, answer, status] of answers) {
      const response = await answer;
      expect(response.status, `${method} ${template}`).toBe(status);
      await conforms(method, template, response);
    }
  });

  it('covered every operation of the document with a success and an error', () => {
    const operations = Object.entries(doc.paths).flatMap(([template, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${template}`));
    // Health and readiness have no error to provoke here (see lib/runtime/health.int.test.ts).
    const withoutErrors = new Set(['GET /healthz', 'GET /readyz']);
    for (const operation of operations) {
      const statuses = [...(checked.get(operation) ?? [])];
      expect(statuses.some((status) => status < 300), `${operation} success`).toBe(true);
      if (!withoutErrors.has(operation)) expect(statuses.some((status) => status >= 400), `${operation} error`).toBe(true);
    }
  });
});
