import zlib from 'node:zlib';
import { expect, it } from 'vitest';
import { sendImport, importStatus } from '@/lib/testing/api';
import { createTestShop } from '@/lib/testing/factories';
import { decompressBody } from './pipeline/body-codec';
import { handOver, takeOver } from './pipeline/handoff';
import { SUMMARY_KEYS } from '@/lib/catalog/sent-items';
import { scanJson } from '@/lib/http/json-scan';
import { runPendingImports } from './run-imports';
import { serverWithDatabase } from '@/lib/testing/fixtures';

const fixture = serverWithDatabase({ WORKERS: 'off' });

it('fails an import whose applier died five times instead of retrying it for ever', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const { importId } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [{ id: 'a', name: 'A' }] });
  const { importId: next } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [{ id: 'b', name: 'B' }] });
  // As if five appliers had started on it and died.
  await fixture.database.ctx.sql`update imports set status = 'running', attempts = 5 where shop_id = ${shop.shop_id} and id = ${importId!}`;
  await runPendingImports(fixture.database.ctx, shop.shop_id);
  expect(await importStatus(fixture.server.url, shop, importId!)).toMatchObject({
    status: 'failed',
    message: 'Import could not be applied: gave up after 5 attempts that each ended without an answer',
  });
  // The shop's later imports go on.
  expect((await importStatus(fixture.server.url, shop, next!)).status).toBe('done');
  const [category] = await fixture.database.ctx.sql<{ id: string }[]>`select id from categories where shop_id = ${shop.shop_id}`;
  expect(category.id).toBe('b');
});

it('prunes raw bodies of imports finished longer ago than the retention, and only those', async () => {
  const { pruneImportBodies } = await import('./run-imports');
  const shop = await createTestShop(fixture.database.ctx);
  const { importId: old } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [] });
  const { importId: recent } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [] });
  const { importId: pending } = await sendImport(fixture.server.url, 'POST', 'categories', shop, { categories: [] });
  await fixture.database.ctx.sql`update imports set status = 'done', finished_at = now() - interval '31 days' where shop_id = ${shop.shop_id} and id = ${old!}`;
  await fixture.database.ctx.sql`update imports set status = 'done', finished_at = now() - interval '29 days' where shop_id = ${shop.shop_id} and id = ${recent!}`;
  expect(await pruneImportBodies(fixture.database.ctx, 0)).toBe(0);
  await pruneImportBodies(fixture.database.ctx, 30);
  const kept = await fixture.database.ctx.sql<{ import_id: number }[]>`select import_id from import_bodies where shop_id = ${shop.shop_id} order by import_id`;
  expect(kept.map((k) => k.import_id)).toEqual([recent, pending]);
});

it('stores the body exactly as sent, Brotli-compressed, and still applies Brotli and gzip bodies stored by earlier versions', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const sql = fixture.database.ctx.sql;
  const sent = JSON.stringify({ ...shop, items: [{ id: 'é1', name: 'Thé', price: 5, url: 'https://s.example/1', picture: 'https://s.example/1.jpg', categories: [] }] });
  const response = await fetch(`${fixture.server.url}/import/products`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: sent });
  const first = Number(response.headers.get('x-import-id'));
  const { importId: second } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [{ id: 'g2', name: 'Gzip', price: 7, url: 'https://s.example/2', picture: 'https://s.example/2.jpg', categories: [] }] });
  const { importId: third } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items: [{ id: 'b3', name: 'Brotli', price: 9, url: 'https://s.example/3', picture: 'https://s.example/3.jpg', categories: [] }] });
  const [stored] = await sql<{ body: Buffer; encoding: 'br-parts' }[]>`select body, encoding from import_bodies where shop_id = ${shop.shop_id} and import_id = ${first}`;
  expect(stored.encoding).toBe('br-parts');
  // A small body is one Brotli stream after its length.
  expect(stored.body.readUInt32BE(0)).toBe(stored.body.length - 4);
  expect(zlib.brotliDecompressSync(stored.body.subarray(4)).toString('utf8')).toBe(sent);
  expect((await decompressBody(stored.body, stored.encoding)).toString('utf8')).toBe(sent);
  // The second and third as earlier versions stored them.
  for (const [id, encoding] of [[second!, 'gzip'], [third!, 'br']] as const) {
    const [body] = await sql<{ body: Buffer }[]>`select body from import_bodies where shop_id = ${shop.shop_id} and import_id = ${id}`;
    const raw = await decompressBody(body.body, 'br-parts');
    const earlier = encoding === 'gzip' ? zlib.gzipSync(raw) : zlib.brotliCompressSync(raw);
    await sql`update import_bodies set body = ${earlier}, encoding = ${encoding} where shop_id = ${shop.shop_id} and import_id = ${id}`;
  }
  await runPendingImports(fixture.database.ctx, shop.shop_id);
  for (const id of [first, second!, third!]) expect((await importStatus(fixture.server.url, shop, id)).status).toBe('done');
  const names = await sql<{ id: string; name: string }[]>`select id, name from products where shop_id = ${shop.shop_id} order by id`;
  expect(names).toEqual([
    { id: 'b3', name: 'Brotli' },
    { id: 'g2', name: 'Gzip' },
    { id: 'é1', name: 'Thé' },
  ]);
});

