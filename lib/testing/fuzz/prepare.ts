import http from 'node:http';
import sharp from 'sharp';
import { createCollection } from '@/lib/collections/manage-collections';
import type { AppContext } from '@/lib/runtime/context';
import { productItem } from '../applied-imports';
import { sendImport, waitForImport } from '../api';
import { createTestShop, createTestStaff, type TestShop } from '../factories';
import type { FuzzContext } from './targets';

/** Settings of a server to fuzz: limits high enough not to hide the paths behind them, a small body limit. */
export const FUZZ_SERVER_ENV = {
  BODY_LIMIT_BYTES: String(1024 * 1024),
  RATE_LIMIT_PER_MINUTE: '1000000',
  READ_RATE_LIMIT_PER_MINUTE: '1000000',
  AUTH_FAILURES_PER_MINUTE: '1000000',
  WEBHOOK_RETRY_LIMIT: '0',
  WEBHOOK_TIMEOUT_MS: '500',
  DNS_TIMEOUT_MS: '500',
  IMAGE_FETCH_TIMEOUT_MS: '500',
  // The products' pictures come from an origin of the fuzz's own on 127.0.0.1 (no other host
  // resolves here): the image route then answers what it serves, not 502 for every original.
  WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
};

/** An HTTP origin on 127.0.0.1 answering every path with the same small PNG. */
async function startImageOrigin(): Promise<{ url: string; close: () => Promise<void> }> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3060c0' } }).png().toBuffer();
  const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'image/png' }).end(png));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function loadCatalog(url: string, shop: TestShop, imageOrigin: string): Promise<void> {
  const categories = await sendImport(url, 'POST', 'categories', shop, { categories: [{ id: 'c1', name: 'Shoes' }, { id: 'c2', name: 'Boots', parent: 'c1' }] });
  const locations = await sendImport(url, 'POST', 'locations', shop, { locations: [{ id: 'loc-1', name: 'Town', parent: null }] });
  const items = Array.from({ length: 40 }, (_, n) =>
    productItem(`p${n}`, { picture: `${imageOrigin}/p${n}.png`, categories: [n % 2 ? 'c1' : 'c2'], brand: n % 3 ? 'Acme' : 'Zeta', params: [{ name: 'color', value: [n % 2 ? 'red' : 'blue'] }], locations: n % 5 ? [] : [{ location: 'loc-1', price: 50 }] }),
  );
  const products = await sendImport(url, 'PUT', 'products', shop, { items });
  for (const sent of [categories, locations, products]) {
    const record = await waitForImport(url, shop, sent.importId!);
    if (record.status !== 'done') throw new Error(`catalog import of the fuzz shop ended ${record.status}: ${JSON.stringify(record.errors)}`);
  }
}

export type PreparedFuzz = FuzzContext & {
  /** Stops the origin of the products' pictures. */
  close: () => Promise<void>;
};

/**
 * Two shops with a catalog, a collection, a signed image link (to an origin of its own), a
 * signed-in admin, and a spare shop and staff account on a running server (started with
 * FUZZ_SERVER_ENV).
 */
export async function prepareFuzz(url: string, ctx: AppContext): Promise<PreparedFuzz> {
  const origin = await startImageOrigin();
  const shops = [await createTestShop(ctx), await createTestShop(ctx)];
  for (const shop of shops) await loadCatalog(url, shop, origin.url);
  const { id: collectionId } = await createCollection(ctx, shops[0].shop_id, { name: 'Fuzz', rules: { groups: [{ categories: ['c1'] }] } });
  const listing = await (await fetch(`${url}/products?shop_id=${shops[0].shop_id}&did=d&sid=s&extended=true&limit=1`)).json();
  const imagePath = new URL(listing.products[0].image_url_resized['120']).pathname;
  const staff = await createTestStaff(ctx);
  const login = await fetch(`${url}/admin/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(staff) });
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  // What the routes that rotate a secret, change or remove an account may act on: not the fuzz's own.
  const spareShopId = (await createTestShop(ctx)).shop_id;
  const spare = await createTestStaff(ctx, { shops: [spareShopId] });
  const [{ id: spareStaffId }] = await ctx.sql<{ id: number }[]>`select id from staff_users where email = ${spare.email}`;
  return { shops, collectionId, imagePath, cookie, spareShopId, spareStaffId, close: origin.close };
}

/**
 * After the fuzz: each shop still takes a valid import, which is applied, and its listing answers
 * with it; and no import the fuzz sent failed as an internal error (an entry the checks let
 * through to PostgreSQL, say: answered 204, it fails out of sight of the HTTP checks). Gives
 * what failed, if anything.
 */
export async function checkStillServing(url: string, fuzz: FuzzContext, ctx: AppContext): Promise<string[]> {
  const failures: string[] = [];
  for (const shop of fuzz.shops) {
    const { response, importId } = await sendImport(url, 'PUT', 'products', shop, { items: [productItem('after-fuzz', { name: 'After the fuzz', price: 12_345 })] });
    if (response.status !== 204) {
      failures.push(`shop ${shop.shop_id}: a valid import answered ${response.status} ${await response.text()}`);
      continue;
    }
    const record = await waitForImport(url, shop, importId!, 300_000);
    if (record.status !== 'done') failures.push(`shop ${shop.shop_id}: a valid import ended ${record.status}: ${JSON.stringify(record.errors)}`);
    // The index follows the import within seconds.
    let last = '';
    let listed = false;
    for (const deadline = Date.now() + 30_000; !listed && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      const listing = await fetch(`${url}/products?shop_id=${shop.shop_id}&did=d&sid=s&extended=false&price_min=12345&price_max=12345`);
      const text = await listing.text();
      last = `${listing.status} ${text.slice(0, 200)}`;
      listed = listing.status === 200 && (JSON.parse(text) as { products: string[] }).products.includes('after-fuzz');
    }
    if (!listed) failures.push(`shop ${shop.shop_id}: the listing answered ${last} without the product just imported`);
  }
  // A shop's imports are applied in order: the last one done, every one before it is settled.
  const failedInside = await ctx.sql<{ id: number; shop_id: string; operation: string; message: string }[]>`
    select id, shop_id, operation, message from imports
     where shop_id = any(${fuzz.shops.map((shop) => shop.shop_id)}) and message like 'Import could not be applied%'
     order by id limit 20`;
  for (const row of failedInside) failures.push(`shop ${row.shop_id}: import ${row.id} (${row.operation}) failed: ${row.message} (the server's log has the details)`);
  return failures;
}
