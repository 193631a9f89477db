import crypto from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookAttempt } from '@/db/schema';
import { importStatus, sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { eventually } from '@/lib/testing/receivers';
import { startServer, type TestServer } from '@/lib/testing/server';

type Delivery = { method: string; path: string; headers: http.IncomingHttpHeaders; raw: Buffer };

/** A webhook endpoint on 127.0.0.1 that keeps the raw bytes of every request and answers `statuses` in turn, then 200. */
async function startReceiver(statuses: number[] = []) {
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ method: req.method!, path: req.url!, headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(statuses.shift() ?? 200, { 'Content-Type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Computed here rather than with the product's signBody, so a wrong key or encoding there shows.
const hmac = (secret: string, raw: Buffer) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;

async function attemptsOf(shop: TestShop, importId: number): Promise<WebhookAttempt[]> {
  const [row] = await database.ctx.sql<{ webhook_attempts: WebhookAttempt[] }[]>`
    select webhook_attempts from imports where shop_id = ${shop.shop_id} and id = ${importId}`;
  return row.webhook_attempts;
}

let database: TestDatabase;
let server: TestServer | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({ DATABASE_URL: database.url, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAY_SECONDS: '1' });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
});

describe('webhook delivery (receiver allow-listed)', () => {
  it('posts a signed success body once the import is done, and records the delivery', async () => {
    const receiver = await startReceiver();
    try {
      const shop = await createTestShop(database.ctx);
      const { response, importId } = await sendImport(server!.url, 'POST', 'categories', shop, {
        categories: [{ id: 'tea', name: 'Tea' }, { id: 'green', name: 'Green', parent: 'tea' }],
        webhook: `${receiver.url}/hooks/vitrine?token=abc`,
      });
      expect(response.status).toBe(204);
      const record = await waitForImport(server!.url, shop, importId!);
      expect(record.status).toBe('done');

      const [delivery] = await eventually(() => receiver.deliveries, (list) => list.length > 0);
      expect(delivery.method).toBe('POST');
      expect(delivery.path).toBe('/hooks/vitrine?token=abc');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-vitrine-import-id']).toBe(String(importId));
      expect(delivery.headers['x-vitrine-signature']).toBe(hmac(shop.shop_secret, delivery.raw));
      expect(delivery.headers['x-vitrine-signature']).not.toBe(hmac(`${shop.shop_secret}x`, delivery.raw));
      expect(JSON.parse(delivery.raw.toString('utf8'))).toEqual({
        status: 'success',
        import_id: importId,
        operation: 'categories.replace',
        items_total: 2,
        items_applied: 2,
        items_rejected: 0,
        warnings_count: 0,
      });

      const attempts = await eventually(() => attemptsOf(shop, importId!), (list) => list.length > 0);
      expect(attempts).toEqual([{ at: expect.any(String), outcome: 'delivered', status: 200 }]);
      expect(Date.parse(attempts[0].at)).toBeGreaterThanOrEqual(Date.parse(record.finished_at as string));
      expect(Date.parse(attempts[0].at)).toBeLessThanOrEqual(Date.now());
      expect(receiver.deliveries).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('posts the error body with each rejected item when the import fails', async () => {
    const receiver = await startReceiver();
    try {
      const shop = await createTestShop(database.ctx);
      // A non-ASCII id: the signature must cover the UTF-8 bytes actually sent.
      const { importId } = await sendImport(server!.url, 'POST', 'categories', shop, {
        categories: [{ id: 'ok', name: 'Fine' }, { id: 'x' }, { id: 'чай' }],
        webhook: `${receiver.url}/`,
      });
      const record = await waitForImport(server!.url, shop, importId!);
      expect(record.status).toBe('failed');

      const [delivery] = await eventually(() => receiver.deliveries, (list) => list.length > 0);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-vitrine-signature']).toBe(hmac(shop.shop_secret, delivery.raw));
      const body = JSON.parse(delivery.raw.toString('utf8'));
      expect(body).toEqual({
        status: 'error',
        message: '2 of 3 items were rejected; the other one was applied',
        import_id: importId,
        operation: 'categories.replace',
        items_total: 3,
        items_applied: 1,
        items_rejected: 2,
        errors: [
          { item_id: 'x', position: 1, message: 'name is required' },
          { item_id: 'чай', position: 2, message: 'name is required' },
        ],
      });
      // The webhook tells the same story as the import record.
      expect(body.message).toBe(record.message);
      expect(body.errors).toEqual(record.errors);
      expect(await eventually(() => attemptsOf(shop, importId!), (list) => list.length > 0)).toEqual([
        { at: expect.any(String), outcome: 'delivered', status: 200 },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('caps the errors of the error body at 100 while counting every rejected item', async () => {
    const receiver = await startReceiver();
    try {
      const shop = await createTestShop(database.ctx);
      const categories = Array.from({ length: 150 }, (_, i) => ({ id: `c${i}` }));
      const { importId } = await sendImport(server!.url, 'POST', 'categories', shop, { categories, webhook: receiver.url });
      await waitForImport(server!.url, shop, importId!);
      const [delivery] = await eventually(() => receiver.deliveries, (list) => list.length > 0);
      const body = JSON.parse(delivery.raw.toString('utf8'));
      expect(body).toMatchObject({ status: 'error', items_total: 150, items_applied: 0, items_rejected: 150 });
      expect(body.errors).toHaveLength(100);
      expect(body.errors[0]).toEqual({ item_id: 'c0', position: 0, message: 'name is required' });
      expect(body.errors[99]).toEqual({ item_id: 'c99', position: 99, message: 'name is required' });
    } finally {
      await receiver.close();
    }
  });

  it('retries a receiver that answers 500 with back-off, recording every attempt', async () => {
    const receiver = await startReceiver([500, 500]);
    try {
      const shop = await createTestShop(database.ctx);
      const { importId } = await sendImport(server!.url, 'PUT', 'categories', shop, { categories: [{ id: 'a', name: 'A' }], webhook: receiver.url });
      const attempts = await eventually(() => attemptsOf(shop, importId!), (list) => list.length >= 3, 30_000);
      expect(attempts).toEqual([
        { at: expect.any(String), outcome: 'failed', status: 500, message: 'HTTP 500' },
        { at: expect.any(String), outcome: 'failed', status: 500, message: 'HTTP 500' },
        { at: expect.any(String), outcome: 'delivered', status: 200 },
      ]);
      // pg-boss back-off with a 1 s base: retry n waits between 2^(n-1) and 2^n seconds.
      const times = attempts.map((a) => Date.parse(a.at));
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(1950);

      expect(receiver.deliveries).toHaveLength(3);
      const [first] = receiver.deliveries;
      for (const delivery of receiver.deliveries) {
        expect(delivery.raw.equals(first.raw)).toBe(true);
        expect(delivery.headers['x-vitrine-signature']).toBe(hmac(shop.shop_secret, first.raw));
      }
      expect(JSON.parse(first.raw.toString('utf8'))).toMatchObject({ status: 'success', import_id: importId, operation: 'categories.upsert' });
      // A failing webhook never changes the import's own outcome.
      expect((await importStatus(server!.url, shop, importId!)).status).toBe('done');
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook SSRF guard (no allow-list)', () => {
  it('refuses a loopback webhook, records it as refused and never calls the receiver', async () => {
    // Every server on a database works the same job queue: the allow-listed one must be gone,
    // or it could take the delivery job itself.
    await server?.stop();
    const receiver = await startReceiver();
    // The receiver's port allowed: what is refused is the address, by the guarded lookup.
    server = await startServer({ DATABASE_URL: database.url, WEBHOOK_ALLOW_HOSTS: undefined, WEBHOOK_RETRY_DELAY_SECONDS: '1', OUTBOUND_ALLOW_PORTS: String(receiver.port) });
    try {
      const shop = await createTestShop(database.ctx);
      const literal = await sendImport(server.url, 'POST', 'categories', shop, { categories: [], webhook: `http://127.0.0.1:${receiver.port}/` });
      // A name that resolves to loopback is refused at connection time, by the guarded lookup.
      const named = await sendImport(server.url, 'POST', 'categories', shop, { categories: [], webhook: `http://localhost:${receiver.port}/` });

      const literalAttempts = await eventually(() => attemptsOf(shop, literal.importId!), (list) => list.length > 0);
      expect(literalAttempts).toEqual([{ at: expect.any(String), outcome: 'failed', message: 'refused, never sent: 127.0.0.1 is not a public address' }]);
      const namedAttempts = await eventually(() => attemptsOf(shop, named.importId!), (list) => list.length > 0);
      expect(namedAttempts).toEqual([{ at: expect.any(String), outcome: 'failed', message: 'refused, never sent: localhost resolves to a non-public address' }]);

      // Longer than a first retry could take (at most 2 s back-off plus a 1 s poll): none comes.
      await new Promise((resolve) => setTimeout(resolve, 3500));
      expect(await attemptsOf(shop, literal.importId!)).toHaveLength(1);
      expect(await attemptsOf(shop, named.importId!)).toHaveLength(1);
      expect(receiver.deliveries).toHaveLength(0);
      expect((await importStatus(server.url, shop, literal.importId!)).status).toBe('done');
    } finally {
      await receiver.close();
    }
  });
});
