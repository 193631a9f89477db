import { beforeAll, expect, it } from 'vitest';
import { hashSecret } from '@/lib/shops/secrets';
import { createTestShop, createTestStaff, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { startServer } from '@/lib/testing/server';

const fixture = serverWithDatabase();
const json = { 'Content-Type': 'application/json' };
let shop: TestShop;
let cookie: string;

const signIn = (staff: { email: string; password: string }, headers: Record<string, string> = {}, url = fixture.server.url) =>
  fetch(`${url}/admin/api/session`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(staff) });

beforeAll(async () => {
  shop = await createTestShop(fixture.database.ctx);
  const login = await signIn(await createTestStaff(fixture.database.ctx));
  cookie = login.headers.get('set-cookie')!.split(';')[0];
});

it('hashes staff passwords with scrypt N = 2^17, upgrading an older hash at the next sign-in', async () => {
  const ctx = fixture.database.ctx;
  const staff = await createTestStaff(ctx);
  const storedHash = async () => (await ctx.sql<{ password_hash: string }[]>`select password_hash from staff_users where email = ${staff.email}`)[0].password_hash;
  expect(await storedHash()).toMatch(/^scrypt\$131072\$8\$1\$/);
  // As the account was stored before the cost was raised.
  await ctx.sql`update staff_users set password_hash = ${await hashSecret(staff.password)} where email = ${staff.email}`;
  expect(await storedHash()).toMatch(/^scrypt\$16384\$/);
  expect((await signIn({ ...staff, password: 'wrong password' })).status).toBe(401);
  expect(await storedHash()).toMatch(/^scrypt\$16384\$/);
  const login = await signIn(staff);
  expect(login.status).toBe(200);
  expect(await storedHash()).toMatch(/^scrypt\$131072\$8\$1\$/);
  // The session opened meanwhile survives the upgrade, and the password still works.
  const session = login.headers.get('set-cookie')!.split(';')[0];
  expect((await fetch(`${fixture.server.url}/admin/api/shops/${shop.shop_id}/imports`, { headers: { cookie: session } })).status).toBe(200);
  expect((await signIn(staff)).status).toBe(200);
});

it('names the session cookie __Host- and makes it Secure over HTTPS, and then reads only that one', async () => {
  const staff = await createTestStaff(fixture.database.ctx);
  const plain = (await signIn(staff)).headers.get('set-cookie')!;
  expect(plain).toMatch(/^vitrine_session=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax; Expires=[^;]+$/);

  // Behind a TLS proxy that says so.
  const secure = (await signIn(staff, { 'X-Forwarded-Proto': 'https' })).headers.get('set-cookie')!;
  expect(secure).toMatch(/^__Host-vitrine_session=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax; Expires=[^;]+; Secure$/);
  expect(secure).not.toMatch(/Domain=/i);
  const token = /=([0-9a-f]{64});/.exec(secure)![1];
  const imports = (headers: Record<string, string>) => fetch(`${fixture.server.url}/admin/api/shops/${shop.shop_id}/imports`, { headers });
  expect((await imports({ cookie: `__Host-vitrine_session=${token}`, 'X-Forwarded-Proto': 'https' })).status).toBe(200);
  // Over HTTPS a cookie without the prefix (set over plain HTTP, or by a sibling domain) is none.
  expect((await imports({ cookie: `vitrine_session=${token}`, 'X-Forwarded-Proto': 'https' })).status).toBe(401);
  const signOut = await fetch(`${fixture.server.url}/admin/api/session`, { method: 'DELETE', headers: { cookie: `__Host-vitrine_session=${token}`, 'X-Forwarded-Proto': 'https' } });
  expect(signOut.headers.get('set-cookie')).toBe('__Host-vitrine_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure');
  expect((await imports({ cookie: `__Host-vitrine_session=${token}`, 'X-Forwarded-Proto': 'https' })).status).toBe(401);

  // An https PUBLIC_URL makes every session cookie secure, whatever the request says.
  const behindProxy = await startServer({ DATABASE_URL: fixture.database.url, PUBLIC_URL: 'https://shop-admin.example' });
  try {
    const cookieThere = (await signIn(staff, {}, behindProxy.url)).headers.get('set-cookie')!;
    expect(cookieThere).toMatch(/^__Host-vitrine_session=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax; Expires=[^;]+; Secure$/);
    const tokenThere = /=([0-9a-f]{64});/.exec(cookieThere)![1];
    const page = await fetch(`${behindProxy.url}/admin`, { headers: { cookie: `__Host-vitrine_session=${tokenThere}` }, redirect: 'manual' });
    expect(page.status).toBe(200);
    const unprefixed = await fetch(`${behindProxy.url}/admin`, { headers: { cookie: `vitrine_session=${tokenThere}` }, redirect: 'manual' });
    expect(unprefixed.status).toBe(307);
  } finally {
    await behindProxy.stop();
  }
});

