import { expect, it } from 'vitest';
import { DELETE as deleteCollectionRoute } from '@/app/admin/api/shops/[shopId]/collections/[id]/route';
import { GET as importsRoute } from '@/app/admin/api/shops/[shopId]/imports/route';
import { AppError } from '@/lib/http/errors';
import { createTestShop } from '@/lib/testing/factories';
import { databaseAsAppContext } from '@/lib/testing/fixtures';
import { SESSION_COOKIE, logIn } from './sessions';
import { shopRoute } from './shop-route';
import { createStaffUser } from './users';

const fixture = databaseAsAppContext();

const route = shopRoute<{ shopId: string; id: string }>(async (_req, { shopId, params }) => {
  if (params.id === 'boom') throw new AppError('NOT_FOUND', 'Nothing here');
  return Response.json({ shopId, id: params.id });
});
const call = (shopId: string, id: string, cookie?: string) =>
  route(new Request('http://localhost/x', { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({ shopId, id }) });

it('runs the handler only for staff who see the shop, and answers errors with the spec body', async () => {
  const ctx = fixture.database.ctx;
  const [mine, other] = [await createTestShop(ctx), await createTestShop(ctx)];
  await createStaffUser(ctx, { email: 'route-staff@example.test', password: 'long enough', shops: [mine.shop_id] });
  const { token } = await logIn(ctx, { email: 'route-staff@example.test', password: 'long enough' }, '10.1.0.1');
  const cookie = `${SESSION_COOKIE}=${token}`;

  const anonymous = await call(mine.shop_id, '1');
  expect(anonymous.status).toBe(401);
  expect(await anonymous.json()).toEqual({ status: 'error', payload: { message: 'Sign in first' } });
  const elsewhere = await call(other.shop_id, '1', cookie);
  expect(elsewhere.status).toBe(404);
  expect(await elsewhere.json()).toEqual({ status: 'error', payload: { message: `Shop ${other.shop_id} not found` } });
  const own = await call(mine.shop_id, '7', cookie);
  expect(own.status).toBe(200);
  expect(await own.json()).toEqual({ shopId: mine.shop_id, id: '7' });
  const thrown = await call(mine.shop_id, 'boom', cookie);
  expect(thrown.status).toBe(404);
  expect(await thrown.json()).toEqual({ status: 'error', payload: { message: 'Nothing here' } });
});

it('treats a session cookie that is not ours (undecodable) as no session: 401, not 500', async () => {
  const response = await call('any', '1', `${SESSION_COOKIE}=%E0%A4%A`);
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ status: 'error', payload: { message: 'Sign in first' } });
});

it('ends the sessions of an account that is set anew (a password reset)', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  await createStaffUser(ctx, { email: 'reset@example.test', password: 'first password', shops: [shop.shop_id] });
  const { token } = await logIn(ctx, { email: 'reset@example.test', password: 'first password' }, '10.1.0.2');
  const cookie = `${SESSION_COOKIE}=${token}`;
  expect((await call(shop.shop_id, '1', cookie)).status).toBe(200);
  await createStaffUser(ctx, { email: 'reset@example.test', password: 'second password', shops: [shop.shop_id] });
  expect((await call(shop.shop_id, '1', cookie)).status).toBe(401);
});

it('limits failed sign-ins per address and per account, each failure costing the guesser', async () => {
  const ctx = { ...fixture.database.ctx, settings: { ...fixture.database.ctx.settings, limits: { ...fixture.database.ctx.settings.limits, enabled: true, authFailuresPerMinute: 3 } } };
  await createStaffUser(ctx, { email: 'guessed@example.test', password: 'the right one' });
  const attempt = (password: string, address: string, email = 'guessed@example.test') =>
    logIn(ctx, { email, password }, address).then(
      () => 'signed in',
      (error: AppError) => `${error.code}: ${error.message}`,
    );
  // One address guessing: three wrong, then refused before the password is even checked.
  expect(await attempt('wrong 1', '10.2.0.1', 'nobody@example.test')).toBe('UNAUTHENTICATED: Wrong email or password');
  expect(await attempt('wrong 2', '10.2.0.1', 'nobody@example.test')).toBe('UNAUTHENTICATED: Wrong email or password');
  expect(await attempt('wrong 3', '10.2.0.1', 'nobody2@example.test')).toBe('UNAUTHENTICATED: Wrong email or password');
  expect(await attempt('the right one', '10.2.0.1')).toMatch(/^RATE_LIMITED: Too many failed authentications from this address; retry in \d+ s$/);
  // Many addresses guessing one account: after three failures the account refuses every address for a while.
  for (const address of ['10.3.0.1', '10.3.0.2', '10.3.0.3']) expect(await attempt('wrong', address)).toBe('UNAUTHENTICATED: Wrong email or password');
  expect(await attempt('the right one', '10.3.0.4')).toMatch(/^RATE_LIMITED: Too many failed sign-ins to this account; retry in \d+ s$/);
  // Another account from a fresh address is not affected.
  await createStaffUser(ctx, { email: 'other@example.test', password: 'the right one' });
  expect(await attempt('the right one', '10.3.0.5', 'other@example.test')).toBe('signed in');
});

it('answers an admin alike for a shop that does not exist on every route, and bad ids in the path or query with 400/404', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  await createStaffUser(ctx, { email: 'route-admin@example.test', password: 'long enough' });
  const { token } = await logIn(ctx, { email: 'route-admin@example.test', password: 'long enough' }, '10.1.0.3');
  const cookie = `${SESSION_COOKIE}=${token}`;
  for (const missing of ['0123456789abcdef0123456789abcdef', 'a\u0000b', 'x'.repeat(300)]) {
    const response = await call(missing, '1', cookie);
    expect(response.status, JSON.stringify(missing)).toBe(404);
    expect((await response.json()).payload.message).toBe(`Shop ${missing} not found`);
  }
  const request = (path: string, method = 'GET') => new Request(`http://localhost${path}`, { method, headers: { cookie } });
  for (const before of ['1.5', '1e21', '99999999999999999999', 'abc']) {
    const response = await importsRoute(request(`/admin/api/shops/${shop.shop_id}/imports?before=${before}`), { params: Promise.resolve({ shopId: shop.shop_id }) });
    expect(response.status, before).toBe(400);
    expect((await response.json()).payload.message).toBe('before must be an import id (a positive integer)');
  }
  const listed = await importsRoute(request(`/admin/api/shops/${shop.shop_id}/imports?before=5`), { params: Promise.resolve({ shopId: shop.shop_id }) });
  expect(await listed.json()).toEqual({ imports: [], total: 0, newer: null, older: null });
  const tooLarge = await deleteCollectionRoute(request(`/admin/api/shops/${shop.shop_id}/collections/9999999999`, 'DELETE'), {
    params: Promise.resolve({ shopId: shop.shop_id, id: '9999999999' }),
  });
  expect(tooLarge.status).toBe(404);
  expect((await tooLarge.json()).payload.message).toBe('Collection not found');
});
