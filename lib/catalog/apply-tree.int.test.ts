import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { createTestShop } from '@/lib/testing/factories';
import { applyTree, type TreeKind, type TreeMode } from './apply-tree';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

async function newShop(): Promise<string> {
  return (await createTestShop(database.ctx)).shop_id;
}

async function apply(shopId: string, kind: TreeKind, mode: TreeMode, list: unknown[]) {
  const outcome = await database.ctx.sql.begin((tx) => applyTree(tx, shopId, kind, mode, list));
  const { itemsTotal, applied, rejected, warningCount, warnings, changed } = outcome;
  // Problems are compared in request order; the order they were found in is not part of the contract.
  const errors = [...outcome.errors].sort((a, b) => (a.position ?? -1) - (b.position ?? -1));
  return { itemsTotal, applied, rejected, warningCount, errors, warnings, changed };
}

type CategoryRow = { id: string; name: string; parent: string | null; url: string | null; alias: string | null; path: string[]; depth: number };
type LocationRow = {
  id: string;
  name: string;
  parent: string | null;
  type: string | null;
  groups: string[] | null;
  discount_percent: string | null;
  search_level_up: number | null;
  path: string[];
  depth: number;
};

async function categoriesOf(shopId: string): Promise<Record<string, Omit<CategoryRow, 'id'>>> {
  const rows = await database.ctx.sql<CategoryRow[]>`
    select id, name, parent, url, alias, path, depth from categories where shop_id = ${shopId} order by id`;
  return Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]));
}

async function locationsOf(shopId: string): Promise<Record<string, Omit<LocationRow, 'id'>>> {
  const rows = await database.ctx.sql<LocationRow[]>`
    select id, name, parent, type, groups, discount_percent, search_level_up, path, depth
      from locations where shop_id = ${shopId} order by id`;
  return Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]));
}

/** id → [parent, path] of every stored category: the shape of the tree at a glance. */
async function shapeOf(shopId: string, kind: TreeKind = 'categories'): Promise<Record<string, [string | null, string[]]>> {
  const rows = await database.ctx.sql<{ id: string; parent: string | null; path: string[]; depth: number }[]>`
    select id, parent, path, depth from ${database.ctx.sql(kind)} where shop_id = ${shopId} order by id`;
  for (const row of rows) expect(row.depth, `depth of ${row.id}`).toBe(row.path.length - 1);
  return Object.fromEntries(rows.map((row) => [row.id, [row.parent, row.path]]));
}

