import { z } from 'zod';
import { ItemInput } from '@/lib/catalog/product-schema';
import { CategoryInput, LocationInput, NodeId } from '@/lib/catalog/schemas';
import { operations } from '@/lib/imports/operations';
import { ProductMethod, WebhookUrl } from '@/lib/imports/schemas';
import { SORT_KEYS } from '@/lib/listing/query';
import { EmailEvent, FlaggedEmail } from '@/lib/subscriptions/schemas';

// What /openapi.json describes. Request bodies are built from the very schemas the routes and the
// import applier validate with (imported above); answers are written here on purpose, and the
// OpenAPI test checks real answers against them.

const credentials = { shop_id: z.string().describe('The shop key'), shop_secret: z.string().describe('The secret key') };
const webhook = WebhookUrl.nullish().describe('Called with the outcome when the import has been processed (spec 6.1)');

export const CategoriesImport = z.object({ ...credentials, categories: z.array(CategoryInput), webhook });
export const CategoryIdsImport = z.object({ ...credentials, categories: z.array(NodeId), webhook });
export const LocationsImport = z.object({ ...credentials, locations: z.array(LocationInput), webhook });
export const LocationIdsImport = z.object({ ...credentials, locations: z.array(NodeId), webhook });
export const ProductsImport = z.object({ ...credentials, items: z.array(ItemInput), webhook });
export const ProductIdsImport = z.object({ ...credentials, items: z.array(NodeId).describe('Ids of products'), webhook });
export const ProductsPost = z.object({
  ...credentials,
  method: ProductMethod.optional().describe('Acts as that method; without it, loads the items and marks every other product not in stock'),
  items: z.array(z.union([ItemInput, NodeId])),
  webhook,
});
export const ImportStatusRequest = z.object({ ...credentials, import_id: z.union([z.number().int().positive(), z.string().regex(/^\s*\d+\s*$/)]) });
export const EmailCallback = z.object({ ...credentials, email: FlaggedEmail, event: EmailEvent });

export const ErrorBody = z.object({ status: z.literal('error'), payload: z.object({ message: z.string() }) });

const Problem = z.looseObject({ item_id: z.string().optional(), position: z.number().int().optional(), message: z.string() });
const time = z.string().describe('ISO 8601 date-time');
export const ImportRecord = z.object({
  id: z.number().int(),
  shop_id: z.string(),
  operation: z.enum(Object.keys(operations) as [keyof typeof operations, ...(keyof typeof operations)[]]),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  received_at: time,
  started_at: time.nullable(),
  finished_at: time.nullable(),
  items_total: z.number().int().nullable(),
  items_applied: z.number().int().nullable(),
  items_rejected: z.number().int().nullable(),
  errors: z.array(Problem),
  warnings: z.array(Problem),
  message: z.string().nullable(),
});

const ProductCard = z.looseObject({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  url: z.string(),
  url_handle: z.string(),
  picture: z.string(),
  image_url: z.string(),
  image_url_resized: z.record(z.string(), z.string()).describe('Links to the service resizer by square size, and `original`'),
  category_ids: z.array(z.string()),
  price: z.number().int(),
  price_full: z.number(),
  price_formatted: z.string(),
  price_full_formatted: z.string(),
  currency: z.string(),
  sales_rate: z.number(),
  relative_sales_rate: z.number(),
});

const ListingCategory = z.looseObject({ id: z.string(), name: z.string(), parent: z.string().nullish(), count: z.number().int() });
const Filter = z.looseObject({
  count: z.number().int(),
  priority: z.number().int().nullish(),
  values: z.record(z.string(), z.number().int()),
  ranges: z.object({ min: z.number(), max: z.number() }).optional(),
});

const listingFields = {
  html: z.string(),
  requests_count: z.number().int(),
  products_total: z.number().int(),
  price_range: z.object({ min: z.number().int(), max: z.number().int() }),
  price_ranges: z.array(z.object({ from: z.number().int().optional(), to: z.number().int().optional(), count: z.number().int() })),
  price_median: z.number().int(),
  products: z.union([z.array(z.string()), z.array(ProductCard)]).describe('Product ids, or full products with `extended=true`'),
  categories: z.array(ListingCategory),
  locations: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
  filters: z.record(z.string(), Filter),
  industrial_filters: z.looseObject({
    fashion_sizes: z.array(z.object({ size: z.string(), count: z.number().int() })).optional(),
    colors: z.array(z.object({ color: z.string(), count: z.number().int() })).optional(),
  }),
  brands: z.array(z.looseObject({ name: z.string(), count: z.number().int() })),
  debug: z.unknown().optional(),
};
export const Listing = z.object(listingFields);
export const ListingV2 = z.object({
  status: z.literal('success'),
  payload: z.object({ listing: z.object({ collections: z.array(z.unknown()), ...listingFields }) }),
});
export const ListingAnswer = z.union([Listing, ListingV2]);

const CollectionProduct = ProductCard.extend({ group_id: z.string().describe('Index of the rule group the product matched') });
export const Collection = z.object({ products: z.array(CollectionProduct) });
export const CollectionV2 = z.object({
  status: z.literal('success'),
  payload: z.object({ product_collection: z.looseObject({ id: z.number().int(), name: z.string(), html: z.string(), products: z.array(CollectionProduct) }) }),
});
export const CollectionAnswer = z.union([Collection, CollectionV2]);

export const InitAnswer = z.object({ did: z.string(), seance: z.string(), sid: z.string() });
export const Success = z.object({ status: z.literal('success') });
export const Health = z.object({ status: z.literal('ok') });
export const Ready = z.object({ status: z.literal('ready'), checks: z.object({ database: z.string(), migrations: z.string(), workers: z.string() }) });

export const SortBy = z.enum([...SORT_KEYS, 'popular']);
