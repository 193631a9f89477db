import { expect, it } from 'vitest';
import { GET as flagsRoute } from '@/app/admin/api/shops/[shopId]/flags/route';
import { SESSION_COOKIE, logIn } from '@/lib/staff/sessions';
import { createStaffUser } from '@/lib/staff/users';
import { createTestShop } from '@/lib/testing/factories';
import { databaseAsAppContext } from '@/lib/testing/fixtures';

const fixture = databaseAsAppContext();

it('pages a shop’s flags most recently changed first, without skipping or repeating, and exports them all as CSV', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  await createStaffUser(ctx, { email: 'flags-admin@example.test', password: 'long enough' });
  const { token } = await logIn(ctx, { email: 'flags-admin@example.test', password: 'long enough' }, '10.4.0.1');
  // 250 emails; many share an updated_at (to the microsecond), so the cursor must break ties.
  await ctx.sql`
    insert into email_flags (shop_id, email, flags, updated_at)
    select ${shop.shop_id}, 'u' || lpad(n::text, 3, '0') || '@example.com', '{unsubscribed}',
           timestamptz '2026-11-27 10:00:00.123456+00' - (n / 7) * interval '1 second'
      from generate_series(1, 250) n`;
  const get = async (query: string) => {
    const response = await flagsRoute(new Request(`http://localhost/admin/api/shops/${shop.shop_id}/flags${query}`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } }), {
      params: Promise.resolve({ shopId: shop.shop_id }),
    });
    return { status: response.status, body: response.headers.get('content-type')?.startsWith('text/csv') ? await response.text() : await response.json() };
  };

  const seen: string[] = [];
  let query = '?limit=100';
  for (let page = 0; page < 3; page++) {
    const { status, body } = await get(query);
    expect(status).toBe(200);
    expect(body.flags).toHaveLength(page < 2 ? 100 : 50);
    seen.push(...body.flags.map((row: { email: string }) => row.email));
    expect(body.next === null).toBe(page === 2);
    query = `?limit=100&after=${body.next}`;
  }
  const expected = Array.from({ length: 250 }, (_, i) => i + 1)
    .sort((a, b) => Math.floor(a / 7) - Math.floor(b / 7) || a - b)
    .map((n) => `u${String(n).padStart(3, '0')}@example.com`);
  expect(seen).toEqual(expected);
  // The default page is 100.
  expect((await get('')).body.flags).toHaveLength(100);

  for (const bad of ['?limit=0', '?limit=abc', '?after=not-a-cursor']) {
    const { status, body } = await get(bad);
    expect(status, bad).toBe(400);
    expect(body.status).toBe('error');
  }

  const csv = await get('?format=csv');
  expect(csv.status).toBe(200);
  const lines = (csv.body as string).split('\r\n');
  expect(lines[0]).toBe('email,flags,updated_at');
  expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual(expected);
  expect(lines.at(-1)).toBe('');
});