describe('applyTree: categories, POST (replace)', () => {
  it('stores every node with its fields, parent, path from the root and depth', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 'shoes', name: 'Shoes', url: 'https://shop.example/shoes', alias: 'footwear' },
      { id: 'boots', name: 'Boots', parent: 'shoes' },
      { id: 'hiking', name: 'Hiking boots', parent: 'boots', url: 'https://shop.example/hiking' },
      { id: 'bags', name: '  Bags  ', parent: null },
    ]);
    expect(outcome).toEqual({ itemsTotal: 4, applied: 4, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await categoriesOf(shop)).toEqual({
      bags: { name: 'Bags', parent: null, url: null, alias: null, path: ['bags'], depth: 0 },
      boots: { name: 'Boots', parent: 'shoes', url: null, alias: null, path: ['shoes', 'boots'], depth: 1 },
      hiking: { name: 'Hiking boots', parent: 'boots', url: 'https://shop.example/hiking', alias: null, path: ['shoes', 'boots', 'hiking'], depth: 2 },
      shoes: { name: 'Shoes', parent: null, url: 'https://shop.example/shoes', alias: 'footwear', path: ['shoes'], depth: 0 },
    });
  });

  it('stores numeric ids and parents as strings and reads "" as a root', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 10, name: 'Ten', parent: '' },
      { id: 11, name: 'Eleven', parent: 10 },
      { id: '12', name: 'Twelve', parent: 11 },
    ]);
    expect(outcome).toMatchObject({ applied: 3, rejected: 0, warnings: [] });
    expect(await shapeOf(shop)).toEqual({
      '10': [null, ['10']],
      '11': ['10', ['10', '11']],
      '12': ['11', ['10', '11', '12']],
    });
  });

  it('removes the nodes missing from the request and re-paths the ones that moved', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B', parent: 'a' },
      { id: 'c', name: 'C', parent: 'b' },
      { id: 'x', name: 'X' },
    ]);
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 'x', name: 'X' },
      { id: 'b', name: 'B', parent: 'x' },
      { id: 'c', name: 'C', parent: 'b' },
    ]);
    expect(outcome).toEqual({ itemsTotal: 3, applied: 3, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await shapeOf(shop)).toEqual({
      b: ['x', ['x', 'b']],
      c: ['b', ['x', 'b', 'c']],
      x: [null, ['x']],
    });
  });

  it('empties the tree for an empty list', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [{ id: 'a', name: 'A' }, { id: 'b', name: 'B', parent: 'a' }]);
    const outcome = await apply(shop, 'categories', 'replace', []);
    expect(outcome).toEqual({ itemsTotal: 0, applied: 0, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await categoriesOf(shop)).toEqual({});
  });

  it('rejects invalid nodes with their id, position and reason, and applies the rest', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 'ok', name: 'OK' },
      { name: 'No id' },
      { id: 'noname' },
      { id: 'badurl', name: 'Bad url', url: 42 },
      'just-a-string',
      { id: 'child', name: 'Child', parent: 'ok' },
      { id: 7, name: '' },
    ]);
    expect(outcome).toEqual({
      itemsTotal: 7,
      applied: 2,
      rejected: 5,
      warningCount: 0,
      errors: [
        { item_id: undefined, position: 1, message: 'id is required' },
        { item_id: 'noname', position: 2, message: 'name is required' },
        { item_id: 'badurl', position: 3, message: 'url must be a string' },
        { item_id: 'just-a-string', position: 4, message: 'each category must be an object with id and name' },
        { item_id: '7', position: 6, message: 'name must not be empty' },
      ],
      warnings: [],
      changed: true,
    });
    expect(await shapeOf(shop)).toEqual({ child: ['ok', ['ok', 'child']], ok: [null, ['ok']] });
  });

  it('uses the last of duplicate ids, with a warning at the later position', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 'root', name: 'Root' },
      { id: 'dup', name: 'First', parent: null },
      { id: 'other', name: 'Other' },
      { id: 'dup', name: 'Second', parent: 'root', alias: 'second' },
    ]);
    expect(outcome).toEqual({
      itemsTotal: 4,
      applied: 3,
      rejected: 0,
      warningCount: 1,
      errors: [],
      warnings: [{ item_id: 'dup', position: 3, message: 'id dup appears more than once; the last one is used' }],
      changed: true,
    });
    const stored = await categoriesOf(shop);
    expect(stored.dup).toEqual({ name: 'Second', parent: 'root', url: null, alias: 'second', path: ['root', 'dup'], depth: 1 });
    expect(Object.keys(stored)).toEqual(['dup', 'other', 'root']);
  });

  it('rejects the nodes of a cycle and of a self-parent, and roots the nodes hanging below them', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 'a', name: 'A', parent: 'b' },
      { id: 'b', name: 'B', parent: 'a' },
      { id: 'under', name: 'Under', parent: 'a' },
      { id: 'self', name: 'Self', parent: 'self' },
      { id: 'fine', name: 'Fine' },
    ]);
    expect(outcome).toEqual({
      itemsTotal: 5,
      applied: 2,
      rejected: 3,
      warningCount: 1,
      errors: [
        { item_id: 'a', position: 0, message: 'parent chain forms a cycle: a → b → a' },
        { item_id: 'b', position: 1, message: 'parent chain forms a cycle: a → b → a' },
        { item_id: 'self', position: 3, message: 'parent chain forms a cycle: self → self' },
      ],
      warnings: [{ item_id: 'under', position: 2, message: 'parent a is unknown; kept as a root until it arrives' }],
      changed: true,
    });
    expect(await shapeOf(shop)).toEqual({ fine: [null, ['fine']], under: ['a', ['under']] });
  });

  it('rejects a 3-cycle sent with numeric ids, naming each member at its position', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'categories', 'replace', [
      { id: 1, name: 'One', parent: 3 },
      { id: 2, name: 'Two', parent: 1 },
      { id: 3, name: 'Three', parent: 2 },
    ]);
    expect(outcome.errors).toEqual([
      { item_id: '1', position: 0, message: 'parent chain forms a cycle: 1 → 3 → 2 → 1' },
      { item_id: '2', position: 1, message: 'parent chain forms a cycle: 1 → 3 → 2 → 1' },
      { item_id: '3', position: 2, message: 'parent chain forms a cycle: 1 → 3 → 2 → 1' },
    ]);
    expect(outcome).toMatchObject({ applied: 0, rejected: 3, changed: false });
    expect(await categoriesOf(shop)).toEqual({});
  });

  it('reports changed=false when the same tree is sent again, in any order, and leaves rows untouched', async () => {
    const shop = await newShop();
    const tree = [
      { id: 'a', name: 'A', url: 'https://shop.example/a' },
      { id: 'b', name: 'B', parent: 'a', alias: 'bee' },
      { id: 'orphan', name: 'Orphan', parent: 'nowhere' },
    ];
    expect((await apply(shop, 'categories', 'replace', tree)).changed).toBe(true);
    const [before] = await database.ctx.sql<{ stamps: string }[]>`
      select string_agg(id || '@' || updated_at::text, ',' order by id) as stamps from categories where shop_id = ${shop}`;

    const again = await apply(shop, 'categories', 'replace', [...tree].reverse());
    expect(again).toEqual({
      itemsTotal: 3,
      applied: 3,
      rejected: 0,
      warningCount: 1,
      errors: [],
      warnings: [{ item_id: 'orphan', position: 0, message: 'parent nowhere is unknown; kept as a root until it arrives' }],
      changed: false,
    });
    expect((await apply(shop, 'categories', 'upsert', [tree[1]])).changed).toBe(false);
    const [after] = await database.ctx.sql<{ stamps: string }[]>`
      select string_agg(id || '@' || updated_at::text, ',' order by id) as stamps from categories where shop_id = ${shop}`;
    expect(after.stamps).toBe(before.stamps);

    const renamed = await apply(shop, 'categories', 'replace', [tree[0], { ...tree[1], name: 'B2' }, tree[2]]);
    expect(renamed.changed).toBe(true);
    expect((await categoriesOf(shop)).b.name).toBe('B2');
  });
});

