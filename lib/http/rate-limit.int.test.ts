import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendImport } from '@/lib/testing/api';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { startServer, type TestServer } from '@/lib/testing/server';

let database: TestDatabase;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  database = await createTestDatabase();
  [first, second] = await Promise.all([startServer({ DATABASE_URL: database.url }), startServer({ DATABASE_URL: database.url })]);
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await database?.close();
});

describe('write rate limit', () => {
  it('allows 40 writes a minute per shop across processes, then 429 with Retry-After', async () => {
    const shop = await createTestShop(database.ctx);
    const bystander = await createTestShop(database.ctx);
    // Refused before authentication: not counted.
    for (let i = 0; i < 5; i++) {
      const { response } = await sendImport(first.url, 'PUT', 'categories', { shop_id: shop.shop_id, shop_secret: 'wrong' }, { categories: [] });
      expect(response.status).toBe(400);
    }
    for (let i = 0; i < 40; i++) {
      const { response } = await sendImport(i % 2 ? first.url : second.url, 'PUT', 'categories', shop, { categories: [] });
      expect(response.status, `request ${i + 1}`).toBe(204);
    }
    for (const server of [first, second]) {
      const { response } = await sendImport(server.url, 'PUT', 'categories', shop, { categories: [] });
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = await response.json();
      expect(body.status).toBe('error');
      expect(body.payload.message).toMatch(/Rate limit of 40 requests per minute exceeded/);
    }
    // Refused requests are not queued.
    const [{ count }] = await database.ctx.sql<{ count: number }[]>`select count(*)::int as count from imports where shop_id = ${shop.shop_id}`;
    expect(count).toBe(40);
    // Another shop has its own budget.
    const { response } = await sendImport(first.url, 'PUT', 'categories', bystander, { categories: [] });
    expect(response.status).toBe(204);
  });
});

describe('LIMITS=off', () => {
  it('lifts the rate limit', async () => {
    const onPremise = await startServer({ DATABASE_URL: database.url, LIMITS: 'off' });
    try {
      const shop = await createTestShop(database.ctx);
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await sendImport(onPremise.url, 'PUT', 'categories', shop, { categories: [] })).response.status);
      expect(statuses.every((s) => s === 204)).toBe(true);
    } finally {
      await onPremise.stop();
    }
  });
});
