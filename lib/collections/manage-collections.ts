import { and, asc, eq, sql as raw } from 'drizzle-orm';
import { collections, shops } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import { processWide } from '@/lib/process-wide';
import type { AppContext } from '@/lib/runtime/context';
import { CollectionInput, type CollectionRules } from './schemas';

type Ctx = Pick<AppContext, 'db'>;

export type Collection = { id: number; name: string; rules: CollectionRules; updated_at: string | Date };

const columns = { id: collections.id, name: collections.name, rules: collections.rules, updated_at: collections.updatedAt };

export async function createCollection(ctx: Ctx, shopId: string, input: unknown): Promise<{ id: number }> {
  const { name, rules } = CollectionInput.parse(input);
  const [shop] = await ctx.db.select({ id: shops.id }).from(shops).where(eq(shops.id, shopId));
  if (!shop) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  const [row] = await ctx.db.insert(collections).values({ shopId, name, rules }).returning({ id: collections.id });
  forget(shopId, row.id);
  return { id: row.id };
}

export async function updateCollection(ctx: Ctx, shopId: string, id: number, input: unknown): Promise<Collection> {
  const { name, rules } = CollectionInput.parse(input);
  const [row] = await ctx.db
    .update(collections)
    .set({ name, rules, updatedAt: raw`now()` })
    .where(and(eq(collections.shopId, shopId), eq(collections.id, id)))
    .returning(columns);
  forget(shopId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Collection not found');
  return row as unknown as Collection;
}

export async function deleteCollection(ctx: Ctx, shopId: string, id: number): Promise<void> {
  const removed = await ctx.db.delete(collections).where(and(eq(collections.shopId, shopId), eq(collections.id, id))).returning({ id: collections.id });
  forget(shopId, id);
  if (removed.length === 0) throw new AppError('NOT_FOUND', 'Collection not found');
}

export async function listCollections(ctx: Ctx, shopId: string): Promise<Collection[]> {
  return (await ctx.db.select(columns).from(collections).where(eq(collections.shopId, shopId)).orderBy(asc(collections.id))) as unknown as Collection[];
}

export async function getCollection(ctx: Ctx, shopId: string, id: number): Promise<Collection> {
  const [row] = await ctx.db
    .select(columns)
    .from(collections)
    .where(and(eq(collections.shopId, shopId), eq(collections.id, id)));
  if (!row) throw new AppError('NOT_FOUND', 'Collection not found');
  return row as unknown as Collection;
}

// What storefront reads (GET /collection/:id) read of a collection, for STOREFRONT_TTL_MS: each
// read asked the database, ~30 times a second under the soak's load. A change made through this
// process shows at once; one made through another shows within the TTL (as a shop's settings do:
// storefront-shop.ts). At most KEPT, the oldest dropped first. One set per process: the admin
// routes that change collections are other bundles than the storefront's.
const STOREFRONT_TTL_MS = 2_000;
const KEPT = 10_000;
type Kept = { read: Promise<Collection | null>; until: number };
const KEPT_COLLECTIONS = processWide<Map<string, Kept>>('storefront-collections');
const kept = () => KEPT_COLLECTIONS.getOrMake(() => new Map());

function forget(shopId: string, id: number): void {
  kept().delete(`${shopId}:${id}`);
}

/** The collection as a storefront read sees it, or 404: read at most once per STOREFRONT_TTL_MS. */
export async function storefrontCollection(ctx: Ctx, shopId: string, id: number): Promise<Collection> {
  const all = kept();
  const key = `${shopId}:${id}`;
  let entry = all.get(key);
  if (!entry || entry.until < Date.now()) {
    all.delete(key);
    // Concurrent reads share one query; a failed one is not kept.
    const read = getCollection(ctx, shopId, id).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      all.delete(key);
      throw error;
    });
    entry = { read, until: Date.now() + STOREFRONT_TTL_MS };
    all.set(key, entry);
    if (all.size > KEPT) all.delete(all.keys().next().value!);
  }
  const collection = await entry.read;
  if (!collection) throw new AppError('NOT_FOUND', 'Collection not found');
  return collection;
}