describe('applyTree: categories, PUT (upsert)', () => {
  it('adds and updates the listed nodes and keeps the others', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [
      { id: 'a', name: 'A', url: 'https://shop.example/a', alias: 'aa' },
      { id: 'b', name: 'B', parent: 'a' },
    ]);
    const outcome = await apply(shop, 'categories', 'upsert', [
      { id: 'c', name: 'C', parent: 'b' },
      { id: 'a', name: 'A renamed' },
    ]);
    expect(outcome).toEqual({ itemsTotal: 2, applied: 2, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    // A PUT node is replaced as a whole: fields it leaves out (url, alias) are cleared.
    expect(await categoriesOf(shop)).toEqual({
      a: { name: 'A renamed', parent: null, url: null, alias: null, path: ['a'], depth: 0 },
      b: { name: 'B', parent: 'a', url: null, alias: null, path: ['a', 'b'], depth: 1 },
      c: { name: 'C', parent: 'b', url: null, alias: null, path: ['a', 'b', 'c'], depth: 2 },
    });
  });

  it('moves a subtree: descendants that were not sent follow with new paths and depths', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B', parent: 'a' },
      { id: 'c', name: 'C', parent: 'b' },
      { id: 'd', name: 'D', parent: 'c' },
      { id: 'x', name: 'X' },
      { id: 'y', name: 'Y', parent: 'x' },
    ]);
    const outcome = await apply(shop, 'categories', 'upsert', [{ id: 'b', name: 'B', parent: 'y' }]);
    expect(outcome).toMatchObject({ applied: 1, rejected: 0, warnings: [], changed: true });
    expect(await shapeOf(shop)).toEqual({
      a: [null, ['a']],
      b: ['y', ['x', 'y', 'b']],
      c: ['b', ['x', 'y', 'b', 'c']],
      d: ['c', ['x', 'y', 'b', 'c', 'd']],
      x: [null, ['x']],
      y: ['x', ['x', 'y']],
    });
  });

  it('rejects a node that would close a cycle with stored nodes and keeps its stored version', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [
      { id: 'r', name: 'Root', url: 'https://shop.example/r' },
      { id: 'a', name: 'A', parent: 'r' },
      { id: 'b', name: 'B', parent: 'a' },
    ]);
    const before = await categoriesOf(shop);
    const outcome = await apply(shop, 'categories', 'upsert', [
      { id: 'n', name: 'New', parent: 'b' },
      { id: 'r', name: 'Root renamed', parent: 'b' },
    ]);
    expect(outcome).toMatchObject({ itemsTotal: 2, applied: 1, rejected: 1, warnings: [], changed: true });
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toMatchObject({ item_id: 'r', position: 1 });
    // The loop is described from wherever the walk met it; every rotation names the same loop.
    expect(['parent chain forms a cycle: r → b → a → r', 'parent chain forms a cycle: a → r → b → a', 'parent chain forms a cycle: b → a → r → b']).toContain(
      outcome.errors[0].message,
    );
    const after = await categoriesOf(shop);
    expect(after.r).toEqual(before.r);
    expect(after.r).toEqual({ name: 'Root', parent: null, url: 'https://shop.example/r', alias: null, path: ['r'], depth: 0 });
    expect(after.a).toEqual(before.a);
    expect(after.b).toEqual(before.b);
    expect(after.n).toEqual({ name: 'New', parent: 'b', url: null, alias: null, path: ['r', 'a', 'b', 'n'], depth: 3 });
  });

  it('rejects a PUT that makes a stored node its own parent', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [{ id: 'a', name: 'A' }, { id: 'b', name: 'B', parent: 'a' }]);
    const outcome = await apply(shop, 'categories', 'upsert', [{ id: 'a', name: 'A', parent: 'a' }]);
    expect(outcome).toEqual({
      itemsTotal: 1,
      applied: 0,
      rejected: 1,
      warningCount: 0,
      errors: [{ item_id: 'a', position: 0, message: 'parent chain forms a cycle: a → a' }],
      warnings: [],
      changed: false,
    });
    expect(await shapeOf(shop)).toEqual({ a: [null, ['a']], b: ['a', ['a', 'b']] });
  });

  it('keeps an orphan as a root and hangs it, with its descendants, under its parent when the parent arrives', async () => {
    const shop = await newShop();
    const first = await apply(shop, 'categories', 'upsert', [
      { id: 'child', name: 'Child', parent: 'parent' },
      { id: 'grandchild', name: 'Grandchild', parent: 'child' },
    ]);
    expect(first).toEqual({
      itemsTotal: 2,
      applied: 2,
      rejected: 0,
      warningCount: 1,
      errors: [],
      warnings: [{ item_id: 'child', position: 0, message: 'parent parent is unknown; kept as a root until it arrives' }],
      changed: true,
    });
    expect(await shapeOf(shop)).toEqual({
      child: ['parent', ['child']],
      grandchild: ['child', ['child', 'grandchild']],
    });

    const second = await apply(shop, 'categories', 'upsert', [{ id: 'parent', name: 'Parent', parent: 'top' }]);
    expect(second.warnings).toEqual([{ item_id: 'parent', position: 0, message: 'parent top is unknown; kept as a root until it arrives' }]);
    expect(await shapeOf(shop)).toEqual({
      child: ['parent', ['parent', 'child']],
      grandchild: ['child', ['parent', 'child', 'grandchild']],
      parent: ['top', ['parent']],
    });

    const third = await apply(shop, 'categories', 'upsert', [{ id: 'top', name: 'Top' }]);
    expect(third).toEqual({ itemsTotal: 1, applied: 1, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await shapeOf(shop)).toEqual({
      child: ['parent', ['top', 'parent', 'child']],
      grandchild: ['child', ['top', 'parent', 'child', 'grandchild']],
      parent: ['top', ['top', 'parent']],
      top: [null, ['top']],
    });
  });

  it('rejects a parent that arrives below its own orphan, and keeps the orphan a root', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'upsert', [{ id: 'kid', name: 'Kid', parent: 'mom' }]);
    const outcome = await apply(shop, 'categories', 'upsert', [{ id: 'mom', name: 'Mom', parent: 'kid' }]);
    expect(outcome).toMatchObject({ applied: 0, rejected: 1, changed: false });
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toMatchObject({ item_id: 'mom', position: 0 });
    expect(['parent chain forms a cycle: kid → mom → kid', 'parent chain forms a cycle: mom → kid → mom']).toContain(outcome.errors[0].message);
    expect(await shapeOf(shop)).toEqual({ kid: ['mom', ['kid']] });
  });
});

