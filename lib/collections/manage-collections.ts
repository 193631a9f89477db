import { and, asc, eq, sql as raw } from 'drizzle-orm';
import { collections, shops } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
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
  return { id: row.id };
}

export async function updateCollection(ctx: Ctx, shopId: string, id: number, input: unknown): Promise<Collection> {
  const { name, rules } = CollectionInput.parse(input);
  const [row] = await ctx.db
    .update(collections)
    .set({ name, rules, updatedAt: raw`now()` })
    .where(and(eq(collections.shopId, shopId), eq(collections.id, id)))
    .returning(columns);
  if (!row) throw new AppError('NOT_FOUND', 'Collection not found');
  return row as unknown as Collection;
}

export async function deleteCollection(ctx: Ctx, shopId: string, id: number): Promise<void> {
  const removed = await ctx.db.delete(collections).where(and(eq(collections.shopId, shopId), eq(collections.id, id))).returning({ id: collections.id });
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
