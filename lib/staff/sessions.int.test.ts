import { expect, it } from 'vitest';
import { createTestShop, createTestStaff } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { requestFrom } from '@/lib/testing/http-from';

const fixture = serverWithDatabase({ SESSION_DAYS: '2', AUTH_FAILURES_PER_MINUTE: '3' });

const signIn = (from: string, email: string, password: string, headers: Record<string, string> = {}) =>
  requestFrom(from, `${fixture.server.url}/admin/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });

const messageOf = (body: string) => (JSON.parse(body) as { payload: { message: string } }).payload.message;

it('keeps a session SESSION_DAYS days, then treats it as none and clears it at the next sign-in', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  const staff = await createTestStaff(ctx);
  const before = Date.now();
  const login = await signIn('127.0.0.1', staff.email, staff.password);
  expect(login.status).toBe(200);
  const setCookie = String(login.headers['set-cookie']);
  const cookie = setCookie.split(';')[0];
  const expires = Date.parse(/Expires=([^;]+)/.exec(setCookie)![1]);
  expect(Math.abs(expires - (before + 2 * 86_400_000))).toBeLessThan(60_000);
  const [stored] = await ctx.sql<{ ms: number }[]>`
    select extract(epoch from s.expires_at)::float8 * 1000 as ms from staff_sessions s join staff_users u on u.id = s.user_id where u.email = ${staff.email}`;
  expect(Math.abs(stored.ms - expires)).toBeLessThan(1_000);

  const imports = () => requestFrom('127.0.0.1', `${fixture.server.url}/admin/api/shops/${shop.shop_id}/imports`, { headers: { cookie } });
  expect((await imports()).status).toBe(200);

  // Two days later, as far as the session knows.
  await ctx.sql`update staff_sessions s set expires_at = now() - interval '1 second' from staff_users u where u.id = s.user_id and u.email = ${staff.email}`;
  const expired = await imports();
  expect(expired.status).toBe(401);
  expect(messageOf(expired.body)).toBe('Sign in first');
  const page = await requestFrom('127.0.0.1', `${fixture.server.url}/admin`, { headers: { cookie } });
  expect(page.status).toBe(307);
  // The sign-in page says the session ended.
  expect(page.headers.location).toMatch(/\/admin\/login\?(next=[^&]*&)?expired=1$/);

  expect((await signIn('127.0.0.1', staff.email, staff.password)).status).toBe(200);
  const left = await ctx.sql`select 1 from staff_sessions where expires_at < now()`;
  expect(left).toHaveLength(0);
});

it('locks out an address after AUTH_FAILURES_PER_MINUTE failed sign-ins, whatever address headers it sends', async () => {
  const staff = await createTestStaff(fixture.database.ctx);
  const spoofed = { 'X-Vitrine-Client-Address': '10.9.9.9', 'X-Forwarded-For': '10.9.9.9', 'X-Real-IP': '10.9.9.9' };
  for (const n of [1, 2, 3]) {
    const wrong = await signIn('127.0.0.2', `nobody-${n}@example.test`, 'wrong password', n === 3 ? spoofed : {});
    expect(wrong.status).toBe(401);
    expect(messageOf(wrong.body)).toBe('Wrong email or password');
  }
  for (const headers of [{}, spoofed]) {
    const locked = await signIn('127.0.0.2', staff.email, staff.password, headers);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(messageOf(locked.body)).toMatch(/^Too many failed authentications from this address; retry in \d+ s$/);
  }
  // Another address is not affected.
  expect((await signIn('127.0.0.3', staff.email, staff.password)).status).toBe(200);
});

it('locks an account guessed at from several addresses, and counts failed imports with failed sign-ins', async () => {
  const ctx = fixture.database.ctx;
  const staff = await createTestStaff(ctx);
  for (const from of ['127.0.0.4', '127.0.0.5', '127.0.0.6']) expect((await signIn(from, staff.email, 'wrong password')).status).toBe(401);
  const account = await signIn('127.0.0.7', staff.email, staff.password);
  expect(account.status).toBe(429);
  expect(messageOf(account.body)).toMatch(/^Too many failed sign-ins to this account; retry in \d+ s$/);

  // One budget per address, whichever route it guesses at.
  const shop = await createTestShop(ctx);
  const other = await createTestStaff(ctx);
  for (let n = 0; n < 3; n++) {
    const guess = await requestFrom('127.0.0.8', `${fixture.server.url}/import/products`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ shop_id: shop.shop_id, shop_secret: `wrong-${n}`, items: [] }),
    });
    expect(guess.status).toBe(400);
  }
  const afterImports = await signIn('127.0.0.8', other.email, other.password);
  expect(afterImports.status).toBe(429);
  expect(messageOf(afterImports.body)).toMatch(/^Too many failed authentications from this address/);
});