describe('applyTree: categories, DELETE', () => {
  it('removes the listed ids; their children become roots that keep their parent and re-hang when it returns', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B', parent: 'a' },
      { id: 'c', name: 'C', parent: 'b' },
      { id: 'd', name: 'D', parent: 'c' },
      { id: 'e', name: 'E', parent: 'a' },
    ]);
    const outcome = await apply(shop, 'categories', 'delete', ['b', 'zz', 'e', { id: 'x' }, 5]);
    expect(outcome).toEqual({
      itemsTotal: 5,
      applied: 4,
      rejected: 1,
      warningCount: 2,
      errors: [{ position: 3, message: 'id must be a string or a number' }],
      warnings: [
        { item_id: 'zz', position: 1, message: 'id zz is not stored; nothing to remove' },
        { item_id: '5', position: 4, message: 'id 5 is not stored; nothing to remove' },
      ],
      changed: true,
    });
    expect(await shapeOf(shop)).toEqual({
      a: [null, ['a']],
      c: ['b', ['c']],
      d: ['c', ['c', 'd']],
    });

    await apply(shop, 'categories', 'upsert', [{ id: 'b', name: 'B again', parent: 'a' }]);
    expect(await shapeOf(shop)).toEqual({
      a: [null, ['a']],
      b: ['a', ['a', 'b']],
      c: ['b', ['a', 'b', 'c']],
      d: ['c', ['a', 'b', 'c', 'd']],
    });
  });

  it('deletes numeric ids and a whole subtree sent together, and reports changed=false when nothing was stored', async () => {
    const shop = await newShop();
    await apply(shop, 'categories', 'replace', [
      { id: 1, name: 'One' },
      { id: 2, name: 'Two', parent: 1 },
      { id: 3, name: 'Three', parent: 2 },
      { id: 4, name: 'Four' },
    ]);
    const outcome = await apply(shop, 'categories', 'delete', [1, '2', 3]);
    expect(outcome).toEqual({ itemsTotal: 3, applied: 3, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await shapeOf(shop)).toEqual({ '4': [null, ['4']] });

    const nothing = await apply(shop, 'categories', 'delete', ['1']);
    expect(nothing).toEqual({
      itemsTotal: 1,
      applied: 1,
      rejected: 0,
      warningCount: 1,
      errors: [],
      warnings: [{ item_id: '1', position: 0, message: 'id 1 is not stored; nothing to remove' }],
      changed: false,
    });
    expect(await shapeOf(shop)).toEqual({ '4': [null, ['4']] });
  });
});

