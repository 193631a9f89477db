import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendImport, waitForImport } from '@/lib/testing/api';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { createTestShop, createTestStaff } from '@/lib/testing/factories';
import { eventually, startHttpReceiver, startSmtpCapture } from '@/lib/testing/receivers';
import { startWorker, type TestServer } from '@/lib/testing/server';

const TOKEN = 'metrics-token-for-tests';
const receivers: { close: () => Promise<void> }[] = [];
let smtpUrl = '';
let mail: Awaited<ReturnType<typeof startSmtpCapture>>;

beforeAll(async () => {
  mail = await startSmtpCapture();
  smtpUrl = mail.url;
  receivers.push(mail);
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

const fixture = serverWithDatabase({ METRICS_TOKEN: TOKEN, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', get SMTP_URL() { return smtpUrl; } });

async function scrape(url: string, token = TOKEN): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the series `name{labels}` in a Prometheus text, or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

it('refuses a scrape without the token, with the error body', async () => {
  const attempts: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong' }, { Authorization: TOKEN }];
  for (const headers of attempts) {
    const response = await fetch(`${fixture.server.url}/metrics`, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: 'error', payload: { message: expect.stringContaining('METRICS_TOKEN') } });
  }
});

it('counts requests, imports accepted and applied (on the workers thread), listings, index builds, webhooks and emails', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  await createTestStaff(fixture.database.ctx, { shops: [shop.shop_id], technicalNotices: true });
  const hook = await startHttpReceiver();
  receivers.push(hook);
  const items = [1, 2, 3].map((n) => ({ id: `m${n}`, name: `Item ${n}`, price: 10 * n, url: `https://s.example/${n}`, picture: `https://s.example/${n}.jpg`, categories: [] }));
  const good = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items, webhook: `${hook.url}/hook` });
  // One item refused: the import fails, and its notice is emailed.
  const bad = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [{ ...items[0], id: 'bad', price: 0 }] });
  expect([good.response.status, bad.response.status]).toEqual([204, 204]);
  await waitForImport(fixture.server.url, shop, bad.importId!);
  for (let n = 0; n < 3; n++) expect((await fetch(`${fixture.server.url}/products?shop_id=${shop.shop_id}&did=d&sid=s`)).status).toBe(200);
  await eventually(() => hook.received.length, (count) => count === 1);
  await eventually(() => mail.messages.length, (count) => count === 1);

  const text = await eventually(() => scrape(fixture.server.url), (t) => (value(t, 'vitrine_emails_total{outcome="sent"}') ?? 0) >= 1 && (value(t, 'vitrine_webhook_deliveries_total{outcome="delivered"}') ?? 0) >= 1);
  expect(value(text, 'vitrine_imports_accepted_total{operation="products.put"}')).toBe(2);
  expect(value(text, 'vitrine_imports_finished_total{operation="products.put",status="done"}')).toBe(1);
  expect(value(text, 'vitrine_imports_finished_total{operation="products.put",status="failed"}')).toBe(1);
  expect(value(text, 'vitrine_import_items_applied_total{operation="products.put"}')).toBe(3);
  expect(value(text, 'vitrine_import_apply_duration_seconds_count{operation="products.put"}')).toBe(2);
  expect(value(text, 'vitrine_http_requests_total{route="/products",method="GET",status="200"}')).toBe(3);
  expect(value(text, 'vitrine_http_requests_total{route="/import/products",method="PUT",status="204"}')).toBe(2);
  expect(value(text, 'vitrine_http_request_duration_seconds_count{route="/products",method="GET"}')).toBe(3);
  expect(value(text, 'vitrine_listing_duration_seconds_count{shop_size="1k"}')).toBe(3);
  expect(value(text, 'vitrine_listing_index_builds_total{kind="full"}')).toBeGreaterThanOrEqual(1);
  expect(value(text, 'vitrine_listing_index_bytes')).toBeGreaterThan(0);
  expect(value(text, 'vitrine_imports_pending')).toBe(0);
  expect(value(text, 'vitrine_webhook_deliveries_total{outcome="delivered"}')).toBe(1);
  expect(value(text, 'vitrine_emails_total{outcome="sent"}')).toBe(1);
  // The process's own: event-loop lag and memory.
  expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
});

it('serves a worker node’s metrics on METRICS_PORT', async () => {
  const worker: TestServer = await startWorker({ DATABASE_URL: fixture.database.url, METRICS_TOKEN: TOKEN, METRICS_PORT: '0' });
  try {
    const url = /metrics on (http:\/\/[\d.]+:\d+)/.exec(worker.output())?.[1];
    expect(url, worker.output()).toBeDefined();
    const text = await scrape(url!);
    expect(text).toMatch(/^# TYPE vitrine_imports_finished_total counter$/m);
    expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
  } finally {
    await worker.stop();
  }
});
