import { beforeAll, describe, expect, it } from 'vitest';
import { sendImport, waitForImport, type ImportStatus } from '@/lib/testing/api';
import { createTestShop, createTestStaff, type TestShop } from '@/lib/testing/factories';
import { serverWithDatabase } from '@/lib/testing/fixtures';

// Text PostgreSQL cannot hold (a NUL; half of a UTF-16 surrogate pair) in every string of every
// import type, sent through the real server: each entry is applied with its text cleaned or
// refused with a reason naming it, never an import failed as an internal error (a PATCH listing
// an id with a NUL reached PostgreSQL in the statement's list of rejected ids).

const fixture = serverWithDatabase();
let shop: TestShop;

beforeAll(async () => {
  shop = await createTestShop(fixture.database.ctx);
  await applied('POST', 'categories', { categories: [{ id: 'c1', name: 'Shoes' }] });
  await applied('POST', 'locations', { locations: [{ id: 'loc-1', name: 'Town', parent: null }] });
});

async function applied(method: string, resource: string, fields: Record<string, unknown>): Promise<ImportStatus> {
  const { response, importId } = await sendImport(fixture.server.url, method, resource, shop, fields);
  expect(response.status, await response.clone().text()).toBe(204);
  const record = await waitForImport(fixture.server.url, shop, importId!);
  expect(record.message ?? '', `${method} ${resource}`).not.toMatch(/internal error/);
  return record;
}

const SPOILERS = { nul: '\u0000', 'half a surrogate pair': '\ud800' };

/** Copies of `value`, each with one of its strings (a key or a value) spoiled in the middle. */
function spoiledCopies(value: unknown, spoiler: string): { where: string; copy: unknown }[] {
  const copies: { where: string; copy: unknown }[] = [];
  const spoil = (text: string) => `${text.slice(0, 1)}${spoiler}${text.slice(1)}`;
  const walk = (node: unknown, where: string, rebuild: (replaced: unknown) => unknown) => {
    if (typeof node === 'string') copies.push({ where, copy: rebuild(spoil(node)) });
    else if (Array.isArray(node)) node.forEach((element, i) => walk(element, `${where}[${i}]`, (replaced) => rebuild(node.map((e, j) => (j === i ? replaced : e)))));
    else if (node && typeof node === 'object') {
      const entries = Object.entries(node);
      entries.forEach(([key, member], i) => {
        const withEntry = (entry: [string, unknown]) => rebuild(Object.fromEntries(entries.map((e, j) => (j === i ? entry : e))));
        copies.push({ where: `${where}.${key} (its key)`, copy: withEntry([spoil(key), member]) });
        walk(member, `${where}.${key}`, (replaced) => withEntry([key, replaced]));
      });
    }
  };
  walk(value, '', (replaced) => replaced);
  return copies;
}

/** A product with a string in every field that takes one. */
const RICH_ITEM = {
  id: 'rich',
  name: 'Runner',
  price: 100,
  oldprice: 120,
  url: 'https://s.example/rich',
  picture: 'https://s.example/rich.jpg',
  categories: ['c1'],
  currency: 'USD',
  group_id: 'g1',
  type_prefix: 'Shoe',
  brand: 'Acme',
  brand_picture: 'https://s.example/acme.png',
  vendor_code: 'vc1',
  barcode: '4006381333931',
  model: 'R1',
  description: 'Light',
  merchant: ['m1'],
  tags: ['t1'],
  gift: 'socks',
  promocode: 'P1',
  deeplink_android: 'app://a',
  deeplink_ios: 'app://i',
  accessories: ['a1'],
  customer_recommendations: ['r1'],
  leftovers: 'few',
  date: '2026-01-01',
  creation_date: '2026-01-02',
  params: [{ name: 'Color', value: ['red', 'blue'], unit: 'tone' }],
  locations: [{ location: 'loc-1', price: 90, merchant: 'mm', sizes: ['S'], delivery_types: { courier: 1 } }],
  fashion: { gender: 'f', type: 'sneakers', sizes: ['42'], colors: [{ color: 'red', picture: 'https://s.example/red.png' }, 'blue'], feature: 'mesh' },
  child: { type: 'kids', gender: 'm' },
  jewelry: { color: 'gold', metal: 'au', gem: 'ruby', ring_sizes: ['17'] },
  cosmetic: { skin: { part: ['face'] }, hair: { type: ['dry'] }, nail: { type: 'gel' }, perfume: { aroma: 'rose' } },
  book: { author: 'A', publisher: 'P', series: 'S', editor: 'E', illustrator: 'I', isbn: '978-3' },
  realty: { action: 'sale', type: 'flat' },
  auto: { vds: 'v', compatibility: [{ brand: 'VW', model: 'Golf' }] },
  pets: { breed: 'b', type: 'dog', age: 'adult', size: 'xl' },
  extra: { note: 'kept as sent' },
};

