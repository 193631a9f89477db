import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyProducts } from '@/lib/catalog/apply-products';
import { acceptImport } from '@/lib/imports/intake';
import { authenticateShop } from '@/lib/shops/authenticate';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';

const root = path.resolve(import.meta.dirname, '../..');

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

type CliResult = { code: number | null; stdout: string; stderr: string; json: unknown };

/** `npm run cli -- ...args` against the test database; never throws on a non-zero exit. */
function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/cli.ts', ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: database.url }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}

/** CONTRACT §2: exactly one line of JSON on stdout. */
function expectOneJsonLine(result: CliResult) {
  const lines = result.stdout.split('\n');
  expect(lines, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toHaveLength(2);
  expect(lines[1]).toBe('');
  expect(JSON.parse(lines[0])).toEqual(result.json);
}

function expectSuccess(result: CliResult) {
  expectOneJsonLine(result);
  expect(result.code, result.stderr).toBe(0);
  return result.json;
}

function expectError(result: CliResult, message: string) {
  expectOneJsonLine(result);
  expect(result.code).toBe(1);
  expect(result.json).toEqual({ error: message });
}

type ShopRow = { id: string; name: string; currency: string; listing_extended_default: boolean };

async function shopRow(shopId: string): Promise<ShopRow | undefined> {
  const [row] = await database.ctx.sql<ShopRow[]>`select id, name, currency, listing_extended_default from shops where id = ${shopId}`;
  return row;
}

describe('cli: shop', () => {
  it('creates a shop with an upper-cased currency, shown by shop list', async () => {
    const created = expectSuccess(await cli('shop', 'create', '--name', 'Corner Store', '--currency', 'eur')) as { shop_id: string; shop_secret: string };
    expect(Object.keys(created).sort()).toEqual(['shop_id', 'shop_secret']);
    expect(created.shop_id).toMatch(/^\S{16,}$/);
    expect(created.shop_secret).toMatch(/^\S{16,}$/);
    expect(created.shop_secret).not.toBe(created.shop_id);
    expect(await shopRow(created.shop_id)).toEqual({ id: created.shop_id, name: 'Corner Store', currency: 'EUR', listing_extended_default: false });
    expect((await authenticateShop(database.ctx.sql, created.shop_id, created.shop_secret)).name).toBe('Corner Store');

    const listed = expectSuccess(await cli('shop', 'list')) as { shop_id: string; name: string; currency: string }[];
    expect(Array.isArray(listed)).toBe(true);
    expect(listed.filter((shop) => shop.shop_id === created.shop_id)).toEqual([{ shop_id: created.shop_id, name: 'Corner Store', currency: 'EUR' }]);
  });

  it('defaults the currency to USD and stores --listing-extended-default', async () => {
    const created = expectSuccess(await cli('shop', 'create', '--name=Mobile Shop', '--listing-extended-default')) as { shop_id: string };
    expect(await shopRow(created.shop_id)).toEqual({ id: created.shop_id, name: 'Mobile Shop', currency: 'USD', listing_extended_default: true });
  });

  it('lists every shop in creation order with exactly shop_id, name and currency', async () => {
    const first = await createTestShop(database.ctx, { name: 'List First', currency: 'GBP' });
    const second = await createTestShop(database.ctx, { name: 'List Second', currency: 'JPY' });
    const listed = expectSuccess(await cli('shop', 'list')) as Record<string, unknown>[];
    const rows = await database.ctx.sql<{ id: string }[]>`select id from shops order by created_at, id`;
    expect(listed.map((shop) => shop.shop_id)).toEqual(rows.map((row) => row.id));
    for (const shop of listed) expect(Object.keys(shop).sort()).toEqual(['currency', 'name', 'shop_id']);
    expect(listed.filter((shop) => [first.shop_id, second.shop_id].includes(shop.shop_id as string))).toEqual([
      { shop_id: first.shop_id, name: 'List First', currency: 'GBP' },
      { shop_id: second.shop_id, name: 'List Second', currency: 'JPY' },
    ]);
  });

  it('rotates a secret: the new one differs and authenticates, the old one no longer does', async () => {
    const shop = await createTestShop(database.ctx);
    const rotated = expectSuccess(await cli('shop', 'rotate-secret', '--shop', shop.shop_id)) as { shop_id: string; shop_secret: string };
    expect(Object.keys(rotated).sort()).toEqual(['shop_id', 'shop_secret']);
    expect(rotated.shop_id).toBe(shop.shop_id);
    expect(rotated.shop_secret).toMatch(/^\S{16,}$/);
    expect(rotated.shop_secret).not.toBe(shop.shop_secret);
    expect((await authenticateShop(database.ctx.sql, shop.shop_id, rotated.shop_secret)).id).toBe(shop.shop_id);
    await expect(authenticateShop(database.ctx.sql, shop.shop_id, shop.shop_secret)).rejects.toThrow('Invalid shop_id or shop_secret');
  });

  it('names what is wrong with shop commands', async () => {
    const [noName, noValue, badCurrency, unknownShop, noShop] = await Promise.all([
      cli('shop', 'create'),
      cli('shop', 'create', '--name'),
      cli('shop', 'create', '--name', 'X', '--currency', 'euro'),
      cli('shop', 'rotate-secret', '--shop', 'no-such-shop'),
      cli('shop', 'rotate-secret'),
    ]);
    expectError(noName, '--name is required');
    expectError(noValue, '--name needs a value');
    expectError(badCurrency, 'currency: must be an ISO 4217 currency code such as USD or EUR');
    expectError(unknownShop, 'Shop no-such-shop not found');
    expectError(noShop, '--shop is required');
    const [typo, extraWord] = await Promise.all([
      cli('shop', 'create', '--name', 'X', '--curency', 'EUR'),
      cli('shop', 'list', 'all'),
    ]);
    expectError(typo, 'unknown option --curency for "shop create"; it takes --name, --currency, --listing-extended-default');
    expect((extraWord.json as { error: string }).error).toMatch(/^unknown command "shop list all"; commands: /);
    expect(extraWord.code).toBe(1);
    const [{ count }] = await database.ctx.sql<{ count: number }[]>`select count(*)::int as count from shops where name = 'X'`;
    expect(count).toBe(0);
  });
});

describe('cli: user create', () => {
  type StaffRow = { email: string; is_admin: boolean; technical_notices: boolean; shops: string[] };

  async function staffRow(email: string): Promise<StaffRow | undefined> {
    const [row] = await database.ctx.sql<StaffRow[]>`
      select u.email, u.is_admin, u.technical_notices,
             coalesce(array_agg(s.shop_id order by s.shop_id) filter (where s.shop_id is not null), '{}') as shops
        from staff_users u left join staff_shops s on s.user_id = u.id
       where u.email = ${email} group by u.id`;
    return row;
  }

  it('creates an admin of every shop with a normalised email', async () => {
    const result = expectSuccess(await cli('user', 'create', '--email', '  Admin.One@Example.TEST ', '--password', 'correct horse'));
    expect(result).toEqual({ email: 'admin.one@example.test' });
    expect(await staffRow('admin.one@example.test')).toEqual({ email: 'admin.one@example.test', is_admin: true, technical_notices: false, shops: [] });
  });

  it('creates a staff member of the given shops with technical notices', async () => {
    const [one, two] = [await createTestShop(database.ctx), await createTestShop(database.ctx)];
    const result = expectSuccess(
      await cli('user', 'create', '--email', 'Ops@Example.test', '--password', 'long enough', '--shop', one.shop_id, '--shop', two.shop_id, '--technical-notices'),
    );
    expect(result).toEqual({ email: 'ops@example.test' });
    expect(await staffRow('ops@example.test')).toEqual({
      email: 'ops@example.test',
      is_admin: false,
      technical_notices: true,
      shops: [one.shop_id, two.shop_id].sort(),
    });

    // Re-creating the same email sets the account anew (docs/decisions.md); a shop named twice counts once.
    expectSuccess(await cli('user', 'create', '--email', 'OPS@example.test', '--password', 'another one', '--shop', one.shop_id, '--shop', one.shop_id));
    expect(await staffRow('ops@example.test')).toEqual({ email: 'ops@example.test', is_admin: false, technical_notices: false, shops: [one.shop_id] });
    // A value given to the flag is refused rather than read as "on".
    expectError(
      await cli('user', 'create', '--email', 'OPS@example.test', '--password', 'another one', '--technical-notices=false'),
      '--technical-notices takes no value',
    );
    expect((await staffRow('ops@example.test'))?.technical_notices).toBe(false);
  });

  it('names a bad email, a short password, a missing option and an unknown shop', async () => {
    const [badEmail, shortPassword, noPassword, unknownShop] = await Promise.all([
      cli('user', 'create', '--email', 'not-an-email', '--password', 'long enough'),
      cli('user', 'create', '--email', 'short@example.test', '--password', 'short'),
      cli('user', 'create', '--email', 'nopass@example.test'),
      cli('user', 'create', '--email', 'ghost@example.test', '--password', 'long enough', '--shop', 'no-such-shop'),
    ]);
    expectError(badEmail, 'email must be a valid email address');
    expectError(shortPassword, 'password must be at least 8 characters');
    expectError(noPassword, '--password is required');
    expectError(unknownShop, 'Shop no-such-shop not found');
    const rows = await database.ctx.sql`
      select email from staff_users where email in ('not-an-email', 'short@example.test', 'nopass@example.test', 'ghost@example.test')`;
    expect(rows.length).toBe(0);
  });
});

describe('cli: import status', () => {
  it('prints the import record of a queued import (no worker runs in this test)', async () => {
    const shop = await createTestShop(database.ctx);
    const request = new Request('http://localhost/import/categories', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...shop, categories: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B', parent: 'a' }] }),
    });
    const { importId } = await acceptImport(database.ctx, request, 'categories', 'POST');
    const record = expectSuccess(await cli('import', 'status', '--shop', shop.shop_id, '--id', String(importId))) as Record<string, unknown>;
    expect(record).toMatchObject({
      id: importId,
      shop_id: shop.shop_id,
      operation: 'categories.replace',
      status: 'queued',
      started_at: null,
      finished_at: null,
      items_total: 2,
      // Counts of what was applied are unknown until the import has run.
      items_applied: null,
      items_rejected: null,
      errors: [],
      warnings: [],
      message: null,
    });
    expect(Object.keys(record).sort()).toEqual(
      ['errors', 'finished_at', 'id', 'items_applied', 'items_rejected', 'items_total', 'message', 'operation', 'received_at', 'shop_id', 'started_at', 'status', 'warnings'].sort(),
    );
    expect(Math.abs(Date.parse(record.received_at as string) - Date.now())).toBeLessThan(120_000);
  });

  it('answers exit 1 with "Import N not found" for an unknown id or another shop\'s import', async () => {
    const [owner, other] = [await createTestShop(database.ctx), await createTestShop(database.ctx)];
    const request = new Request('http://localhost/import/locations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...owner, locations: [] }),
    });
    const { importId } = await acceptImport(database.ctx, request, 'locations', 'POST');
    const [unknown, foreign, notNumber, tooLarge] = await Promise.all([
      cli('import', 'status', '--shop', owner.shop_id, '--id', '987654'),
      cli('import', 'status', '--shop', other.shop_id, '--id', String(importId)),
      cli('import', 'status', '--shop', owner.shop_id, '--id', 'abc'),
      cli('import', 'status', '--shop', owner.shop_id, '--id', '99999999999999999999'),
    ]);
    expectError(unknown, 'Import 987654 not found');
    expectError(foreign, `Import ${importId} not found`);
    expectError(notNumber, '--id must be an import id (a positive integer)');
    expectError(tooLarge, '--id must be an import id (a positive integer)');
  });
});

