import { z } from 'zod';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import { imageSigningKey, linkExpiry, resizedImagePath } from '@/lib/images/image-urls';
import { idOf } from '@/lib/listing/indexing';
import { indexFor, setIndexBudget } from '@/lib/listing/index-store';
import { storedProducts } from '@/lib/listing/stored-products';
import type { AppContext } from '@/lib/runtime/context';
import { listCollections } from './manage-collections';
import { CollectionRules, type RuleGroup } from './schemas';
import { selectCollection } from './select-products';

export type CollectionSummary = { id: number; name: string; rules: CollectionRules; updated_at: string; products: number };
export type PreviewCard = { id: string; name: string; brand: string; price: number; picture: string; group: number };
export type RulesPreview = { total: number; page: number; pages: number; products: PreviewCard[]; warnings: string[] };

const PAGE = 24;

async function shopIndex(ctx: AppContext, shopId: string) {
  setIndexBudget(ctx.settings.listing.memoryBytes);
  return indexFor(ctx.sql, shopId);
}

/** The shop's collections with how many products each shows now (anywhere). */
export async function collectionSummaries(ctx: AppContext, shopId: string): Promise<CollectionSummary[]> {
  const collections = await listCollections(ctx, shopId);
  if (collections.length === 0) return [];
  const index = await shopIndex(ctx, shopId);
  return collections.map((c) => ({ ...c, updated_at: new Date(c.updated_at).toISOString(), products: selectCollection(index, c.rules, null).length }));
}

export const RulesPreviewInput = z.object({
  rules: CollectionRules,
  location: z.string().max(255).nullish(),
  page: z.number().int().min(1).max(1000).default(1),
});

/**
 * What draft rules would show (in `location` when given): the count, a page of 24 and, for each
 * category, brand or param value a group names that matches nothing in stock, a warning.
 */
export async function previewRules(ctx: AppContext, shopId: string, input: unknown): Promise<RulesPreview> {
  const parsed = RulesPreviewInput.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  const { rules, location, page } = parsed.data;
  const index = await shopIndex(ctx, shopId);
  const picks = selectCollection(index, rules, location || null);
  const shown = picks.slice((page - 1) * PAGE, page * PAGE);
  const ids = shown.map((pick) => idOf(index, pick.doc));
  const stored = await storedProducts(ctx.sql, index, ids);
  const products = shown.flatMap((pick, i) => {
    const product = stored.get(ids[i]);
    if (!product) return [];
    const picture = typeof product.data.picture === 'string' ? product.data.picture : '';
    return [{ id: ids[i], name: String(product.data.name ?? ''), brand: String(product.data.brand ?? ''), price: pick.price, picture: picture ? resizedImagePath(imageSigningKey(ctx.sealKey), 160, { shopId, url: picture, expires: linkExpiry(Date.now()) }) : '', group: pick.group }];
  });
  return { total: picks.length, page, pages: Math.max(1, Math.ceil(picks.length / PAGE)), products, warnings: ruleWarnings(index, rules.groups) };
}

function ruleWarnings(index: Awaited<ReturnType<typeof indexFor>>, groups: RuleGroup[]): string[] {
  const warnings: string[] = [];
  const matches = (group: RuleGroup) => selectCollection(index, { groups: [{ ...group, limit: 1 }] }, null).length > 0;
  groups.forEach((group, g) => {
    const where = groups.length > 1 ? `Group ${g + 1}: ` : '';
    for (const id of group.categories ?? []) {
      if (!index.categories.has(id)) warnings.push(`${where}category ${id} does not exist`);
      else if (!matches({ categories: [id] })) warnings.push(`${where}no product in stock is in category ${index.categories.get(id)!.name}`);
    }
    for (const brand of group.brands ?? []) if (!matches({ brands: [brand] })) warnings.push(`${where}no product in stock is of brand ${brand}`);
    for (const [name, values] of Object.entries(group.params ?? {})) {
      for (const value of values) if (!matches({ params: { [name]: [value] } })) warnings.push(`${where}no product in stock has ${name}: ${value}`);
    }
  });
  return warnings;
}
