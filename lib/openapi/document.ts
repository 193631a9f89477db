import { z } from 'zod';
import { ItemInput } from '@/lib/catalog/product-schema';
import { CategoryInput, LocationInput } from '@/lib/catalog/schemas';
import { IMAGE_SIZES } from '@/lib/images/image-urls';
import { SANE_REQUEST_ID } from '@/lib/runtime/request-context';
import { examples } from './examples';
import * as schemas from './schemas';

// GET /openapi.json: OpenAPI 3.1 of every public endpoint (CONTRACT §9). Schemas are zod's
// (z.toJSONSchema, JSON Schema 2020-12, the dialect of OpenAPI 3.1), each once under
// components/schemas; requests as the routes take them (io: input), answers as they are sent.

type Json = Record<string, unknown>;

const components = {
  input: {
    Category: CategoryInput,
    Location: LocationInput,
    Item: ItemInput,
    CategoriesImport: schemas.CategoriesImport,
    CategoryIdsImport: schemas.CategoryIdsImport,
    LocationsImport: schemas.LocationsImport,
    LocationIdsImport: schemas.LocationIdsImport,
    ProductsImport: schemas.ProductsImport,
    ProductIdsImport: schemas.ProductIdsImport,
    ProductsPost: schemas.ProductsPost,
    ImportStatusRequest: schemas.ImportStatusRequest,
    EmailCallback: schemas.EmailCallback,
  },
  output: {
    Error: schemas.ErrorBody,
    ImportRecord: schemas.ImportRecord,
    Listing: schemas.ListingAnswer,
    Collection: schemas.CollectionAnswer,
    Init: schemas.InitAnswer,
    Success: schemas.Success,
    Health: schemas.Health,
    Ready: schemas.Ready,
  },
};

/** Each schema as JSON Schema under its component name; schemas shared between them become $refs. */
function componentSchemas(): Record<string, Json> {
  const result: Record<string, Json> = {};
  for (const io of ['input', 'output'] as const) {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(components[io])) registry.add(schema, { id });
    const { schemas: converted } = z.toJSONSchema(registry, { io, target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
    for (const [id, schema] of Object.entries(converted)) {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
      result[id] = rest;
    }
  }
  return result;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: string, example?: unknown) => ({ 'application/json': { schema: ref(schema), ...(example === undefined ? {} : { example }) } });
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } } };

// The error answers by status: the spec's error body (section 7), with the contract's statuses.
const errorText: Record<number, string> = {
  400: 'Invalid request: credentials that match no shop, a malformed field or parameter (the message names it)',
  404: 'Not found',
  405: 'The path does not take this method (`Allow` lists those it takes)',
  413: 'The body is larger than the limit (35 MiB by default, `BODY_LIMIT_BYTES`); read no further',
  415: 'Content-Type is not application/json',
  429: 'Over the rate limit: 40 authenticated writes a minute per shop, or the per-address limits of reads and failed authentications',
  502: 'The image original could not be fetched or read',
  503: 'Busy (the listing reads in flight are at their limit); nothing was done',
};

function errors(...statuses: number[]): Json {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: errorText[status],
        ...(status === 429 || status === 503 ? { headers: retryAfter } : {}),
        content: json('Error', examples.errors[status as keyof typeof examples.errors] ?? { status: 'error', payload: { message: errorText[status] } }),
      },
    ]),
  );
}

const accepted = {
  '204': {
    description: 'Accepted and durably stored; processed in the background (spec 3). No body.',
    headers: { 'X-Import-Id': { description: 'The id to ask POST /import/status about', schema: { type: 'integer' } } },
  },
};
const importErrors = errors(400, 413, 415, 429);

function importOperation(summary: string, schema: string, example: unknown, tag: string): Json {
  return { tags: [tag], summary, requestBody: { required: true, content: json(schema, example) }, responses: { ...accepted, ...importErrors } };
}

function query(name: string, schema: Json, description: string, required = false): Json {
  return { name, in: 'query', required, description, schema };
}

const text = { type: 'string' };
const integer = { type: 'integer', minimum: 0 };
const flag = { type: 'boolean' };
const storefrontIdentity = [
  query('shop_id', text, 'The shop key (API key)', true),
  query('did', text, 'Device id'),
  query('sid', text, 'Session id (`seance` is accepted too)'),
  query('email', text, 'Customer email; may replace did and sid for server-to-server integration'),
];
const format = query('format', { type: 'string', enum: ['v2'] }, 'v2: the announced envelope `{status, payload}` (also header `Accept-Version: 2`)');