it('refuses state-changing admin requests from another origin (Origin, Sec-Fetch-Site), and nothing changes', async () => {
  const url = fixture.server.url;
  const own = new URL(url).origin;
  const flag = (email: string, headers: Record<string, string>) =>
    fetch(`${url}/admin/api/shops/${shop.shop_id}/flags`, { method: 'POST', headers: { ...json, cookie, ...headers }, body: JSON.stringify({ email, event: 'unsubscribed' }) });
  const otherPort = own.replace(/:\d+$/, ':1');
  const refusedCases: Record<string, string>[] = [
    { Origin: 'https://evil.example' },
    { Origin: otherPort },
    { Origin: 'null' },
    { 'Sec-Fetch-Site': 'cross-site' },
    { 'Sec-Fetch-Site': 'same-site' },
    { 'Sec-Fetch-Site': 'same-site', Origin: own },
  ];
  for (const [n, headers] of refusedCases.entries()) {
    const refused = await flag(`csrf-${n}@example.test`, headers);
    expect(refused.status, JSON.stringify(headers)).toBe(403);
    expect(await refused.json()).toEqual({ status: 'error', payload: { message: 'Cross-site request refused: the admin app takes changes from its own pages only' } });
  }
  // The same under an escaped path, and for sign-in (login CSRF).
  expect((await fetch(`${url}/%61dmin/api/shops/${shop.shop_id}/flags`, { method: 'POST', headers: { ...json, cookie, Origin: 'https://evil.example' }, body: '{}' })).status).toBe(403);
  expect((await signIn(await createTestStaff(fixture.database.ctx), { Origin: 'https://evil.example' })).status).toBe(403);
  const listed = await (await fetch(`${url}/admin/api/shops/${shop.shop_id}/flags`, { headers: { cookie, 'Sec-Fetch-Site': 'cross-site' } })).json();
  expect(JSON.stringify(listed)).not.toContain('csrf-');

  // Its own pages, and clients that are no browser, are let through.
  expect((await flag('same-origin@example.test', { Origin: own, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
  expect((await flag('script@example.test', {})).status).toBe(200);
  // Reads and the public API are not concerned.
  expect((await fetch(`${url}/admin/api/shops/${shop.shop_id}/imports`, { headers: { cookie, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' } })).status).toBe(200);
  const storefront = await fetch(`${url}/products`, { method: 'POST', headers: { ...json, Origin: 'https://shop.example', 'Sec-Fetch-Site': 'cross-site' }, body: JSON.stringify({ shop_id: shop.shop_id, did: 'd', sid: 's' }) });
  expect(storefront.status).toBe(200);
});

it('sends admin pages with a nonce CSP that its every script carries, nosniff and a referrer policy', async () => {
  const pages = [await fetch(`${fixture.server.url}/admin/login`), await fetch(`${fixture.server.url}/admin`, { headers: { cookie } })];
  const nonces = new Set<string>();
  for (const page of pages) {
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy')!;
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)![1];
    nonces.add(nonce);
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
  }
  // A nonce is good for one answer only.
  expect(nonces.size).toBe(2);
  // The public API is not an admin page.
  const listing = await fetch(`${fixture.server.url}/products?shop_id=${shop.shop_id}&did=d&sid=s`);
  expect(listing.headers.get('content-security-policy')).toBeNull();
  expect(listing.headers.get('x-frame-options')).toBeNull();
});