/** Each entry applied, or refused with its position and a reason, naming its id when it has one. */
function expectEachAccountedFor(record: ImportStatus, sent: unknown[], context: string) {
  expect(record.message ?? '', context).not.toMatch(/internal error/);
  expect((record.items_applied ?? 0) + (record.items_rejected ?? 0), context).toBe(sent.length);
  for (const error of record.errors) {
    expect(error, context).toEqual({ ...(error.item_id === undefined ? {} : { item_id: expect.any(String) }), position: expect.any(Number), message: expect.any(String) });
    const entry = sent[error.position!];
    const id = entry && typeof entry === 'object' ? (entry as { id?: unknown }).id : entry;
    if (typeof id === 'string') expect(error.item_id, `${context}: ${error.message}`).toBeDefined();
  }
}

describe.each(Object.entries(SPOILERS))('text with %s', (name, spoiler) => {
  it('in any string of a product: PUT and POST (load) apply it cleaned or refuse it with a reason, as one import', async () => {
    const copies = spoiledCopies(RICH_ITEM, spoiler);
    expect(copies.length).toBeGreaterThan(100);
    // Each copy its own product, but the one whose id is spoiled.
    const items = copies.map(({ where, copy }, n) => (where === '.id' ? copy : { ...(copy as object), id: `v${n}` }));
    for (const method of ['PUT', 'POST']) {
      const record = await applied(method, 'products', { items });
      expectEachAccountedFor(record, items, `${method} with ${name}`);
      // Ids and the ids a product names are refused: a NUL anywhere in one, half a pair in a product's own.
      const refused = record.errors.map((error) => copies[error.position!].where);
      expect(refused, method).toEqual(expect.arrayContaining(name === 'nul' ? ['.id', '.categories[0]', '.locations[0].location'] : []));
    }
  });

  it('in the ids of a PATCH and a DELETE: refused per entry, the rest applied', async () => {
    await applied('PUT', 'products', { items: [{ ...RICH_ITEM, id: 'p1' }, { ...RICH_ITEM, id: 'p2' }] });
    // An entry that is an object is no id (spec 2.7) whatever it holds, but it names one.
    const ids = ['p1', `p${spoiler}2`, { id: `x${spoiler}` }, `${spoiler}`, 'p2'];
    for (const method of ['PATCH', 'DELETE']) {
      const record = await applied(method, 'products', { items: ids });
      expectEachAccountedFor(record, ids, `${method} with ${name}`);
      expect(record.errors.map((error) => error.position), method).toEqual(name === 'nul' ? [1, 2, 3] : [2]);
      expect(record.status).toBe('failed');
    }
  });

  it('in any field of a category or a location, for POST, PUT and DELETE', async () => {
    const trees = {
      categories: { id: 'k1', name: 'Boots', parent: 'c1', url: 'https://s.example/k1', alias: 'boots' },
      locations: { id: 'l1', name: 'Store', parent: 'loc-1', type: 'store', group: ['g1'] },
    };
    for (const [resource, node] of Object.entries(trees)) {
      const copies = spoiledCopies(node, spoiler);
      const nodes = copies.map(({ where, copy }, n) => (where === '.id' ? copy : { ...(copy as object), id: `${resource}-${n}` }));
      // A replace keeps the node the products name.
      const kept = resource === 'categories' ? { id: 'c1', name: 'Shoes' } : { id: 'loc-1', name: 'Town', parent: null };
      for (const method of ['PUT', 'POST']) {
        const sent = [kept, ...nodes];
        expectEachAccountedFor(await applied(method, resource, { [resource]: sent }), sent, `${method} ${resource} with ${name}`);
      }
      const record = await applied('DELETE', resource, { [resource]: [`${resource}-1`, `a${spoiler}b`, { id: 'x' }] });
      expect(record.message ?? '').not.toMatch(/internal error/);
    }
  });
});

it('refuses text PostgreSQL cannot hold in a collection with 400 and the error body', async () => {
  const staff = await createTestStaff(fixture.database.ctx);
  const login = await fetch(`${fixture.server.url}/admin/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(staff) });
  const cookie = login.headers.get('set-cookie')!.split(';')[0];
  const rules = { groups: [{ categories: ['c1'], brands: ['Acme'], params: { Color: ['red'] }, ids: ['p1'], exclude_ids: ['p2'] }] };
  for (const { where, copy } of [...spoiledCopies({ name: 'Sale', rules }, '\u0000'), ...spoiledCopies({ name: 'Sale', rules: { groups: [{ ids: ['p1'] }] } }, '\ud800').filter(({ where }) => where.startsWith('.rules'))]) {
    const response = await fetch(`${fixture.server.url}/admin/api/shops/${shop.shop_id}/collections`, { method: 'POST', headers: { 'Content-Type': 'application/json', cookie }, body: JSON.stringify(copy) });
    const body = await response.json();
    expect(response.status, `${where}: ${JSON.stringify(body)}`).toBe(400);
    expect(body, where).toEqual({ status: 'error', payload: { message: expect.any(String) } });
  }
});