describe('cli: usage errors', () => {
  it('answers an unknown or missing command with exit 1 and a JSON error naming the commands', async () => {
    const [unknown, none] = await Promise.all([cli('shop', 'explode'), cli()]);
    for (const [result, name] of [
      [unknown, 'shop explode'],
      [none, ''],
    ] as const) {
      expectOneJsonLine(result);
      expect(result.code).toBe(1);
      const { error } = result.json as { error: string };
      expect(Object.keys(result.json as object)).toEqual(['error']);
      expect(error.startsWith(`unknown command "${name}"; commands: `)).toBe(true);
      expect(error.slice(error.indexOf('commands: ') + 'commands: '.length).split(', ')).toEqual(
        expect.arrayContaining(['shop create', 'shop list', 'shop rotate-secret', 'user create', 'import status']),
      );
    }
  });
});

describe('cli: the server’s settings', () => {
  it('leaves the queues’ settings as the server set them (its environment may differ)', async () => {
    const sql = database.ctx.sql;
    const retryDelay = async () => (await sql<{ d: number }[]>`select retry_delay as d from pgboss.queue where name = 'webhooks.deliver'`)[0].d;
    await sql`update pgboss.queue set retry_delay = 7 where name = 'webhooks.deliver'`;
    try {
      expectSuccess(await cli('shop', 'list'));
      expect(await retryDelay()).toBe(7);
    } finally {
      await sql`update pgboss.queue set retry_delay = 30 where name = 'webhooks.deliver'`;
    }
  });
});

