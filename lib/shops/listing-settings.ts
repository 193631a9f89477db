import { eq } from 'drizzle-orm';
import { shops } from '@/db/schema';
import { AppError } from '@/lib/http/errors';
import type { AppContext } from '@/lib/runtime/context';
import { checkTemplate, DEFAULT_COLLECTION_TEMPLATE, DEFAULT_LISTING_TEMPLATE, SAMPLE_DATA } from '@/lib/storefront/templates';
import { ListingSettingsInput } from './schemas';

export type ListingSettings = {
  listing_extended_default: boolean;
  listing_template: string | null;
  collection_template: string | null;
  default_listing_template: string;
  default_collection_template: string;
};

export async function listingSettings(ctx: Pick<AppContext, 'db'>, shopId: string): Promise<ListingSettings> {
  const [row] = await ctx.db
    .select({ extended: shops.listingExtendedDefault, listing: shops.listingTemplate, collection: shops.collectionTemplate })
    .from(shops)
    .where(eq(shops.id, shopId));
  if (!row) throw new AppError('NOT_FOUND', `Shop ${shopId} not found`);
  return {
    listing_extended_default: row.extended,
    listing_template: row.listing,
    collection_template: row.collection,
    default_listing_template: DEFAULT_LISTING_TEMPLATE,
    default_collection_template: DEFAULT_COLLECTION_TEMPLATE,
  };
}

/**
 * Saves the settings; a template that does not parse, or fails or exceeds a limit on sample data
 * (an include, a huge range), is refused with Liquid's message.
 */
export async function saveListingSettings(ctx: Pick<AppContext, 'db'>, shopId: string, input: unknown): Promise<ListingSettings> {
  const settings = ListingSettingsInput.parse(input);
  for (const name of ['listing_template', 'collection_template'] as const) {
    const source = settings[name];
    if (source === null || source.trim() === '') continue;
    try {
      checkTemplate(source, SAMPLE_DATA[name === 'listing_template' ? 'listing' : 'collection']);
    } catch (error) {
      throw new AppError('VALIDATION', `${name} is not a valid Liquid template: ${(error as Error).message}`);
    }
  }
  const blankIsDefault = (source: string | null) => (source === null || source.trim() === '' ? null : source);
  await ctx.db
    .update(shops)
    .set({
      listingExtendedDefault: settings.listing_extended_default,
      listingTemplate: blankIsDefault(settings.listing_template),
      collectionTemplate: blankIsDefault(settings.collection_template),
    })
    .where(eq(shops.id, shopId));
  return listingSettings(ctx, shopId);
}
