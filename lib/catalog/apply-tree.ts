import type { TransactionSql } from 'postgres';
import { describeZodError } from '@/lib/http/zod-message';
import { ImportOutcome, itemIdOf } from '@/lib/catalog/import-outcome';
import { CategoryInput, LocationInput, NodeId } from './schemas';
import { resolveTree, type TreeLink } from './tree';

export type TreeKind = 'categories' | 'locations';
export type TreeMode = 'replace' | 'upsert' | 'delete';

type StoredLink = TreeLink & { path: string[] };
// `position`: where the occurrence that counts (the last one) stands in the request.
type Node = TreeLink & { row: Record<string, unknown>; position: number };

const schemas = { categories: CategoryInput, locations: LocationInput };

// Columns written from a request node, beyond shop_id/id/parent/path/depth.
const dataColumns = {
  categories: { name: 'text', url: 'text', alias: 'text' },
  locations: { name: 'text', type: 'text', groups: 'text[]', discount_percent: 'numeric', search_level_up: 'int' },
} as const;

function rowOf(kind: TreeKind, node: CategoryInput | LocationInput): Record<string, unknown> {
  if (kind === 'categories') {
    const c = node as CategoryInput;
    return { name: c.name, url: c.url ?? null, alias: c.alias ?? null };
  }
  const l = node as LocationInput;
  return {
    name: l.name,
    type: l.type ?? null,
    groups: l.group,
    discount_percent: l.discount_percent ?? null,
    search_level_up: l.search_level_up ?? null,
  };
}