describe('applyTree: shops are isolated', () => {
  it('never lets one shop see, replace, re-parent or delete the nodes of another', async () => {
    const [one, two] = [await newShop(), await newShop()];
    await apply(one, 'categories', 'replace', [
      { id: 'a', name: 'One A' },
      { id: 'b', name: 'One B', parent: 'a' },
    ]);
    await apply(two, 'categories', 'replace', [
      { id: 'b', name: 'Two B', parent: 'a' },
      { id: 'c', name: 'Two C' },
    ]);
    // Shop two's b does not hang under shop one's a.
    expect(await shapeOf(two)).toEqual({ b: ['a', ['b']], c: [null, ['c']] });

    await apply(one, 'categories', 'replace', [{ id: 'a', name: 'One A' }]);
    expect((await categoriesOf(two)).b).toEqual({ name: 'Two B', parent: 'a', url: null, alias: null, path: ['b'], depth: 0 });

    const deleted = await apply(two, 'categories', 'delete', ['a']);
    expect(deleted.warnings).toEqual([{ item_id: 'a', position: 0, message: 'id a is not stored; nothing to remove' }]);
    expect(await shapeOf(one)).toEqual({ a: [null, ['a']] });

    await apply(one, 'categories', 'upsert', [{ id: 'c', name: 'One C', parent: 'a' }]);
    expect(await shapeOf(two)).toEqual({ b: ['a', ['b']], c: [null, ['c']] });
    expect((await categoriesOf(two)).c.name).toBe('Two C');
    expect(await shapeOf(one)).toEqual({ a: [null, ['a']], c: ['a', ['a', 'c']] });

    await apply(one, 'locations', 'replace', [{ id: 'a', name: 'Location A', parent: null }]);
    expect(await locationsOf(two)).toEqual({});
  });
});