describe('listing backfill', () => {
  it('fills the facet tokens of products stored without them, for one shop or every shop', async () => {
    const shop = expectSuccess(await cli('shop', 'create', '--name', 'Backfill')) as { shop_id: string };
    const sql = database.ctx.sql;
    await sql.begin((tx) =>
      applyProducts(tx, shop.shop_id, 'put', [
        { id: 'a', name: 'A', url: 'https://shop.example/a', picture: 'https://shop.example/a.jpg', price: 10, categories: ['1'], brand: 'Acme', params: [{ name: 'Size', value: ['M'] }] },
        { id: 'b', name: 'B', url: 'https://shop.example/b', picture: 'https://shop.example/b.jpg', price: 20, categories: [], params: [{ name: 'Odd', value: 'x\u001ey' }] },
      ]),
    );
    // As stored before the facet dictionary and the tokens column existed.
    await sql`update products set facet_values = null, facets = null where shop_id = ${shop.shop_id}`;

    expect(expectSuccess(await cli('listing', 'backfill', '--shop', shop.shop_id))).toEqual([{ shop_id: shop.shop_id, filled: 1 }]);
    expect(await sql`select id, facets from products where shop_id = ${shop.shop_id} order by id`).toEqual([
      { id: 'a', facets: ['c1', 'bAcme', 'p\u001f4\u001fSize\u001fM'].join('\u001e') },
      { id: 'b', facets: null }, // b holds the separator
    ]);
    const every = expectSuccess(await cli('listing', 'backfill')) as { shop_id: string; filled: number }[];
    expect(every.find((entry) => entry.shop_id === shop.shop_id)).toEqual({ shop_id: shop.shop_id, filled: 0 });
    expectError(await cli('listing', 'backfill', '--shop', 'no-such-shop'), 'Shop no-such-shop not found');
  });
});

