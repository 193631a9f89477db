import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookAttempt } from '@/db/schema';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { eventually, startHttpReceiver } from '@/lib/testing/receivers';
import { startServer, type TestServer } from '@/lib/testing/server';

let database: TestDatabase;
let server: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({ DATABASE_URL: database.url, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAY_SECONDS: '1' });
});

afterAll(async () => {
  await server?.stop();
  await database?.close();
});

async function attempts(db: TestDatabase, shop: TestShop, importId: number): Promise<WebhookAttempt[]> {
  const [row] = await db.ctx.sql<{ webhook_attempts: WebhookAttempt[] }[]>`
    select webhook_attempts from imports where shop_id = ${shop.shop_id} and id = ${importId}`;
  return row.webhook_attempts;
}

const signature = (secret: string, body: string) => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

describe('import webhooks', () => {
  it('posts a signed success body once the import is done', async () => {
    const receiver = await startHttpReceiver();
    try {
      const shop = await createTestShop(database.ctx);
      const { importId } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }], webhook: `${receiver.url}/hooks/vitrine?x=1` });
      await waitForImport(server.url, shop, importId!);
      const [request] = await eventually(() => receiver.received, (r) => r.length > 0);
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/hooks/vitrine?x=1');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-vitrine-signature']).toBe(signature(shop.shop_secret, request.body));
      expect(JSON.parse(request.body)).toEqual({
        status: 'success',
        import_id: importId,
        operation: 'categories.replace',
        items_total: 1,
        items_applied: 1,
        items_rejected: 0,
        warnings: 0,
      });
      const recorded = await eventually(() => attempts(database, shop, importId!), (a) => a.length > 0);
      expect(recorded).toEqual([{ at: expect.any(String), outcome: 'delivered', status: 200 }]);
    } finally {
      await receiver.close();
    }
  });

  it('posts the error body with the rejected items when the import fails', async () => {
    const receiver = await startHttpReceiver();
    try {
      const shop = await createTestShop(database.ctx);
      const { importId } = await sendImport(server.url, 'PUT', 'locations', shop, {
        locations: [{ id: 'msk', name: 'Moscow', parent: null }, { id: 'spb', name: 'SPb' }],
        webhook: receiver.url,
      });
      await waitForImport(server.url, shop, importId!);
      const [request] = await eventually(() => receiver.received, (r) => r.length > 0);
      expect(request.headers['x-vitrine-signature']).toBe(signature(shop.shop_secret, request.body));
      expect(JSON.parse(request.body)).toEqual({
        status: 'error',
        message: '1 of 2 items were rejected; the other 1 were applied',
        import_id: importId,
        operation: 'locations.upsert',
        items_total: 2,
        items_applied: 1,
        items_rejected: 1,
        errors: [{ item_id: 'spb', position: 1, message: 'parent is required (null for a root)' }],
      });
    } finally {
      await receiver.close();
    }
  });

  it('retries with back-off until the receiver accepts, recording every attempt', async () => {
    const receiver = await startHttpReceiver([500, 503]);
    try {
      const shop = await createTestShop(database.ctx);
      const { importId } = await sendImport(server.url, 'POST', 'categories', shop, { categories: [], webhook: receiver.url });
      const recorded = await eventually(() => attempts(database, shop, importId!), (a) => a.length >= 3, 60_000);
      expect(recorded.map((a) => [a.outcome, a.status])).toEqual([
        ['failed', 500],
        ['failed', 503],
        ['delivered', 200],
      ]);
      // Back-off: the second retry waits longer than the first (1 s × 2^n with jitter).
      const times = recorded.map((a) => Date.parse(a.at));
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(900);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(1900);
      expect(receiver.received).toHaveLength(3);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook SSRF guard', () => {
  it('refuses a loopback webhook unless the host is allow-listed, and never sends it', async () => {
    const guarded = await createTestDatabase();
    const strict = await startServer({ DATABASE_URL: guarded.url, WEBHOOK_RETRY_DELAY_SECONDS: '1' });
    const receiver = await startHttpReceiver();
    try {
      const shop = await createTestShop(guarded.ctx);
      for (const url of [receiver.url, `http://localhost:${receiver.port}/`]) {
        const { importId } = await sendImport(strict.url, 'POST', 'categories', shop, { categories: [], webhook: url });
        const recorded = await eventually(() => attempts(guarded, shop, importId!), (a) => a.length > 0);
        expect(recorded).toHaveLength(1);
        expect(recorded[0].outcome).toBe('refused');
        expect(recorded[0].message).toMatch(/127\.0\.0\.1|non-public/);
      }
      // Give a retry, if one were (wrongly) scheduled, time to happen.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await strict.stop();
      await guarded.close();
    }
  });
});
