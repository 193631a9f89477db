import { expect, it } from 'vitest';
import { GET as outboxRoute } from '@/app/admin/api/outbox/route';
import { POST as createShopRoute } from '@/app/admin/api/shops/route';
import { POST as rotateRoute } from '@/app/admin/api/shops/[shopId]/secret/route';
import { GET as settingsRoute, PUT as saveSettingsRoute } from '@/app/admin/api/shops/[shopId]/settings/route';
import { DELETE as removeStaffRoute, PUT as accessRoute } from '@/app/admin/api/staff/[id]/route';
import { PUT as passwordRoute } from '@/app/admin/api/staff/[id]/password/route';
import { GET as staffRoute, POST as createStaffRoute } from '@/app/admin/api/staff/route';
import { authenticateShop } from '@/lib/shops/authenticate';
import { createTestShop } from '@/lib/testing/factories';
import { databaseAsAppContext } from '@/lib/testing/fixtures';
import { SESSION_COOKIE, logIn, sessionUser } from './sessions';
import { createStaffUser } from './users';

const fixture = databaseAsAppContext();

async function cookieOf(email: string, shops: string[] = []) {
  await createStaffUser(fixture.database.ctx, { email, password: 'long enough', shops });
  const { token } = await logIn(fixture.database.ctx, { email, password: 'long enough' }, '10.8.0.1');
  return `${SESSION_COOKIE}=${token}`;
}

type Handler = (req: Request, ctx: { params: Promise<never> }) => Promise<Response>;
async function call(handler: Handler, cookie: string, params: Record<string, string> = {}, body?: unknown, method = 'GET') {
  const init: RequestInit = { method, headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) };
  const response = await handler(new Request('http://localhost/admin/api/x', init), { params: Promise.resolve(params) as Promise<never> });
  return { status: response.status, body: await response.json() };
}

it('keeps shops, staff and the outbox to admins: a member gets 403 on every such route, nobody signed in 401', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const member = await cookieOf('member@routes.test', [shop.shop_id]);
  const forbidden = { status: 403, body: { status: 'error', payload: { message: 'Only admins may do this' } } };
  expect(await call(staffRoute as Handler, member)).toEqual(forbidden);
  expect(await call(outboxRoute as Handler, member)).toEqual(forbidden);
  expect(await call(createShopRoute as Handler, member, {}, { name: 'Mine now' }, 'POST')).toEqual(forbidden);
  expect(await call(settingsRoute as Handler, member, { shopId: shop.shop_id })).toEqual(forbidden);
  expect(await call(rotateRoute as Handler, member, { shopId: shop.shop_id }, undefined, 'POST')).toEqual(forbidden);
  expect(await call(createStaffRoute as Handler, member, {}, { email: 'x@y.test', password: 'long enough', is_admin: true }, 'POST')).toEqual(forbidden);
  expect((await call(staffRoute as Handler, '')).status).toBe(401);
  // The member's own shop still cannot be renamed by them, and its secret still works.
  expect(await authenticateShop(fixture.database.ctx.sql, shop.shop_id, shop.shop_secret)).toMatchObject({ id: shop.shop_id });
});

it('lets an admin create a shop, change its settings and secret, and manage staff accounts', async () => {
  const ctx = fixture.database.ctx;
  const admin = await cookieOf('admin@routes.test');
  const created = await call(createShopRoute as Handler, admin, {}, { name: 'Route shop', currency: 'eur' }, 'POST');
  expect(created.status).toBe(200);
  const { shop_id, shop_secret } = created.body;
  expect(await call(settingsRoute as Handler, admin, { shopId: shop_id })).toMatchObject({ status: 200, body: { name: 'Route shop', currency: 'EUR', listing_extended_default: false } });
  const refused = await call(saveSettingsRoute as Handler, admin, { shopId: shop_id }, { name: ' ', currency: 'EUR', listing_extended_default: true }, 'PUT');
  expect(refused).toEqual({ status: 400, body: { status: 'error', payload: { message: 'name is required' } } });
  expect(await call(saveSettingsRoute as Handler, admin, { shopId: shop_id }, { name: 'Renamed', currency: 'gbp', listing_extended_default: true }, 'PUT')).toMatchObject({ body: { name: 'Renamed', currency: 'GBP', listing_extended_default: true } });
  expect((await call(settingsRoute as Handler, admin, { shopId: 'nope' })).status).toBe(404);
  const rotated = await call(rotateRoute as Handler, admin, { shopId: shop_id }, undefined, 'POST');
  expect(rotated.body.shop_secret).not.toBe(shop_secret);
  await expect(authenticateShop(ctx.sql, shop_id, shop_secret)).rejects.toThrow();

  const added = await call(createStaffRoute as Handler, admin, {}, { email: 'Helper@Routes.test', password: 'first password', is_admin: false, shops: [shop_id], technical_notices: true }, 'POST');
  expect(added.status).toBe(200);
  expect((await call(createStaffRoute as Handler, admin, {}, { email: 'helper@routes.test', password: 'first password', is_admin: true }, 'POST')).body.payload.message).toBe('An account for helper@routes.test exists already');
  expect((await call(createStaffRoute as Handler, admin, {}, { email: 'nobody@routes.test', password: 'first password', is_admin: false, shops: [] }, 'POST')).body.payload.message).toBe(
    'Choose at least one shop, or make the account an admin of every shop',
  );
  const listed = await call(staffRoute as Handler, admin);
  expect(listed.body.staff.find((s: { email: string }) => s.email === 'helper@routes.test')).toMatchObject({ is_admin: false, shops: [shop_id], technical_notices: true });

  const id = String(added.body.id);
  const { token } = await logIn(ctx, { email: 'helper@routes.test', password: 'first password' }, '10.8.0.2');
  expect(await call(passwordRoute as Handler, admin, { id }, { password: 'short' }, 'PUT')).toMatchObject({ status: 400, body: { payload: { message: 'password must be at least 8 characters' } } });
  expect((await call(passwordRoute as Handler, admin, { id }, { password: 'second password' }, 'PUT')).status).toBe(200);
  expect(await sessionUser(ctx, token)).toBeNull();
  expect((await call(accessRoute as Handler, admin, { id }, { is_admin: true, shops: [], technical_notices: false }, 'PUT')).status).toBe(200);

  const self = listed.body.staff.find((s: { email: string }) => s.email === 'admin@routes.test').id;
  expect((await call(removeStaffRoute as Handler, admin, { id: String(self) }, undefined, 'DELETE')).body.payload.message).toBe('You cannot remove your own account');
  expect((await call(accessRoute as Handler, admin, { id: String(self) }, { is_admin: false, shops: [shop_id] }, 'PUT')).body.payload.message).toBe('You cannot take your own admin rights away');
  expect((await call(removeStaffRoute as Handler, admin, { id }, undefined, 'DELETE')).status).toBe(200);
  expect((await call(removeStaffRoute as Handler, admin, { id }, undefined, 'DELETE')).status).toBe(404);
  await expect(logIn(ctx, { email: 'helper@routes.test', password: 'second password' }, '10.8.0.3')).rejects.toThrow('Wrong email or password');
});
