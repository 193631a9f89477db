import { expect, it } from 'vitest';
import { GET as importsRoute } from '@/app/admin/api/shops/[shopId]/imports/route';
import { GET as importRoute } from '@/app/admin/api/shops/[shopId]/imports/[importId]/route';
import { GET as problemsRoute } from '@/app/admin/api/shops/[shopId]/imports/[importId]/problems/route';
import { GET as bodyRoute } from '@/app/admin/api/shops/[shopId]/imports/[importId]/body/route';
import { SESSION_COOKIE, logIn } from '@/lib/staff/sessions';
import { createStaffUser } from '@/lib/staff/users';
import { createTestShop } from '@/lib/testing/factories';
import { databaseAsAppContext } from '@/lib/testing/fixtures';
import { SHOP_APPLY_TX_LOCK } from './apply-locks';
import { compressBody } from './pipeline/body-codec';
import { importProgress } from './import-progress';

const fixture = databaseAsAppContext();

async function signedIn(shops: string[] = []) {
  const email = `browse-${Math.random().toString(36).slice(2)}@example.test`;
  await createStaffUser(fixture.database.ctx, { email, password: 'long enough', shops });
  const { token } = await logIn(fixture.database.ctx, { email, password: 'long enough' }, '10.9.0.1');
  return `${SESSION_COOKIE}=${token}`;
}

type Seed = { operation?: string; status?: string; errors?: number; received?: string; webhook?: string; attempts?: unknown[] };
async function seed(shopId: string, row: Seed = {}): Promise<number> {
  const errors = Array.from({ length: row.errors ?? 0 }, (_, i) => ({ item_id: `id${i}`, position: i, message: i % 2 ? 'price must be greater than 0' : 'name is required' }));
  const [{ id }] = await fixture.database.ctx.sql<{ id: number }[]>`
    insert into imports (shop_id, operation, status, received_at, started_at, finished_at, items_total, items_applied, items_rejected, errors, body_bytes, webhook, webhook_attempts)
    values (${shopId}, ${row.operation ?? 'products.put'}, ${row.status ?? 'done'}, ${row.received ?? new Date().toISOString()}, now(), now(),
            ${(row.errors ?? 0) + 1}, 1, ${row.errors ?? 0}, ${JSON.stringify(errors)}::jsonb, 10, ${row.webhook ?? null}, ${JSON.stringify(row.attempts ?? [])}::jsonb)
    returning id::int as id`;
  return id;
}

const call = async (route: (req: Request, ctx: { params: Promise<never> }) => Promise<Response>, url: string, cookie: string, params: Record<string, string>) => {
  const response = await route(new Request(`http://localhost${url}`, { headers: { cookie } }), { params: Promise.resolve(params) as Promise<never> });
  const download = response.headers.get('content-disposition') !== null;
  return { status: response.status, body: download ? Buffer.from(await response.arrayBuffer()) : await response.json() };
};

it('pages a shop’s imports newest first with filters, counts and human names, never another shop’s', async () => {
  const [shop, other] = [await createTestShop(fixture.database.ctx), await createTestShop(fixture.database.ctx)];
  const ids: number[] = [];
  for (let i = 0; i < 55; i++) ids.push(await seed(shop.shop_id, { received: '2026-01-02T10:00:00Z' }));
  const failed = await seed(shop.shop_id, { operation: 'categories.replace', status: 'failed', errors: 3, received: '2026-01-05T10:00:00Z' });
  await seed(other.shop_id);
  const cookie = await signedIn([shop.shop_id]);
  const list = (query = '') => call(importsRoute, `/admin/api/shops/${shop.shop_id}/imports${query}`, cookie, { shopId: shop.shop_id });

  const first = await list();
  expect(first.status).toBe(200);
  expect(first.body.total).toBe(56);
  expect(first.body.imports).toHaveLength(50);
  expect(first.body.imports[0]).toMatchObject({ id: failed, operation: 'categories.replace', operation_label: 'Categories: replace the tree', status: 'failed', errors_count: 3, warnings_count: 0, webhook: { state: 'none' } });
  expect(first.body.imports[0]).not.toHaveProperty('errors');
  expect(first.body.newer).toBeNull();
  const second = await list(`?before=${first.body.older}`);
  expect(second.body.imports.map((r: { id: number }) => r.id)).toEqual(ids.slice(0, 6).reverse());
  expect(second.body.older).toBeNull();
  const back = await list(`?after=${second.body.newer}`);
  expect(back.body.imports.map((r: { id: number }) => r.id)).toEqual(first.body.imports.map((r: { id: number }) => r.id));

  expect((await list('?status=failed')).body).toMatchObject({ total: 1, imports: [{ id: failed }] });
  expect((await list('?operation=categories.replace')).body.total).toBe(1);
  expect((await list(`?from=${encodeURIComponent('2026-01-03T00:00:00Z')}`)).body.total).toBe(1);
  expect((await list(`?to=${encodeURIComponent('2026-01-03T00:00:00Z')}`)).body.total).toBe(55);
  for (const [query, message] of [
    ['?status=lost', 'status must be queued, running, done or failed'],
    ['?operation=products.upsert', 'operation must be one of the operations, e.g. products.put'],
    ['?from=yesterday', 'from must be a date and time (ISO 8601)'],
    ['?before=1.5', 'before must be an import id (a positive integer)'],
  ]) {
    const refused = await list(query);
    expect(refused.status, query).toBe(400);
    expect(refused.body.payload.message).toBe(message);
  }
  const elsewhere = await call(importsRoute, `/admin/api/shops/${other.shop_id}/imports`, cookie, { shopId: other.shop_id });
  expect(elsewhere.status).toBe(404);
});

