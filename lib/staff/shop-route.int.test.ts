import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@/lib/http/errors';
import { setAppContext } from '@/lib/runtime/context';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { SESSION_COOKIE, logIn } from './sessions';
import { shopRoute } from './shop-route';
import { createStaffUser } from './users';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  setAppContext(database.ctx);
});
afterAll(async () => {
  setAppContext(undefined);
  await database?.close();
});

const route = shopRoute<{ shopId: string; id: string }>(async (_req, { shopId, params }) => {
  if (params.id === 'boom') throw new AppError('NOT_FOUND', 'Nothing here');
  return Response.json({ shopId, id: params.id });
});
const call = (shopId: string, id: string, cookie?: string) =>
  route(new Request('http://localhost/x', { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({ shopId, id }) });

it('runs the handler only for staff who see the shop, and answers errors with the spec body', async () => {
  const ctx = database.ctx;
  const [mine, other] = [await createTestShop(ctx), await createTestShop(ctx)];
  await createStaffUser(ctx, { email: 'route-staff@example.test', password: 'long enough', shops: [mine.shop_id] });
  const { token } = await logIn(ctx, { email: 'route-staff@example.test', password: 'long enough' });
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