async function loadLinks(tx: TransactionSql, kind: TreeKind, shopId: string): Promise<Map<string, StoredLink>> {
  const rows = await tx<StoredLink[]>`select id, parent, path from ${tx(kind)} where shop_id = ${shopId}`;
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The request's valid nodes by id, and the ids of the rejected ones: a rejected node is listed
 * too, so a replace keeps its stored version instead of removing it (as a rejected product keeps
 * its availability).
 */
function parseNodes(kind: TreeKind, list: unknown[], outcome: ImportOutcome): { nodes: Map<string, Node>; rejectedIds: Set<string> } {
  const nodes = new Map<string, Node>();
  const rejectedIds = new Set<string>();
  list.forEach((raw, position) => {
    const parsed = schemas[kind].safeParse(raw);
    if (!parsed.success) {
      const id = itemIdOf(raw);
      if (id !== undefined) rejectedIds.add(id.trim());
      outcome.reject({ item_id: id, position, message: describeZodError(parsed.error) });
      return;
    }
    const node = parsed.data;
    if (nodes.has(node.id)) {
      outcome.warn({ item_id: node.id, position, message: `id ${node.id} appears more than once; the last one is used` });
    }
    nodes.set(node.id, { id: node.id, parent: node.parent, row: rowOf(kind, node), position });
  });
  return { nodes, rejectedIds };
}

function samePath(a: string[] | undefined, b: string[]): boolean {
  return !!a && a.length === b.length && a.every((id, i) => id === b[i]);
}

/**
 * Applies a category or location import inside the caller's transaction: validates each node,
 * rejects the ones on a parent cycle, keeps nodes with an unknown parent as roots (with a
 * warning) and rewrites the stored path of every node whose ancestry changed.
 */
export async function applyTree(tx: TransactionSql, shopId: string, kind: TreeKind, mode: TreeMode, list: unknown[]): Promise<ImportOutcome> {
  const outcome = new ImportOutcome();
  outcome.itemsTotal = list.length;
  const stored = await loadLinks(tx, kind, shopId);

  if (mode === 'delete') {
    const ids = new Set<string>();
    list.forEach((raw, position) => {
      const parsed = NodeId.safeParse(raw);
      if (!parsed.success) return outcome.reject({ position, message: describeZodError(parsed.error) });
      if (!stored.has(parsed.data)) outcome.warn({ item_id: parsed.data, position, message: `id ${parsed.data} is not stored; nothing to remove` });
      ids.add(parsed.data);
    });
    // An id listed twice is one id, as for products.
    outcome.applied = ids.size;
    const remaining = new Map([...stored].filter(([id]) => !ids.has(id)));
    const { paths } = resolveTree(remaining);
    const removed = [...ids].filter((id) => stored.has(id));
    if (removed.length) await tx`delete from ${tx(kind)} where shop_id = ${shopId} and id = any(${removed})`;
    await writePaths(tx, kind, shopId, remaining, paths);
    outcome.changed = removed.length > 0;
    return outcome;
  }

  const { nodes: incoming, rejectedIds } = parseNodes(kind, list, outcome);
  const merged = new Map<string, TreeLink>(mode === 'upsert' ? stored : []);
  for (const id of rejectedIds) {
    const kept = stored.get(id);
    if (kept) merged.set(id, kept);
  }
  for (const [id, node] of incoming) merged.set(id, node);

  // Reject request nodes that close a cycle; the stored version of such a node stays.
  // Of a cycle's request nodes, those that move (a parent other than the stored one) are the ones
  // that closed it: they go first, and the others stay if that breaks the cycle.
  let resolved = resolveTree(merged);
  while (resolved.cycles.size > 0) {
    const members = [...resolved.cycles].filter(([id]) => incoming.has(id));
    if (members.length === 0) break;
    const movers = members.filter(([id]) => stored.has(id) && stored.get(id)!.parent !== incoming.get(id)!.parent);
    const rejected = (movers.length ? movers : members).sort(([a], [b]) => incoming.get(a)!.position - incoming.get(b)!.position);
    for (const [id, loop] of rejected) {
      outcome.reject({ item_id: id, position: incoming.get(id)!.position, message: `parent chain forms a cycle: ${loop.join(' → ')}` });
      incoming.delete(id);
      const previous = stored.get(id);
      if (previous) merged.set(id, previous);
      else merged.delete(id);
    }
    resolved = resolveTree(merged);
  }

  for (const node of incoming.values()) {
    if (node.parent !== null && !merged.has(node.parent)) {
      outcome.warn({ item_id: node.id, position: node.position, message: `parent ${node.parent} is unknown; kept as a root until it arrives` });
    }
  }

  if (mode === 'replace') {
    // Computed here from the loaded ids: a "not (id = any(all kept ids))" plan can degrade to
    // comparing every row with every id once PostgreSQL caches a generic plan.
    const gone = [...stored.keys()].filter((id) => !merged.has(id));
    if (gone.length) {
      await tx`delete from ${tx(kind)} where shop_id = ${shopId} and id = any(${gone})`;
      outcome.changed = true;
    }
  }
  outcome.applied = incoming.size;
  if (await upsertNodes(tx, kind, shopId, incoming, resolved.paths)) outcome.changed = true;
  const others = new Map([...merged].filter(([id]) => !incoming.has(id)));
  if (await writePaths(tx, kind, shopId, others, resolved.paths, stored)) outcome.changed = true;
  return outcome;
}

async function upsertNodes(tx: TransactionSql, kind: TreeKind, shopId: string, nodes: Map<string, Node>, paths: Map<string, string[]>): Promise<boolean> {
  if (nodes.size === 0) return false;
  const columns = dataColumns[kind];
  const names = Object.keys(columns);
  const records = [...nodes.values()].map((node) => {
    const path = paths.get(node.id)!;
    return { id: node.id, parent: node.parent, path, depth: path.length - 1, ...node.row };
  });
  const definition = ['id text', 'parent text', 'path text[]', 'depth int', ...names.map((name) => `${name} ${columns[name as keyof typeof columns]}`)].join(', ');
  const all = ['id', 'parent', 'path', 'depth', ...names];
  const updates = all.filter((c) => c !== 'id');
  const result = await tx.unsafe(
    `insert into ${kind} (shop_id, ${all.join(', ')})
     select $1, ${all.join(', ')} from json_to_recordset($2::json) as r(${definition})
     on conflict (shop_id, id) do update set ${updates.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = now()
     where (${updates.map((c) => `${kind}.${c}`).join(', ')}) is distinct from (${updates.map((c) => `excluded.${c}`).join(', ')})`,
    [shopId, JSON.stringify(records)],
  );
  return result.count > 0;
}

/** Rewrites path and depth of nodes whose ancestry changed without being in the request. */
async function writePaths(
  tx: TransactionSql,
  kind: TreeKind,
  shopId: string,
  nodes: Map<string, TreeLink>,
  paths: Map<string, string[]>,
  stored?: Map<string, StoredLink>,
): Promise<boolean> {
  const changed: { id: string; path: string[]; depth: number }[] = [];
  for (const [id, node] of nodes) {
    const path = paths.get(id);
    if (!path) continue;
    const before = stored?.get(id)?.path ?? (node as StoredLink).path;
    if (!samePath(before, path)) changed.push({ id, path, depth: path.length - 1 });
  }
  if (changed.length === 0) return false;
  await tx.unsafe(
    `update ${kind} t set path = r.path, depth = r.depth, updated_at = now()
       from json_to_recordset($2::json) as r(id text, path text[], depth int)
      where t.shop_id = $1 and t.id = r.id`,
    [shopId, JSON.stringify(changed)],
  );
  return true;
}
