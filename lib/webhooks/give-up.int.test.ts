import http from 'node:http';
import net from 'node:net';
import { afterAll, expect, it } from 'vitest';
import type { WebhookAttempt } from '@/db/schema';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { eventually } from '@/lib/testing/receivers';

// Two retries after the first try, 1 s apart at first, and half a second for a receiver to answer.
// The receivers fail independently: the tests run side by side.
const fixture = serverWithDatabase({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_LIMIT: '2', WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_TIMEOUT_MS: '500' });
const servers: http.Server[] = [];

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: http.RequestListener): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    calls++;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`, calls: () => calls };
}

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function attemptsOf(shop: TestShop, importId: number): Promise<WebhookAttempt[]> {
  const [row] = await fixture.database.ctx.sql<{ webhook_attempts: WebhookAttempt[] }[]>`
    select webhook_attempts from imports where shop_id = ${shop.shop_id} and id = ${importId}`;
  return row.webhook_attempts;
}

/** The state pg-boss holds for the import's delivery job. */
async function deliveryState(importId: number): Promise<string | undefined> {
  const [row] = await fixture.database.ctx.sql<{ state: string }[]>`
    select state::text from pgboss.job where name = 'webhooks.deliver' and (data->>'importId')::bigint = ${importId}`;
  return row?.state;
}

/** Sends an import with this webhook and waits until its delivery job has given up. */
async function importGivingUp(webhook: string) {
  const shop = await createTestShop(fixture.database.ctx);
  const { importId } = await sendImport(fixture.server.url, 'PUT', 'categories', shop, { categories: [{ id: 'a', name: 'A' }], webhook });
  expect((await waitForImport(fixture.server.url, shop, importId!)).status).toBe('done');
  // Tries at 0 s, ~1–2 s and ~3–6 s; then the job is failed for good.
  await eventually(() => deliveryState(importId!), (state) => state === 'failed', 30_000);
  return { shop, importId: importId! };
}

it.concurrent('gives up after WEBHOOK_RETRY_LIMIT retries of a receiver that keeps failing, recording each try', async () => {
  const receiver = await listen((_req, res) => res.writeHead(503).end('down'));
  const { shop, importId } = await importGivingUp(receiver.url);
  const attempts = await attemptsOf(shop, importId);
  expect(attempts).toEqual(Array(3).fill({ at: expect.any(String), outcome: 'failed', status: 503, message: 'HTTP 503' }));
  // Longer than a third retry would wait (4–8 s after the last, with a 1 s poll): none comes.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect(receiver.calls()).toBe(3);
  expect(await attemptsOf(shop, importId)).toHaveLength(3);
});

it.concurrent('counts a receiver that does not answer in WEBHOOK_TIMEOUT_MS as a failed try, and retries it', async () => {
  // Takes the request and never answers.
  const receiver = await listen(() => {});
  const { shop, importId } = await importGivingUp(receiver.url);
  expect(await attemptsOf(shop, importId)).toEqual(Array(3).fill({ at: expect.any(String), outcome: 'failed', message: 'no answer within 500 ms' }));
  expect(receiver.calls()).toBe(3);
});

it.concurrent('counts a refused connection as a failed try, and retries it', async () => {
  const port = await closedPort();
  const { shop, importId } = await importGivingUp(`http://127.0.0.1:${port}/hook`);
  expect(await attemptsOf(shop, importId)).toEqual(Array(3).fill({ at: expect.any(String), outcome: 'failed', message: `connect ECONNREFUSED 127.0.0.1:${port}` }));
});
