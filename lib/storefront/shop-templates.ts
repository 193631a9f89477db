import { z } from 'zod';
import { AppError } from '@/lib/http/errors';
import { describeZodError } from '@/lib/http/zod-message';
import type { AppContext } from '@/lib/runtime/context';
import { checkTemplate, DEFAULT_COLLECTION_TEMPLATE, DEFAULT_LISTING_TEMPLATE, renderTemplate, SAMPLE_DATA } from '@/lib/storefront/templates';

export type TemplateKind = 'listing' | 'collection';
export type TemplateVersion = { id: number; source: string | null; saved_by: string | null; saved_at: string };
export type ShopTemplate = { kind: TemplateKind; source: string | null; default_source: string; versions: TemplateVersion[] };

const DEFAULTS: Record<TemplateKind, string> = { listing: DEFAULT_LISTING_TEMPLATE, collection: DEFAULT_COLLECTION_TEMPLATE };
const COLUMNS = { listing: 'listing_template', collection: 'collection_template' } as const;
const VERSIONS_SHOWN = 50;

const Kind = z.enum(['listing', 'collection'], { error: 'kind must be listing or collection' });
const Source = z
  .string({ error: 'source must be a string or null' })
  .max(100_000, 'source is too long (at most 100,000 characters)')
  .refine((source) => !source.includes('\0'), 'source must not contain NUL characters')
  .nullable();
export const TemplateInput = z.object({ kind: Kind, source: Source });
export const RestoreInput = z.object({ kind: Kind, version: z.number({ error: 'version must be a version id' }).int().positive() });
export const PreviewInput = z.object({ kind: Kind, source: Source, products: z.array(z.record(z.string(), z.unknown())).max(1000).default([]), products_total: z.number().int().min(0).default(0) });

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
  return parsed.data;
}

const blankIsDefault = (source: string | null) => (source === null || source.trim() === '' ? null : source);

function checked(kind: TemplateKind, source: string | null): string | null {
  const kept = blankIsDefault(source);
  if (kept === null) return null;
  try {
    checkTemplate(kept, SAMPLE_DATA[kind]);
  } catch (error) {
    throw new AppError('VALIDATION', `The ${kind} template is not valid Liquid: ${(error as Error).message}`);
  }
  return kept;
}

/** A shop's two templates: the current source (null: built-in), the built-in one and the versions, newest first. */
export async function shopTemplates(ctx: Pick<AppContext, 'sql'>, shopId: string): Promise<Record<TemplateKind, ShopTemplate>> {
  const [shop] = await ctx.sql<{ listing_template: string | null; collection_template: string | null }[]>`
    select listing_template, collection_template from shops where id = ${shopId}`;
  if (!shop) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  const versions = await ctx.sql<(TemplateVersion & { kind: TemplateKind })[]>`
    select * from (
      select id::int as id, kind, source, saved_by, saved_at, row_number() over (partition by kind order by id desc) as n
        from template_versions where shop_id = ${shopId}) v
     where n <= ${VERSIONS_SHOWN} order by id desc`;
  const of = (kind: TemplateKind): ShopTemplate => ({
    kind,
    source: shop[COLUMNS[kind]],
    default_source: DEFAULTS[kind],
    versions: versions.filter((v) => v.kind === kind).map(({ id, source, saved_by, saved_at }) => ({ id, source, saved_by, saved_at: new Date(saved_at).toISOString() })),
  });
  return { listing: of('listing'), collection: of('collection') };
}

/**
 * Saves a template (blank or null: back to the built-in one) once it renders on sample data, and
 * keeps it as a version. The shop's first save also keeps what it replaced, so it can be restored.
 */
export async function saveTemplate(ctx: Pick<AppContext, 'sql'>, shopId: string, savedBy: string, input: unknown): Promise<Record<TemplateKind, ShopTemplate>> {
  const { kind, source } = parse(TemplateInput, input);
  await store(ctx, shopId, savedBy, kind, checked(kind, source));
  return shopTemplates(ctx, shopId);
}

/** Makes an old version current again, as a new version. */
export async function restoreTemplate(ctx: Pick<AppContext, 'sql'>, shopId: string, savedBy: string, input: unknown): Promise<Record<TemplateKind, ShopTemplate>> {
  const { kind, version } = parse(RestoreInput, input);
  const [old] = await ctx.sql<{ source: string | null }[]>`select source from template_versions where shop_id = ${shopId} and kind = ${kind} and id = ${version}`;
  if (!old) throw new AppError('NOT_FOUND', `Version ${version} of the ${kind} template not found`);
  await store(ctx, shopId, savedBy, kind, old.source);
  return shopTemplates(ctx, shopId);
}

async function store(ctx: Pick<AppContext, 'sql'>, shopId: string, savedBy: string, kind: TemplateKind, source: string | null) {
  const column = ctx.sql(COLUMNS[kind]);
  await ctx.sql.begin(async (tx) => {
    const [shop] = await tx<{ current: string | null }[]>`select ${column} as current from shops where id = ${shopId} for update`;
    if (!shop) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
    const [{ count }] = await tx<{ count: number }[]>`select count(*)::int as count from template_versions where shop_id = ${shopId} and kind = ${kind}`;
    if (count === 0 && shop.current !== null) await tx`insert into template_versions (shop_id, kind, source, saved_by) values (${shopId}, ${kind}, ${shop.current}, null)`;
    await tx`update shops set ${column} = ${source} where id = ${shopId}`;
    await tx`insert into template_versions (shop_id, kind, source, saved_by) values (${shopId}, ${kind}, ${source}, ${savedBy})`;
  });
}

/**
 * A draft rendered on the products a preview shows (the admin's current listing page), under the
 * same limits as a storefront's read; a draft that does not render says why.
 */
export function previewTemplate(shopName: string, input: unknown): { html: string } {
  const { kind, source, products, products_total } = parse(PreviewInput, input);
  const draft = blankIsDefault(source) ?? DEFAULTS[kind];
  const data =
    kind === 'listing' ? { products, products_total, shop: { name: shopName } } : { collection: { id: 0, name: 'Preview collection' }, products, shop: { name: shopName } };
  try {
    checkTemplate(draft, SAMPLE_DATA[kind]);
    return { html: renderTemplate(draft, data) };
  } catch (error) {
    throw new AppError('VALIDATION', `The ${kind} template is not valid Liquid: ${(error as Error).message}`);
  }
}