describe('applyTree: locations', () => {
  it('stores type, groups, discount_percent and search_level_up with the tree', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'locations', 'replace', [
      { id: 'ny', name: 'New York', parent: null, type: 'state' },
      { id: 10, name: 'NYC', parent: 'ny', type: 'city', group: 'east' },
      { id: 'store-1', name: 'Store 1', parent: 10, type: 'store', group: ['flagship', 'outlet'], discount_percent: 12.5, search_level_up: 2 },
    ]);
    expect(outcome).toEqual({ itemsTotal: 3, applied: 3, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await locationsOf(shop)).toEqual({
      '10': { name: 'NYC', parent: 'ny', type: 'city', groups: ['east'], discount_percent: null, search_level_up: null, path: ['ny', '10'], depth: 1 },
      ny: { name: 'New York', parent: null, type: 'state', groups: null, discount_percent: null, search_level_up: null, path: ['ny'], depth: 0 },
      'store-1': {
        name: 'Store 1',
        parent: '10',
        type: 'store',
        groups: ['flagship', 'outlet'],
        discount_percent: '12.5',
        search_level_up: 2,
        path: ['ny', '10', 'store-1'],
        depth: 2,
      },
    });
  });

  it('rejects a location without a parent key or with a fractional search_level_up, and applies the rest', async () => {
    const shop = await newShop();
    const outcome = await apply(shop, 'locations', 'replace', [
      { id: 'root', name: 'Root', parent: null },
      { id: 'noparent', name: 'No parent' },
      { id: 'frac', name: 'Fraction', parent: 'root', search_level_up: 1.5 },
      { id: 'grp', name: 'Group', parent: 'root', group: [1, 2] },
      { id: 'ok', name: 'OK', parent: 'root', discount_percent: 5 },
    ]);
    expect(outcome).toEqual({
      itemsTotal: 5,
      applied: 2,
      rejected: 3,
      warningCount: 0,
      errors: [
        { item_id: 'noparent', position: 1, message: 'parent is required (null for a root)' },
        { item_id: 'frac', position: 2, message: 'search_level_up must be an integer' },
        { item_id: 'grp', position: 3, message: 'group must be a string or an array of strings' },
      ],
      warnings: [],
      changed: true,
    });
    expect(await shapeOf(shop, 'locations')).toEqual({ ok: ['root', ['root', 'ok']], root: [null, ['root']] });
    expect((await locationsOf(shop)).ok.discount_percent).toBe('5');
  });

  it('updates fields on PUT, re-hangs an orphan store when its city arrives, and deletes', async () => {
    const shop = await newShop();
    const first = await apply(shop, 'locations', 'upsert', [
      { id: 'store', name: 'Store', parent: 'city', type: 'store', group: 'g1', discount_percent: 3, search_level_up: 1 },
    ]);
    expect(first.warnings).toEqual([{ item_id: 'store', position: 0, message: 'parent city is unknown; kept as a root until it arrives' }]);
    expect(await shapeOf(shop, 'locations')).toEqual({ store: ['city', ['store']] });

    await apply(shop, 'locations', 'upsert', [{ id: 'city', name: 'City', parent: null, type: 'city' }]);
    const stored = await locationsOf(shop);
    expect(stored.store).toEqual({
      name: 'Store',
      parent: 'city',
      type: 'store',
      groups: ['g1'],
      discount_percent: '3',
      search_level_up: 1,
      path: ['city', 'store'],
      depth: 1,
    });

    const updated = await apply(shop, 'locations', 'upsert', [{ id: 'store', name: 'Store', parent: 'city', type: 'outlet', group: ['g2', 'g3'], discount_percent: 7.75 }]);
    expect(updated).toMatchObject({ applied: 1, rejected: 0, warnings: [], changed: true });
    expect((await locationsOf(shop)).store).toEqual({
      name: 'Store',
      parent: 'city',
      type: 'outlet',
      groups: ['g2', 'g3'],
      discount_percent: '7.75',
      search_level_up: null,
      path: ['city', 'store'],
      depth: 1,
    });

    const again = await apply(shop, 'locations', 'upsert', [{ id: 'store', name: 'Store', parent: 'city', type: 'outlet', group: ['g2', 'g3'], discount_percent: 7.75 }]);
    expect(again.changed).toBe(false);

    const deleted = await apply(shop, 'locations', 'delete', ['city']);
    expect(deleted).toEqual({ itemsTotal: 1, applied: 1, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });
    expect(await shapeOf(shop, 'locations')).toEqual({ store: ['city', ['store']] });
  });
});