const listingParameters = [
  ...storefrontIdentity,
  query('categories', text, 'Comma-separated category ids (with their descendants)'),
  query('locations', text, 'Comma-separated locations in which products are in stock'),
  query('brands', text, 'Comma-separated brands to keep'),
  query('excluded_brands', text, 'Comma-separated brands to leave out'),
  query('merchants', text, 'Comma-separated merchants to keep'),
  query('excluded_merchants', text, 'Comma-separated merchants to leave out'),
  query('sort_by', { type: 'string', enum: schemas.SortBy.options }, 'Order; `popular` is obsolete and ignored; default sales_rate, or relevance with a search_query'),
  query('sort_dir', { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, 'Direction'),
  query('price_min', { type: 'number' }, 'Lowest price'),
  query('price_max', { type: 'number' }, 'Highest price'),
  query('colors', text, 'Comma-separated colors'),
  query('fashion_sizes', text, 'Comma-separated clothing sizes'),
  query('exclude', text, 'Comma-separated product ids to leave out'),
  query('search_query', text, 'Words to search for (beyond the spec)'),
  query('search_scope', text, 'Comma-separated: general, books, or field names'),
  query('discount', flag, 'true: only discounted products; false: only products without discount'),
  query('available', { ...flag, default: true }, 'false: list products not in stock too'),
  query('debug', flag, 'Why each product was returned'),
  query('collapse', { ...flag, default: true }, 'One product per group_id'),
  query('extended', flag, 'Full products instead of their ids'),
  query('filters_search_by', { type: 'string', enum: ['popularity', 'name', 'quantity'], default: 'popularity' }, 'Order of filters'),
  query('brand_limit', { ...integer, default: 1000 }, 'Most brands listed'),
  query('category_limit', { ...integer, default: 1000 }, 'Most categories listed'),
  query('limit', { ...integer, default: 24, maximum: 1000 }, 'Products per page (values above 1000 read as 1000)'),
  query('page', { type: 'integer', minimum: 1, default: 1 }, 'Page, from 1'),
  query('filters', text, 'JSON object: param name → array of values, e.g. {"color":["red"]}'),
  format,
];

const listingAnswers = { '200': { description: 'The listing (spec 2.10)', content: json('Listing', examples.listing) }, ...errors(400, 429, 503) };

const requestIdParameter = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description: 'An id of the client\'s for this request, echoed in the answer\'s X-Request-Id and logged with it',
  schema: { type: 'string', pattern: SANE_REQUEST_ID.source },
};
const requestIdHeader = {
  description: 'The request\'s id in the service\'s log: the client\'s X-Request-Id when it sent a sane one, else a new UUID',
  schema: { type: 'string' },
};

/** Every operation takes X-Request-Id and every answer carries it (bin/start.ts sets it on all). */
function withRequestIds(paths: Record<string, Record<string, Json>>): Record<string, Record<string, Json>> {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      operation.parameters = [...((operation.parameters as Json[] | undefined) ?? []), { $ref: '#/components/parameters/RequestId' }];
      for (const response of Object.values(operation.responses as Record<string, Json>)) {
        response.headers = { ...((response.headers as Json | undefined) ?? {}), 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
      }
    }
  }
  return paths;
}

