import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestShop, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase();
const run = promisify(execFile);

async function callback(body: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }) {
  const response = await fetch(`${fixture.server.url}/subscriptions/callback`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

async function flagsOf(shop: TestShop) {
  return fixture.database.ctx.sql<{ email: string; flags: string[]; updated_at: string }[]>`
    select email, flags, updated_at::text as updated_at from email_flags where shop_id = ${shop.shop_id} order by email`;
}

describe('POST /subscriptions/callback', () => {
  it('flags a normalised email, accumulating flags and ignoring repeats', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    expect(await callback({ ...shop, email: '  John.Doe@Example.COM ', event: 'unsubscribed' })).toMatchObject({ status: 200, body: { status: 'success' } });
    const [first] = await flagsOf(shop);
    expect(first).toMatchObject({ email: 'john.doe@example.com', flags: ['unsubscribed'] });

    expect((await callback({ ...shop, email: 'john.doe@example.com', event: 'complained' })).status).toBe(200);
    const [second] = await flagsOf(shop);
    expect(second.flags).toEqual(['unsubscribed', 'complained']);

    expect((await callback({ ...shop, email: 'JOHN.DOE@example.com', event: 'unsubscribed' })).body).toEqual({ status: 'success' });
    const [third] = await flagsOf(shop);
    expect(third).toEqual(second);

    for (const event of ['hard_bounced', 'blacklisted']) expect((await callback({ ...shop, email: 'other@example.com', event })).status).toBe(200);
    expect((await flagsOf(shop)).map((r) => [r.email, r.flags])).toEqual([
      ['john.doe@example.com', ['unsubscribed', 'complained']],
      ['other@example.com', ['hard_bounced', 'blacklisted']],
    ]);
    // Addresses past ASCII or with rarer characters are real ones too.
    for (const email of ['josé@example.com', 'a@münchen.de', 'a!b@example.com']) expect((await callback({ ...shop, email, event: 'hard_bounced' })).status, email).toBe(200);
    expect((await flagsOf(shop)).map((r) => r.email).sort()).toEqual(['a!b@example.com', 'a@münchen.de', 'john.doe@example.com', 'josé@example.com', 'other@example.com']);
  });

  it('takes a body up to the spec’s request weight, as imports do, and refuses a larger one with 413', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    // 100 KiB of a field the callback does not read (64 KiB was the limit before session 36).
    const padded = await callback({ ...shop, email: 'pad@example.com', event: 'unsubscribed', note: 'x'.repeat(100 * 1024) });
    expect(padded.status).toBe(200);
    // Declared larger than the limit: the answer comes before the rest is sent (and the server
    // closes the connection, so a client still writing would only see EPIPE).
    const over = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${fixture.server.url}/subscriptions/callback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(36_700_161) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body: text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write(`{"shop_id":"${shop.shop_id}","pad":"`);
    });
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).payload.message).toMatch(/exceeds the limit of 36700160 bytes/);
  });

  it('answers 400 "Invalid secret key" for a wrong secret or an unknown shop, and flags nothing', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    for (const credentials of [{ ...shop, shop_secret: 'nope' }, { shop_id: 'unknown', shop_secret: shop.shop_secret }, {}]) {
      const result = await callback({ ...credentials, email: 'a@example.com', event: 'unsubscribed' });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ status: 'error', payload: { message: 'Invalid secret key' } });
    }
    expect(await flagsOf(shop)).toEqual([]);
  });

  it('answers 400 naming the field for a bad email or event, 400 for non-JSON and 415 for another content type', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const cases: [Record<string, unknown>, string][] = [
      [{ event: 'unsubscribed' }, 'email is required'],
      [{ email: 'not-an-email', event: 'unsubscribed' }, 'email must be a valid email address'],
      [{ email: 42, event: 'unsubscribed' }, 'email must be a string'],
      [{ email: 'a\u0000b@example.com', event: 'unsubscribed' }, 'email must be a valid email address'],
      [{ email: 'a\u0007b@example.com', event: 'unsubscribed' }, 'email must be a valid email address'],
      [{ email: 'a@example.com' }, 'event is required'],
      [{ email: 'a@example.com', event: 'opened' }, 'event must be one of complained, hard_bounced, blacklisted, unsubscribed'],
    ];
    for (const [fields, message] of cases) {
      const result = await callback({ ...shop, ...fields });
      expect(result.status, message).toBe(400);
      expect(result.body).toEqual({ status: 'error', payload: { message } });
    }
    const notJson = await callback('{"shop_id":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.payload.message).toMatch(/^Request body is not valid JSON/);
    const form = await callback({ ...shop, email: 'a@example.com', event: 'unsubscribed' }, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(await flagsOf(shop)).toEqual([]);
  });

  it('counts against the shop’s 40 writes a minute, shared with imports', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await callback({ ...shop, email: `u${i}@example.com`, event: 'unsubscribed' })).status);
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
    const imported = await fetch(`${fixture.server.url}/import/categories`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...shop, categories: [] }) });
    expect(imported.status).toBe(429);
    expect(Number(imported.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('npm run cli -- flags list', () => {
  it('prints the shop’s flagged emails, all or one', async () => {
    const shop = await createTestShop(fixture.database.ctx);
    await callback({ ...shop, email: 'x@example.com', event: 'blacklisted' });
    await callback({ ...shop, email: 'y@example.com', event: 'complained' });
    const cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], {
        cwd: path.resolve(import.meta.dirname, '..', '..'),
        env: { ...process.env, DATABASE_URL: fixture.database.url },
      });
      return JSON.parse(stdout);
    };
    const all = await cli('flags', 'list', '--shop', shop.shop_id);
    expect(all.map((f: { email: string; flags: string[] }) => [f.email, f.flags]).sort()).toEqual([
      ['x@example.com', ['blacklisted']],
      ['y@example.com', ['complained']],
    ]);
    for (const entry of all) expect(entry.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await cli('flags', 'list', '--shop', shop.shop_id, '--email', ' X@Example.com')).toEqual([all.find((f: { email: string }) => f.email === 'x@example.com')]);
  });
});
