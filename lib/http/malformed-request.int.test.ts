import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { createTestShop, createTestStaff } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { MAX_PATH_BYTES } from './malformed-request';

const fixture = serverWithDatabase();
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
let shopId: string;
let cookie: string;

/** Every route of the app, read from the files that define them, with a sample value in each dynamic segment. */
function routePaths(): string[] {
  const app = path.resolve(import.meta.dirname, '..', '..', 'app');
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        // Route groups, "(console)", add no segment.
        walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
      } else if (entry.name === 'route.ts') found.push('/' + segments.join('/'));
    }
  };
  walk(app, []);
  return found;
}

function sample(route: string): string {
  return route
    .replace('[shopId]', shopId)
    .replace('[...path]', 'a/b')
    .replace('[size]', '120')
    .replace('[key]', 'k')
    .replace('[id]', '1');
}

async function expectErrorBody(response: Response, status: number, context: string) {
  expect(response.status, context).toBe(status);
  expect(response.headers.get('content-type'), context).toMatch(/^application\/json/);
  const body = await response.json();
  expect(body, context).toEqual({ status: 'error', payload: { message: expect.any(String) } });
  return body.payload.message as string;
}

/**
 * Sends bytes as they are (no client normalises them) and reads the answer until the server
 * closes (a request must ask for that). The socket stays open for writing: a client's half-close
 * ends the request.
 */
function rawRequest(text: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(fixture.server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
    });
  });
}

let staff: { email: string; password: string };

/** A session cookie of a new sign-in (the every-method test's DELETE /admin/api/session ends one). */
async function signIn(): Promise<string> {
  const login = await fetch(`${fixture.server.url}/admin/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(staff),
  });
  expect(login.status).toBe(200);
  return login.headers.get('set-cookie')!.split(';')[0];
}

beforeAll(async () => {
  const ctx = fixture.database.ctx;
  shopId = (await createTestShop(ctx)).shop_id;
  staff = await createTestStaff(ctx);
  cookie = await signIn();
});

it('answers every method on every route with JSON: the route itself, or 405 with the error body and Allow', async () => {
  const routes = routePaths();
  expect(routes).toContain('/admin/api/shops/[shopId]/flags');
  for (const route of routes) {
    for (const method of METHODS) {
      const response = await fetch(fixture.server.url + sample(route), { method, headers: { cookie } });
      const context = `${method} ${route}`;
      expect(response.status, context).toBeLessThan(500);
      if (response.status === 405) {
        expect(response.headers.get('allow'), context).toMatch(/^[A-Z, ]+$/);
        expect(response.headers.get('allow')!.split(', '), context).not.toContain(method);
      }
      if (response.status >= 400) await expectErrorBody(response, response.status, context);
    }
  }
});

it('answers a path that cannot be decoded with 400, on every route', async () => {
  for (const route of routePaths()) {
    const samplePath = sample(route);
    for (const bad of ['%ZZ', '%E0%A4%A', '%C3%28', '%ED%A0%80', '%']) {
      // In place of the last segment, and below it.
      const replaced = samplePath.replace(/[^/]+$/, bad);
      for (const target of [replaced, `${samplePath}/${bad}`]) {
        const message = await expectErrorBody(await fetch(fixture.server.url + target, { headers: { cookie } }), 400, target);
        expect(message).toBe('Path cannot be decoded (a bad percent-escape or invalid UTF-8)');
      }
    }
  }
  // Bytes above ASCII sent raw, as no browser would: the parser refuses them.
  const raw = await rawRequest(Buffer.concat([Buffer.from('GET /collection/'), Buffer.from([0xc3, 0x28]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]));
  expect(raw.status).toBe(400);
  expect(JSON.parse(raw.body).payload.message).toBe('Malformed HTTP request (HPE_INVALID_URL)');
});

it('answers a path under a route that is no endpoint, or no route at all, with 404 and the error body', async () => {
  for (const target of ['/nothing', '/admin/api', '/admin/api/nothing', `/admin/api/shops/${shopId}`, `/admin/api/shops/${shopId}/nothing/here`, '/collection/1/x', '/import/nothing', '/%2e%2e/etc/passwd']) {
    const message = await expectErrorBody(await fetch(fixture.server.url + target, { headers: { cookie } }), 404, target);
    expect(message).toMatch(/^No endpoint at \//);
  }
  // The admin app's own pages keep an HTML 404 for people.
  const page = await fetch(`${fixture.server.url}/admin/no-such-page`, { headers: { cookie: await signIn() }, redirect: 'manual' });
  expect(page.status).toBe(404);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
});

it('answers an over-long path with 414, headers past the limit with 431, both with the error body', async () => {
  const long = `/collection/${'1'.repeat(MAX_PATH_BYTES)}`;
  expect(await expectErrorBody(await fetch(fixture.server.url + long), 414, 'long path')).toBe(`Path too long (at most ${MAX_PATH_BYTES} characters)`);
  expect(await expectErrorBody(await fetch(`${fixture.server.url}/admin/api/shops/${'a'.repeat(MAX_PATH_BYTES)}/flags`, { headers: { cookie } }), 414, 'long admin path')).toMatch(/^Path too long/);
  // A path just below the limit is routed as usual.
  const routed = await fetch(`${fixture.server.url}/collection/${'1'.repeat(MAX_PATH_BYTES - 20)}?shop_id=${shopId}`);
  expect(await expectErrorBody(routed, 400, 'long id')).toMatch(/^Collection id must be a positive integer/);
  const huge = await rawRequest(`GET /products?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  expect(huge.status).toBe(431);
  expect(JSON.parse(huge.body)).toEqual({ status: 'error', payload: { message: 'Request headers too large' } });
});