describe('collection create', () => {
  it('stores a collection with its rule groups and prints its id', async () => {
    const shop = expectSuccess(await cli('shop', 'create', '--name', 'Collector')) as { shop_id: string };
    const rules = { groups: [{ categories: ['10'], limit: 4 }, { brands: ['Acme'], discount: true }] };
    const first = expectSuccess(await cli('collection', 'create', '--shop', shop.shop_id, '--name', 'Summer', '--rules', JSON.stringify(rules))) as { id: number };
    const second = expectSuccess(await cli('collection', 'create', '--shop', shop.shop_id, '--name', 'Winter', '--rules', '{"groups":[{}]}')) as { id: number };
    expect(Object.keys(first)).toEqual(['id']);
    expect(Number.isInteger(first.id) && second.id > first.id).toBe(true);
    const [row] = await database.ctx.sql<{ name: string; rules: unknown }[]>`select name, rules from collections where shop_id = ${shop.shop_id} and id = ${first.id}`;
    expect(row).toEqual({ name: 'Summer', rules });
  });

  it('names what is wrong with a collection', async () => {
    const shop = expectSuccess(await cli('shop', 'create', '--name', 'Collector 2')) as { shop_id: string };
    const [notJson, noGroups, badLimit, unknownShop, noRules] = await Promise.all([
      cli('collection', 'create', '--shop', shop.shop_id, '--name', 'X', '--rules', '{groups'),
      cli('collection', 'create', '--shop', shop.shop_id, '--name', 'X', '--rules', '{"groups":[]}'),
      cli('collection', 'create', '--shop', shop.shop_id, '--name', 'X', '--rules', '{"groups":[{"limit":1.5}]}'),
      cli('collection', 'create', '--shop', 'no-such-shop', '--name', 'X', '--rules', '{"groups":[{}]}'),
      cli('collection', 'create', '--shop', shop.shop_id, '--name', 'X'),
    ]);
    expectError(noRules, '--rules is required');
    expectError(notJson, '--rules must be JSON: {"groups": [{...}]}');
    expectError(noGroups, 'rules.groups must list at least one rule group');
    expectError(badLimit, 'rules.groups[0].limit must be a whole number');
    expectError(unknownShop, 'Shop no-such-shop not found');
  });
});

it('answers --help on its own and on every command with one JSON document, without a database', async () => {
  const all = expectSuccess(await cli('--help')) as { usage: string; commands: { command: string; usage: string }[] };
  expect(all.usage).toBe('npm run cli -- <command> [options]');
  expect(all.commands.map((c) => c.command)).toContain('shop rotate-secret');
  for (const { command } of all.commands) {
    const one = expectSuccess(await cli(...command.split(' '), '--help')) as { command: string; usage: string };
    expect(one.command).toBe(command);
  }
});