export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vitrine catalog API',
      version: '1',
      description:
        'Bulk import of categories, locations and products; product listing and collections; email flags. ' +
        'Import endpoints authenticate with shop_id and shop_secret in the JSON body; storefront reads take shop_id alone. ' +
        'Every error answer is `{"status":"error","payload":{"message":"..."}}`. Limits: 35 MiB a request (413), ' +
        'Content-Type application/json on bodies (415), 40 authenticated writes a minute per shop (429 with Retry-After). ' +
        'Every answer carries X-Request-Id, the id its log lines carry (a 500\'s body names it too): send your own to find them.',
    },
    tags: [
      { name: 'Imports', description: 'Asynchronous: 204 once stored, applied in arrival order per shop' },
      { name: 'Storefront', description: 'Listing, collections and session ids' },
      { name: 'Subscriptions', description: 'Email flags' },
      { name: 'Images', description: 'Resized product images' },
      { name: 'Operations', description: 'Health and readiness' },
    ],
    paths: withRequestIds({
      '/import/categories': {
        post: importOperation('Replace the shop\'s category tree', 'CategoriesImport', examples.categories, 'Imports'),
        put: importOperation('Add or update the listed categories', 'CategoriesImport', examples.categories, 'Imports'),
        delete: importOperation('Remove the listed category ids', 'CategoryIdsImport', examples.categoryIds, 'Imports'),
      },
      '/import/locations': {
        post: importOperation('Replace the shop\'s location tree', 'LocationsImport', examples.locations, 'Imports'),
        put: importOperation('Add or update the listed locations', 'LocationsImport', examples.locations, 'Imports'),
        delete: importOperation('Remove the listed location ids', 'LocationIdsImport', examples.locationIds, 'Imports'),
      },
      '/import/products': {
        put: importOperation('Add or update products (fields left out are cleared)', 'ProductsImport', examples.products, 'Imports'),
        patch: importOperation('The listed products are in stock, every other one is not', 'ProductIdsImport', examples.productIds, 'Imports'),
        delete: importOperation('Mark the listed products not in stock', 'ProductIdsImport', examples.productIds, 'Imports'),
        post: importOperation('As `method` says, or load the items and mark every other product not in stock', 'ProductsPost', examples.products, 'Imports'),
      },
      '/import/status': {
        post: {
          tags: ['Imports'],
          summary: 'The record of one import',
          requestBody: { required: true, content: json('ImportStatusRequest', examples.importStatusRequest) },
          responses: { '200': { description: 'The import record', content: json('ImportRecord', examples.importRecord) }, ...errors(400, 404, 413, 415, 429) },
        },
      },
      '/products': {
        get: { tags: ['Storefront'], summary: 'Product listing with filters, facets, sorting and paging (spec 4.7)', parameters: listingParameters, responses: listingAnswers },
        post: {
          tags: ['Storefront'],
          summary: 'The listing, its parameters as fields of a JSON body',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', additionalProperties: true }, example: examples.listingBody } } },
          responses: { ...listingAnswers, ...errors(413, 415) },
        },
      },
      '/init': {
        get: {
          tags: ['Storefront'],
          summary: 'Device and session ids for the mobile SDKs',
          parameters: [query('shop_id', text, 'The shop key', true), query('did', text, 'A device id to keep')],
          responses: { '200': { description: 'Ids', content: json('Init', examples.init) }, ...errors(400, 429) },
        },
      },
      '/collection/{id}': {
        get: {
          tags: ['Storefront'],
          summary: 'The products of a collection (spec 4.6)',
          parameters: [
            { name: 'id', in: 'path', required: true, description: 'Collection id', schema: { type: 'integer', minimum: 1 } },
            ...storefrontIdentity,
            ...['phone', 'external_id', 'loyalty_id', 'telegram_id'].map((name) => query(name, text, 'Customer identity (accepted, not used)')),
            query('location', text, 'Only products in stock in this location'),
            format,
          ],
          responses: { '200': { description: 'The collection\'s products (spec 2.9)', content: json('Collection', examples.collection) }, ...errors(400, 404, 429, 503) },
        },
      },
      '/subscriptions/callback': {
        post: {
          tags: ['Subscriptions'],
          summary: 'Mark an email with a system flag (spec 4.8)',
          requestBody: { required: true, content: json('EmailCallback', examples.callback) },
          responses: { '200': { description: 'Flagged', content: json('Success', { status: 'success' }) }, ...errors(400, 413, 415, 429) },
        },
      },
      '/images/{size}/{key}': {
        get: {
          tags: ['Images'],
          summary: 'A product image resized into a square (links come from image_url_resized)',
          parameters: [
            { name: 'size', in: 'path', required: true, schema: { type: 'integer', enum: [...IMAGE_SIZES] } },
            { name: 'key', in: 'path', required: true, description: 'Signed by the service: only its own links resolve', schema: text },
          ],
          responses: {
            '200': { description: 'WebP or JPEG by Accept', content: { 'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } }, 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } } },
            ...errors(404, 429, 502),
          },
        },
      },
      '/healthz': {
        get: { tags: ['Operations'], summary: 'The process serves', responses: { '200': { description: 'Up', content: json('Health', { status: 'ok' }) } } },
      },
      '/readyz': {
        get: {
          tags: ['Operations'],
          summary: 'Database reachable, migrations applied, job workers running where enabled',
          responses: {
            '200': { description: 'Ready', content: json('Ready', examples.ready) },
            '503': { description: 'Not ready; the message names what is not', headers: retryAfter, content: json('Error', examples.errors.notReady) },
          },
        },
      },
    }),
    components: { schemas: componentSchemas(), parameters: { RequestId: requestIdParameter }, headers: { RequestId: requestIdHeader } },
  };
}