it('answers methods no route takes, and requests the parser rejects, with the error body', async () => {
  for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PURGE']) {
    const response = await rawRequest(`${method} /products HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(response.status, method).toBe(405);
    expect(JSON.parse(response.body), method).toEqual({ status: 'error', payload: { message: `Method ${method} is not supported` } });
  }
  for (const request of ['FOO /products HTTP/1.1\r\nHost: x\r\n\r\n', 'CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']) {
    const response = await rawRequest(request);
    expect(response.status, request).toBe(405);
    expect(JSON.parse(response.body).status).toBe('error');
  }
  const garbage = await rawRequest('GET /products HTTP/1.1\r\nHost x\r\n\r\n');
  expect(garbage.status).toBe(400);
  expect(JSON.parse(garbage.body).payload.message).toMatch(/^Malformed HTTP request/);
  const noHost = await rawRequest('GET /products HTTP/1.1\r\nConnection: close\r\n\r\n');
  expect(noHost.status).toBe(400);
  expect(JSON.parse(noHost.body).payload.message).toBe('Host header is required');
  // HTTP/1.0 needs no Host.
  const old = await rawRequest(`GET /products?shop_id=${shopId}&did=d&sid=s HTTP/1.0\r\n\r\n`);
  expect(old.status).toBe(200);
  // None of it took the server down.
  expect((await fetch(`${fixture.server.url}/products?shop_id=${shopId}&did=d&sid=s`)).status).toBe(200);
  expect(fixture.server.output()).not.toMatch(/request failed|unexpected error/);
});

it('answers a request first, then the bytes after it it cannot parse (a GET body sent without Content-Length), each in order', async () => {
  // Node's http.request sends a GET's or DELETE's body without Content-Length: the server reads
  // it as the next request. The request's own answer used to be cut off by that one's error
  // (the client met a reset, or the error in place of its answer).
  const cookie = await signIn();
  for (const [target, status] of [[`/admin/api/shops/${shopId}/collections`, 200], [`/products?shop_id=${shopId}&did=d&sid=s`, 200], ['/import/categories', 405]] as const) {
    const { headers, body } = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n\r\n{"name":"x","rules":{"groups":[{}]}}`);
    expect(headers.split('\r\n')[0], target).toBe(`HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Method Not Allowed'}`);
    // The second answer follows the first's body: its last chunk, or its Content-Length's bytes.
    const [, second] = body.split(/(?:\r\n)?(?=HTTP\/1\.1 \d{3} )/);
    expect(second, target).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(second).toContain('Connection: close');
    expect(JSON.parse(second.split('\r\n\r\n')[1])).toEqual({ status: 'error', payload: { message: 'Method is not supported' } });
  }
});

it('refuses . and .. segments with 400, and serves a path with empty segments without a redirect (a long query made it unreadable)', async () => {
  const long = `long=${'z'.repeat(6000)}`;
  const cookie = await signIn();
  for (const target of [`/images/140/%2e%2e?&${long}`, '/images/140/%2E', '/products/./x', '/./products', '/admin/api/shops/..', '/admin/%2e%2e/x']) {
    const { status, headers, body } = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(status, target).toBe(400);
    expect(headers.length, target).toBeLessThan(500);
    expect(JSON.parse(body), target).toEqual({ status: 'error', payload: { message: 'Path must not contain . or .. segments' } });
  }
  // A segment of dots that is not a dot segment is an ordinary one.
  expect((await rawRequest('GET /images/140/... HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(404);
  for (const target of [`/products/?shop_id=${shopId}&did=d&sid=s&${long}`, `//products?shop_id=${shopId}&did=d&sid=s`, `/admin/api/shops/${shopId}//collections/`]) {
    const { status, headers } = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`);
    expect(status, target).toBe(200);
    expect(headers, target).not.toMatch(/^location:/im);
  }
  // An admin page keeps the framework's redirect: a browser should show the page's own path.
  const page = await rawRequest(`GET /admin/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  expect(page.status).toBe(308);
  expect(page.headers).toMatch(/^location: \/admin$/im);
});

it('answers a shop id PostgreSQL cannot look up with the error body on every admin shop route, and other methods on the root with 405', async () => {
  // GET /admin/api/shops/%00/settings reached PostgreSQL with the NUL: a 500 (the full fuzz run).
  const fresh = await signIn();
  for (const route of routePaths().filter((r) => r.includes('[shopId]'))) {
    for (const method of METHODS) {
      for (const shop of ['%00', 'a%00b']) {
        const target = sample(route).replace(shopId, shop);
        const response = await fetch(fixture.server.url + target, { method, headers: { cookie: fresh, 'content-type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
        const context = `${method} ${target}`;
        await expectErrorBody(response, response.status === 405 ? 405 : 404, context);
      }
    }
  }
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    const response = await fetch(`${fixture.server.url}/`, { method, redirect: 'manual' });
    expect(await expectErrorBody(response, 405, method)).toBe('The root takes GET (it leads to /admin)');
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  }
});

it('keeps an idle keep-alive connection past the usual 5 s, so a client reusing it does not meet a reset', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; socket: net.Socket }>((resolve, reject) => {
      const req = http.get(`${fixture.server.url}/healthz`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket! }));
      });
      req.on('error', reject);
    });
  const first = await get();
  expect(first.status).toBe(200);
  let closed = false;
  first.socket.once('close', () => (closed = true));
  await new Promise((resolve) => setTimeout(resolve, 6_000)); // Node's default keepAliveTimeout is 5 s
  expect(closed).toBe(false);
  const second = await get();
  expect(second.status).toBe(200);
  expect(second.socket).toBe(first.socket); // the same connection, reused
  agent.destroy();
}, 20_000);