it('stores a body that arrives in many network chunks exactly as sent, a large one compressed in two halves', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const items = Array.from({ length: 12_000 }, (_, n) => ({ id: `big-${n}`, name: `Thé ${n} ${'é'.repeat(n % 100)}`, price: 5, url: `https://s.example/${n}`, picture: 'https://s.example/p.jpg', categories: [] }));
  const sent = JSON.stringify({ ...shop, items });
  expect(Buffer.byteLength(sent)).toBeGreaterThan(2 << 20);
  const response = await fetch(`${fixture.server.url}/import/products`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: sent });
  expect(response.status).toBe(204);
  const [stored] = await fixture.database.ctx.sql<{ body: Buffer }[]>`
    select body from import_bodies where shop_id = ${shop.shop_id} and import_id = ${Number(response.headers.get('x-import-id'))}`;
  const first = stored.body.readUInt32BE(0);
  const halves = [stored.body.subarray(4, 4 + first), stored.body.subarray(8 + first)].map((part) => zlib.brotliDecompressSync(part));
  expect(8 + first + stored.body.readUInt32BE(4 + first)).toBe(stored.body.length);
  expect(Buffer.concat(halves).equals(Buffer.from(sent))).toBe(true);
  expect((await decompressBody(stored.body, 'br-parts')).equals(Buffer.from(sent))).toBe(true);
});

it('applies a body this process kept as stored (compressed, with its scan), without reading it back', async () => {
  const shop = await createTestShop(fixture.database.ctx);
  const sql = fixture.database.ctx.sql;
  const items = [{ id: 'k1', name: 'Kept', price: 5, url: 'https://s.example/k1', picture: 'https://s.example/k1.jpg', categories: [] }];
  const { importId } = await sendImport(fixture.server.url, 'PUT', 'products', shop, { items });
  const [stored] = await sql<{ body: Buffer; encoding: 'br-parts' }[]>`select body, encoding from import_bodies where shop_id = ${shop.shop_id} and import_id = ${importId!}`;
  const raw = await decompressBody(stored.body, stored.encoding);
  // Raw bodies up to the limit held already (an id no import has): this one is kept as stored.
  expect(handOver(-1, { raw: Buffer.alloc(48 * 1024 * 1024), members: new Map() })).toBe(true);
  expect(handOver(importId!, { raw, members: scanJson(raw, SUMMARY_KEYS)!, stored })).toBe(true);
  // Not in storage any more: only what this process kept can be applied.
  await sql`delete from import_bodies where shop_id = ${shop.shop_id} and import_id = ${importId!}`;
  try {
    await runPendingImports(fixture.database.ctx, shop.shop_id);
  } finally {
    takeOver(-1);
  }
  expect((await importStatus(fixture.server.url, shop, importId!)).status).toBe('done');
  expect(await sql`select id, name from products where shop_id = ${shop.shop_id}`).toEqual([{ id: 'k1', name: 'Kept' }]);
});