describe('applyTree: size', () => {
  it('applies 100,000 categories up to 50 levels deep within 60 s', async () => {
    const shop = await newShop();
    const total = 100_000;
    const roots = 2_000;
    // 2,000 chains of 50: node i hangs under node i - 2,000, so depth = floor(i / 2,000).
    const nodes = Array.from({ length: total }, (_, i) => ({
      id: `cat-${i}`,
      name: `Category ${i}`,
      parent: i < roots ? null : `cat-${i - roots}`,
      url: `https://shop.example/c/${i}`,
    }));
    // A fixed shuffle, so children often come before their parents.
    let seed = 42;
    for (let i = nodes.length - 1; i > 0; i--) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = seed % (i + 1);
      [nodes[i], nodes[j]] = [nodes[j], nodes[i]];
    }

    const started = performance.now();
    const outcome = await apply(shop, 'categories', 'replace', nodes);
    const seconds = (performance.now() - started) / 1000;
    console.log(`applyTree: ${total} categories, depth up to 50, applied in ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(60);
    expect(outcome).toEqual({ itemsTotal: total, applied: total, rejected: 0, warningCount: 0, errors: [], warnings: [], changed: true });

    const [stats] = await database.ctx.sql<{ count: number; max_depth: number; roots: number; bad: number }[]>`
      select count(*)::int as count, max(depth)::int as max_depth, count(*) filter (where parent is null)::int as roots,
             count(*) filter (where depth <> cardinality(path) - 1 or path[cardinality(path)] <> id)::int as bad
        from categories where shop_id = ${shop}`;
    expect(stats).toEqual({ count: total, max_depth: 49, roots, bad: 0 });
    const [deepest] = await database.ctx.sql<{ path: string[] }[]>`select path from categories where shop_id = ${shop} and id = 'cat-99999'`;
    expect(deepest.path).toEqual(Array.from({ length: 50 }, (_, level) => `cat-${1_999 + level * roots}`));

    // Re-sent as a PUT: at this size nothing may be rewritten when nothing changed.
    const resentAt = performance.now();
    const resent = await apply(shop, 'categories', 'upsert', nodes);
    console.log(`applyTree: the same ${total} categories re-sent (PUT) in ${((performance.now() - resentAt) / 1000).toFixed(2)} s`);
    expect(resent).toMatchObject({ applied: total, rejected: 0, changed: false });
  });
});

describe('applyTree: edge cases found in review', () => {
  it('rejects only the node that moved to close a cycle, keeping the new node it passes through', async () => {
    const shopId = await newShop();
    await apply(shopId, 'categories', 'replace', [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B', parent: 'a' },
    ]);
    const outcome = await apply(shopId, 'categories', 'upsert', [
      { id: 'a', name: 'A moved', parent: 'c' },
      { id: 'c', name: 'C', parent: 'b' },
    ]);
    expect(outcome.rejected).toBe(1);
    expect(outcome.errors).toEqual([{ item_id: 'a', position: 0, message: 'parent chain forms a cycle: a → c → b → a' }]);
    expect(await shapeOf(shopId)).toEqual({
      a: [null, ['a']],
      b: ['a', ['a', 'b']],
      c: ['b', ['a', 'b', 'c']],
    });
  });

  it('rejects values PostgreSQL cannot store with a reason instead of failing the import', async () => {
    const shopId = await newShop();
    const outcome = await apply(shopId, 'locations', 'replace', [
      { id: 'l1', name: 'Big', parent: null, search_level_up: 3e9 },
      { id: 'l2', name: 'a\u0000b', parent: null },
      { id: 'l3', name: 'Fine', parent: null },
    ]);
    expect(outcome.errors).toEqual([
      { item_id: 'l1', position: 0, message: 'search_level_up is out of range' },
      { item_id: 'l2', position: 1, message: 'name must not contain NUL characters' },
    ]);
    expect(Object.keys(await locationsOf(shopId))).toEqual(['l3']);
  });

  it('rejects a NUL or half a surrogate pair in an id, parent or group per node, and stores text with U+FFFD for the half', async () => {
    const shopId = await newShop();
    const locations = await apply(shopId, 'locations', 'replace', [
      { id: 'msk', name: 'Moscow', parent: null, group: ['a\u0000b'] },
      { id: 'spb', name: 'Caf\ud83d', parent: null, type: 'city\udc00', group: ['north', 'x\ud83d'] },
      { id: 's\ud83d', name: 'Store', parent: 'spb' },
      { id: 's2', name: 'Store', parent: 'spb\u0000' },
      { id: 's3', name: 'Store', parent: '\udc00' },
    ]);
    expect(locations.errors).toEqual([
      { item_id: 'msk', position: 0, message: 'group must not contain NUL characters' },
      // The record keeps what PostgreSQL can store of the id.
      { item_id: 's\ufffd', position: 2, message: 'id must not contain an unpaired UTF-16 surrogate (half of a character)' },
      { item_id: 's2', position: 3, message: 'parent must not contain NUL characters' },
      { item_id: 's3', position: 4, message: 'parent must not contain an unpaired UTF-16 surrogate (half of a character)' },
    ]);
    expect(await locationsOf(shopId)).toEqual({
      spb: { name: 'Caf\ufffd', parent: null, type: 'city\ufffd', groups: ['north', 'x\ufffd'], discount_percent: null, search_level_up: null, path: ['spb'], depth: 0 },
    });
    const categories = await apply(shopId, 'categories', 'replace', [{ id: 'c1', name: 'Shoes\ud83d', url: '/s\udc00', alias: 'a\ud83d' }]);
    expect(categories.errors).toEqual([]);
    expect(await categoriesOf(shopId)).toEqual({ c1: { name: 'Shoes\ufffd', parent: null, url: '/s\ufffd', alias: 'a\ufffd', path: ['c1'], depth: 0 } });
  });

  it('keeps the stored version of a node a POST sends but rejects, with the nodes below it, as a rejected product keeps its availability', async () => {
    const shopId = await newShop();
    await apply(shopId, 'categories', 'replace', [
      { id: '7', name: 'Shoes' },
      { id: '8', name: 'Boots', parent: '7' },
      { id: '9', name: 'Hats' },
      { id: '10', name: 'Caps', parent: '9' },
    ]);
    const outcome = await apply(shopId, 'categories', 'replace', [
      { id: 7, name: '' },
      { id: 8, name: 'Boots', parent: 7 },
      // Moves 9 under 10, its own child: 9 is rejected and stays as stored.
      { id: '9', name: 'Hats', parent: '10' },
      { id: '10', name: 'Caps', parent: '9' },
    ]);
    expect(outcome.errors).toEqual([
      { item_id: '7', position: 0, message: 'name must not be empty' },
      { item_id: '9', position: 2, message: 'parent chain forms a cycle: 9 → 10 → 9' },
    ]);
    expect(outcome.warnings).toEqual([]);
    expect(await shapeOf(shopId)).toEqual({
      '10': ['9', ['9', '10']],
      '7': [null, ['7']],
      '8': ['7', ['7', '8']],
      '9': [null, ['9']],
    });
    expect((await categoriesOf(shopId))['7'].name).toBe('Shoes');
    // A node no longer sent at all is still removed.
    await apply(shopId, 'categories', 'replace', [{ id: '7', name: 'Shoes' }, { id: '8', name: 'Boots', parent: '7' }, { id: 9, name: '' }]);
    expect(Object.keys(await shapeOf(shopId)).sort()).toEqual(['7', '8', '9']);
  });

  it('counts an id a DELETE lists twice once', async () => {
    const shopId = await newShop();
    await apply(shopId, 'categories', 'replace', [{ id: 'a', name: 'A' }]);
    const outcome = await apply(shopId, 'categories', 'delete', ['a', ' a', 'a']);
    expect(outcome.applied).toBe(1);
    expect(await shapeOf(shopId)).toEqual({});
  });

  it('warns once about an unknown parent, at the occurrence that counts, whatever the spaces around the id', async () => {
    const shopId = await newShop();
    const outcome = await apply(shopId, 'categories', 'replace', [
      { id: ' x ', name: 'First', parent: 'zzz' },
      { id: 'x', name: 'Second', parent: 'zzz' },
    ]);
    expect(outcome.warnings).toEqual([
      { item_id: 'x', position: 1, message: 'id x appears more than once; the last one is used' },
      { item_id: 'x', position: 1, message: 'parent zzz is unknown; kept as a root until it arrives' },
    ]);
  });

  it('re-sends a 20,000-node tree by POST quickly even with generic plans', async () => {
    const shopId = await newShop();
    const nodes = Array.from({ length: 20_000 }, (_, i) => ({ id: `n${i}`, name: `N${i}`, parent: i ? `n${Math.floor((i - 1) / 4)}` : null }));
    await apply(shopId, 'categories', 'replace', nodes);
    const started = Date.now();
    await database.ctx.sql.begin(async (tx) => {
      await tx`set local plan_cache_mode = force_generic_plan`;
      return applyTree(tx, shopId, 'categories', 'replace', nodes.slice(1_000));
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(Object.keys(await categoriesOf(shopId))).toHaveLength(19_000);
  });
});