it('shows one import with its webhook state, failure email, searchable paged problems and stored body', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  const attempts = [{ at: '2026-01-01T00:00:00Z', outcome: 'failed', status: 500, message: 'HTTP 500' }];
  const id = await seed(shop.shop_id, { status: 'failed', errors: 250, webhook: 'https://hooks.example/x', attempts });
  await ctx.sql`insert into email_outbox (shop_id, recipient, subject, text, html) values
    (${shop.shop_id}, 'ops@example.test', ${`[Vitrine] Import #${id} (products.put) of Shop failed`}, 'text', '<p>html</p>'),
    (${shop.shop_id}, 'ops@example.test', ${`[Vitrine] Import #${id}0 (products.put) of Shop failed`}, 'another import', '<p>no</p>')`;
  const sent = Buffer.from(JSON.stringify({ items: [{ id: 'x' }] }));
  const stored = await compressBody(sent);
  await ctx.sql`insert into import_bodies (shop_id, import_id, body, encoding) values (${shop.shop_id}, ${id}, ${stored.body}, ${stored.encoding})`;
  const cookie = await signedIn();
  const params = { shopId: shop.shop_id, importId: String(id) };

  const detail = await call(importRoute, `/admin/api/shops/${shop.shop_id}/imports/${id}`, cookie, params);
  expect(detail.body).toMatchObject({
    id,
    status: 'failed',
    errors_count: 250,
    body_kept: true,
    webhook_url: 'https://hooks.example/x',
    webhook: { state: 'retrying', attempts: 1, last_error: 'answered HTTP 500', next_attempt_at: null },
    emails: [{ recipient: 'ops@example.test', text: 'text', html: '<p>html</p>', sent_at: null }],
  });

  const problems = (query: string) => call(problemsRoute, `/admin/api/shops/${shop.shop_id}/imports/${id}/problems?${query}`, cookie, params);
  const page1 = await problems('kind=errors');
  expect(page1.body).toMatchObject({ total: 250, stored: 250, page: 1, pages: 3 });
  expect(page1.body.problems).toHaveLength(100);
  expect(page1.body.problems[0]).toEqual({ n: 1, item_id: 'id0', position: 0, message: 'name is required' });
  expect((await problems('kind=errors&page=3')).body.problems.map((p: { n: number }) => p.n)).toEqual(Array.from({ length: 50 }, (_, i) => 201 + i));
  const searched = await problems('kind=errors&q=PRICE');
  expect(searched.body.total).toBe(125);
  expect((await problems('kind=errors&q=id249')).body.problems).toEqual([{ n: 250, item_id: 'id249', position: 249, message: 'price must be greater than 0' }]);
  expect((await problems('kind=errors&q=%25')).body.total).toBe(0);
  expect((await problems('kind=errors&page=9')).body).toMatchObject({ problems: [], total: 250 });
  expect((await problems('kind=warnings')).body).toMatchObject({ problems: [], total: 0, stored: 0 });
  expect((await problems('kind=other')).status).toBe(400);

  const body = await call(bodyRoute, `/admin/api/shops/${shop.shop_id}/imports/${id}/body`, cookie, params);
  expect(body.status).toBe(200);
  expect(body.body).toEqual(sent);
  await ctx.sql`delete from import_bodies where shop_id = ${shop.shop_id}`;
  const gone = await call(bodyRoute, `/admin/api/shops/${shop.shop_id}/imports/${id}/body`, cookie, params);
  expect(gone).toEqual({ status: 404, body: { status: 'error', payload: { message: `The request body of import ${id} is no longer kept` } } });
  const missing = await call(importRoute, `/admin/api/shops/${shop.shop_id}/imports/abc`, cookie, { ...params, importId: 'abc' });
  expect(missing).toEqual({ status: 404, body: { status: 'error', payload: { message: 'Import abc not found' } } });
});

it('reads a running import’s progress from the copy its applier holds the lock for', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  expect(await importProgress(ctx, shop.shop_id)).toBeNull();
  const applier = ctx.sql.reserve ? await ctx.sql.reserve() : null;
  if (!applier) throw new Error('no reserved connection');
  try {
    await applier`begin`;
    await applier`select pg_advisory_xact_lock(${SHOP_APPLY_TX_LOCK}, hashtext(${shop.shop_id}))`;
    await applier`create temporary table copied (n int) on commit drop`;
    const writable = await applier`copy copied from stdin`.writable();
    for (let i = 0; i < 5000; i++) writable.write(`${i}\n`);
    await expect.poll(async () => (await importProgress(ctx, shop.shop_id))?.rows_written ?? 0).toBeGreaterThan(0);
    writable.end();
    await new Promise((resolve) => writable.on('finish', resolve));
    await applier`rollback`;
  } finally {
    applier.release();
  }
  expect(await importProgress(ctx, shop.shop_id)).toBeNull();
});
