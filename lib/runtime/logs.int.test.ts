import net from 'node:net';
import { expect, it } from 'vitest';
import { waitForImport } from '@/lib/testing/api';
import { createTestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { logLines, type LogLine } from '@/lib/testing/log-lines';
import { eventually } from '@/lib/testing/receivers';

// The server's stderr is a pipe here, as under a process manager: JSON lines. At debug, probes'
// lines and paths show too.
const fixture = serverWithDatabase({ LOG_LEVEL: 'debug' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The server's lines that `match`, once there are `count` of them (lines of a request come once it is answered). */
function linesOf(match: (line: LogLine) => boolean, count = 1): Promise<LogLine[]> {
  return eventually(() => Promise.resolve(logLines(fixture.server.output()).filter(match)), (lines) => lines.length >= count, 10_000);
}

const item = (id: string, price = 10) => ({ id, name: `Item ${id}`, price, url: `https://s.example/${id}`, picture: `https://s.example/${id}.jpg`, categories: [] });

it('answers every request with X-Request-Id, and logs one JSON line per request under that id', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const listing = `${fixture.server.url}/products?shop_id=${shop.shop_id}&did=d&sid=s`;
  // A sane id of the client's is echoed; none, or one that is not sane, gets a UUID.
  const echoed = await fetch(listing, { headers: { 'X-Request-Id': 'client-7f3a.9:b_c', 'Accept-Encoding': 'identity' } });
  expect(echoed.headers.get('x-request-id')).toBe('client-7f3a.9:b_c');
  const body = Buffer.from(await echoed.arrayBuffer());
  const generated = await fetch(listing);
  await generated.arrayBuffer();
  expect(generated.headers.get('x-request-id')).toMatch(UUID);
  const refused = await fetch(`${fixture.server.url}/collection/12345?shop_id=nope&q=secret`, { headers: { 'X-Request-Id': 'not sane because of spaces' } });
  expect(refused.status).toBe(400);
  const refusedId = refused.headers.get('x-request-id')!;
  expect(refusedId).toMatch(UUID);
  expect(await refused.json()).toEqual({ status: 'error', payload: { message: 'Shop not found' } });
  // Answered before Next.js (a probe, a malformed request) carry one too.
  const health = await fetch(`${fixture.server.url}/healthz`, { headers: { 'X-Request-Id': 'probe-1' } });
  expect([health.status, health.headers.get('x-request-id')]).toEqual([200, 'probe-1']);
  const malformed = await fetch(`${fixture.server.url}/products?shop_id=%E0%A4%A`);
  expect(malformed.headers.get('x-request-id')).toMatch(UUID);

  const [line] = await linesOf((l) => l.msg === 'request' && l.requestId === 'client-7f3a.9:b_c');
  expect(line).toEqual({
    level: 30,
    time: expect.any(String),
    pid: fixture.server.process.pid,
    hostname: expect.any(String),
    msg: 'request',
    method: 'GET',
    route: '/products',
    status: 200,
    ms: expect.any(Number),
    bytes: body.length,
    requestId: 'client-7f3a.9:b_c',
    shopId: shop.shop_id,
    // At debug only: the path, without its query.
  });
  expect(line.bytes).toBeGreaterThan(0);
  const [other] = await linesOf((l) => l.msg === 'request' && l.requestId === generated.headers.get('x-request-id'));
  expect(other).toMatchObject({ route: '/products', status: 200, shopId: shop.shop_id });
  // The pattern, never the ids, as the route; the path (never the query) at debug.
  const [refusal] = await linesOf((l) => l.msg === 'request' && l.requestId === refusedId);
  expect(refusal).toMatchObject({ level: 30, method: 'GET', route: '/collection/:id', path: '/collection/12345', status: 400, error: 'Shop not found' });
  expect(JSON.stringify(refusal)).not.toContain('secret');
  const [probe] = await linesOf((l) => l.msg === 'request' && l.requestId === 'probe-1');
  expect(probe).toMatchObject({ level: 20, route: '/healthz', status: 200 });
  const [bad] = await linesOf((l) => l.msg === 'request' && l.requestId === malformed.headers.get('x-request-id'));
  expect(bad).toMatchObject({ level: 30, route: '/products', status: malformed.status });

  // Everything the server writes is a JSON line, Next.js's own console output included.
  const lines = fixture.server.output().split('\n').filter((text) => text.trim() !== '');
  expect(lines.filter((text) => logLines(text).length !== 1)).toEqual([]);
  expect(logLines(fixture.server.output()).find((l) => l.msg.includes('next.config'))).toMatchObject({ level: 30 });
  expect(logLines(fixture.server.output()).find((l) => l.msg.startsWith('listening on '))).toMatchObject({ level: 30 });
});

it('logs a request whose client went away before its answer as aborted', async () => {
  const { hostname, port } = new URL(fixture.server.url);
  // An import whose body never arrives whole: the client closes the connection meanwhile.
  const socket = net.connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('PUT /import/products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nX-Request-Id: gone-early\r\n\r\n{"shop_id":');
  await new Promise((resolve) => setTimeout(resolve, 300));
  socket.destroy();
  const [line] = await linesOf((l) => l.msg === 'request' && l.requestId === 'gone-early');
  expect(line).toMatchObject({ level: 30, method: 'PUT', route: '/import/products', aborted: true });
  expect(line.status).toBeUndefined();
  // A client gone is no error of the service's.
  expect(logLines(fixture.server.output()).filter((l) => l.requestId === 'gone-early' && l.level >= 50)).toEqual([]);
});

it('logs each step of an import (accepted, started, applied or failed) with its shop and import id', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const send = async (items: unknown[]) => {
    const response = await fetch(`${fixture.server.url}/import/products`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': `import-${items.length}` },
      body: JSON.stringify({ ...shop, items }),
    });
    expect(response.status).toBe(204);
    return Number(response.headers.get('x-import-id'));
  };
  const good = await send([item('a'), item('b')]);
  const bad = await send([item('c', 0)]);
  expect((await waitForImport(fixture.server.url, shop, good)).status).toBe('done');
  expect((await waitForImport(fixture.server.url, shop, bad)).status).toBe('failed');

  const ofShop = (l: LogLine) => l.shopId === shop.shop_id && typeof l.msg === 'string' && l.msg.startsWith('import ');
  const lines = await linesOf(ofShop, 6);
  const steps = (importId: number) => lines.filter((l) => l.importId === importId).map((l) => l.msg);
  expect(steps(good)).toEqual(['import accepted', 'import started', 'import applied']);
  expect(steps(bad)).toEqual(['import accepted', 'import started', 'import failed']);
  const find = (importId: number, msg: string) => lines.find((l) => l.importId === importId && l.msg === msg);
  // Accepted while its request was answered: the line carries that request's id.
  expect(find(good, 'import accepted')).toMatchObject({ level: 30, operation: 'products.put', items: 2, bytes: expect.any(Number), requestId: 'import-2' });
  expect(find(good, 'import started')).toMatchObject({ level: 30, operation: 'products.put', attempt: 1 });
  expect(find(good, 'import applied')).toMatchObject({ level: 30, operation: 'products.put', items: 2, applied: 2, rejected: 0, ms: expect.any(Number) });
  expect(find(bad, 'import failed')).toMatchObject({ level: 40, items: 1, applied: 0, rejected: 1, message: expect.stringContaining('rejected') });
  // Applied on the job workers' thread, written as whole lines to the same stderr.
  expect(new Set(lines.map((l) => l.pid))).toEqual(new Set([fixture.server.process.pid]));
  // The PUT's own line names the shop as well.
  const [put] = await linesOf((l) => l.msg === 'request' && l.requestId === 'import-2');
  expect(put).toMatchObject({ method: 'PUT', route: '/import/products', status: 204, shopId: shop.shop_id });
});
