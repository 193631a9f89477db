import fc from 'fast-check';
import { z } from 'zod';
import { ItemInput } from '@/lib/catalog/product-schema';
import { CategoryInput, LocationInput } from '@/lib/catalog/schemas';
import { IMAGE_SIZES } from '@/lib/images/image-urls';
import { SORT_KEYS } from '@/lib/listing/query';
import { FlagInput } from '@/lib/subscriptions/schemas';
import type { TestShop } from '../factories';
import { bodyBytes, contentType, hostileValue, mutated, oddHeaders, queryString } from './mutations';
import { schemaArbitrary } from './schema-arbitrary';

/** What the generated requests may name: the fuzzed server's shops, a collection, a staff session. */
export type FuzzContext = {
  shops: TestShop[];
  collectionId: number;
  /** A resized-image path the server signed (`/images/120/…`). */
  imagePath: string;
  /** The Cookie header of a signed-in admin. */
  cookie: string;
  /** A shop whose secret may be rotated: not one the requests' credentials name. */
  spareShopId: string;
  /** A staff account that may be changed or removed: not the signed-in admin. */
  spareStaffId: number;
};

export type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: Buffer; oversized?: boolean };

export type FuzzTarget = {
  name: string;
  /**
   * How many requests it gets: `endpoint`, --per-endpoint (the spec's public endpoints);
   * `route`, --per-admin (admin API routes, and the paths that are no endpoint of the spec).
   */
  share: 'endpoint' | 'route';
  /** The route files it sends requests to, as their paths under app/ (targets.test.ts holds every route to one). */
  routes: string[];
  request: (ctx: FuzzContext) => fc.Arbitrary<FuzzRequest>;
};

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 48 });

/** The credentials of a body: the shop's own mostly, else wrong, unknown, missing or of the wrong type. */
export function credentials(ctx: FuzzContext): fc.Arbitrary<Record<string, unknown>> {
  const shop = fc.constantFrom(...ctx.shops);
  return fc.oneof(
    { weight: 7, arbitrary: shop.map((s) => ({ shop_id: s.shop_id, shop_secret: s.shop_secret })) },
    { weight: 1, arbitrary: shop.map((s) => ({ shop_id: s.shop_id, shop_secret: `${s.shop_secret.slice(0, -1)}0` })) },
    { weight: 1, arbitrary: fc.record({ shop_id: fc.oneof(hex, hostileValue), shop_secret: fc.oneof(hex, hostileValue) }) },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

export const idArbitrary = fc.oneof(fc.constantFrom('c1', 'c2', 'p1', 'p2', '10', 'loc-1'), fc.string({ maxLength: 12 }), fc.integer());

/** A JSON body of credentials and `fields`, mutated, as bytes under a content type; now and then past the body limit. */
export function jsonRequest(ctx: FuzzContext, method: fc.Arbitrary<string>, path: string, fields: fc.Arbitrary<Record<string, unknown>>, withCredentials = true, bodyLimit = 1024 * 1024): fc.Arbitrary<FuzzRequest> {
  const value = fc.tuple(withCredentials ? credentials(ctx) : fc.constant({}), fields).map(([auth, rest]) => ({ ...auth, ...rest }));
  return fc
    .tuple(method, bodyBytes(mutated(value)), contentType, oddHeaders, fc.nat({ max: 199 }))
    .map(([verb, body, type, headers, roll]) => {
      const oversized = roll === 0;
      const bytes = oversized ? Buffer.concat([body, Buffer.alloc(bodyLimit + 1, 0x20)]) : body;
      return { method: verb, path, headers: { ...headers, ...(type === undefined ? {} : { 'Content-Type': type }) }, body: bytes, oversized };
    });
}

const items = (schema: z.ZodType) => fc.array(schemaArbitrary(schema), { maxLength: 4 });
const webhook = fc.option(fc.oneof(fc.constantFrom('http://127.0.0.1:9/hook', 'https://hooks.example/x', 'ftp://x', 'not a url'), fc.webUrl()), { nil: undefined });

/** Listing parameters (spec 4.7, CONTRACT §4): the known names with fitting and unfitting values. */
export function listingParams(ctx: FuzzContext, withShop: boolean): fc.Arbitrary<Record<string, string>> {
  const value = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('1', '0', '-5', '1.5', '1e3', 'true', 'false', 'asc', 'desc', '', '%2C', 'c1,c2', 'c1%252Cc2'));
  return fc.record(
    {
      shop_id: withShop ? fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ctx.shops.map((s) => s.shop_id)) }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }) : fc.constant(''),
      did: fc.oneof(fc.constant('d'), value),
      sid: fc.oneof(fc.constant('s'), value),
      email: fc.oneof(fc.emailAddress(), value),
      categories: fc.oneof(fc.constantFrom('c1', 'c1,c2', 'c1%2Cc2'), value),
      locations: value,
      brands: value,
      sort_by: fc.oneof(fc.constantFrom(...SORT_KEYS, 'popular'), value),
      sort_dir: fc.oneof(fc.constantFrom('asc', 'desc'), value),
      price_min: fc.oneof(fc.integer().map(String), value),
      price_max: fc.oneof(fc.integer().map(String), value),
      filters: fc.oneof(
        fc.constantFrom('{"color":["red"]}', '{"a":[]}', '[]', '{"a":"b"}', '{', `{"a":[${'['.repeat(5000)}`, '{"a":[1,true,null]}'),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      ),
      limit: fc.oneof(fc.constantFrom('1', '24', '1000', '1001', '0', '-1', '99999999999999999999'), value),
      page: fc.oneof(fc.constantFrom('1', '2', '10000', '0', '-1'), value),
      extended: fc.constantFrom('true', 'false', '1', 'yes'),
      collapse: fc.constantFrom('true', 'false', 'x'),
      search_query: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('shoe', '"', '*', 'x'.repeat(2000))),
      search_scope: value,
      format: fc.constantFrom('v2', 'v1', 'x'),
      brand_limit: value,
      category_limit: value,
      discount: value,
      available: value,
      filters_search_by: fc.oneof(fc.constantFrom('name', 'quantity', 'popularity'), value),
    },
    { requiredKeys: [] },
  ).map((params) => (withShop ? params : Object.fromEntries(Object.entries(params).filter(([key]) => key !== 'shop_id'))));
}

export function getWithQuery(path: fc.Arbitrary<string>, params: fc.Arbitrary<Record<string, string>>, headers: Record<string, string> = {}): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(path, queryString(params), oddHeaders).map(([base, query, odd]) => ({ method: 'GET', path: `${base}${query}`, headers: { ...odd, ...headers } }));
}

export const collectionPath = (ctx: FuzzContext) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant(String(ctx.collectionId)) },
    { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1.5', '99999999999', 'abc', '%00', '1e3', '%20', '1'.repeat(300), '%F0%9F%92%A5') },
  );

export const PUBLIC_TARGETS: FuzzTarget[] = [
  {
    name: 'import categories',
    share: 'endpoint',
    routes: ['/import/categories'],
    request: (ctx) =>
      jsonRequest(ctx, fc.constantFrom('POST', 'PUT', 'DELETE'), '/import/categories', fc.record({ categories: fc.oneof(items(CategoryInput), fc.array(idArbitrary, { maxLength: 4 })), webhook }, { requiredKeys: ['categories'] })),
  },
  {
    name: 'import locations',
    share: 'endpoint',
    routes: ['/import/locations'],
    request: (ctx) =>
      jsonRequest(ctx, fc.constantFrom('POST', 'PUT', 'DELETE'), '/import/locations', fc.record({ locations: fc.oneof(items(LocationInput), fc.array(idArbitrary, { maxLength: 4 })), webhook }, { requiredKeys: ['locations'] })),
  },
  {
    name: 'import products',
    share: 'endpoint',
    routes: ['/import/products'],
    request: (ctx) =>
      jsonRequest(
        ctx,
        fc.constantFrom('PUT', 'PATCH', 'DELETE', 'POST'),
        '/import/products',
        fc.record({ items: fc.oneof(items(ItemInput), fc.array(idArbitrary, { maxLength: 4 })), method: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'patch', 'GET'), webhook }, { requiredKeys: ['items'] }),
      ),
  },
  {
    name: 'import status',
    share: 'endpoint',
    routes: ['/import/status'],
    request: (ctx) => jsonRequest(ctx, fc.constant('POST'), '/import/status', fc.record({ import_id: fc.oneof(fc.integer({ min: 1, max: 50 }), hostileValue) })),
  },
  {
    name: 'subscriptions callback',
    share: 'endpoint',
    routes: ['/subscriptions/callback'],
    request: (ctx) => jsonRequest(ctx, fc.constant('POST'), '/subscriptions/callback', schemaArbitrary(FlagInput) as fc.Arbitrary<Record<string, unknown>>),
  },
  {
    name: 'listing',
    share: 'endpoint',
    routes: ['/products'],
    request: (ctx) =>
      fc.oneof(
        getWithQuery(fc.constant('/products'), listingParams(ctx, true)),
        jsonRequest(ctx, fc.constant('POST'), '/products', listingParams(ctx, true).map((params) => ({ ...params, limit: Number(params.limit) || params.limit })), false),
      ),
  },
  {
    name: 'collection',
    share: 'endpoint',
    routes: ['/collection/[id]'],
    request: (ctx) =>
      getWithQuery(
        collectionPath(ctx).map((id) => `/collection/${id}`),
        fc.record({ shop_id: fc.oneof(fc.constantFrom(...ctx.shops.map((s) => s.shop_id)), fc.string({ maxLength: 10 })), location: fc.string({ maxLength: 10 }), format: fc.constantFrom('v2', 'x'), did: fc.string() }, { requiredKeys: [] }),
      ),
  },
  {
    name: 'init',
    share: 'endpoint',
    routes: ['/init'],
    request: (ctx) => getWithQuery(fc.constant('/init'), fc.record({ shop_id: fc.oneof(fc.constantFrom(...ctx.shops.map((s) => s.shop_id)), fc.string({ maxLength: 10 })), did: fc.string({ maxLength: 70 }) }, { requiredKeys: [] })),
  },
  {
    name: 'images',
    share: 'endpoint',
    routes: ['/images/[size]/[key]'],
    request: (ctx) => {
      const [, , , key] = ctx.imagePath.split('/');
      const keyArbitrary = fc.oneof(
        fc.constant(key),
        fc.constantFrom('x', 'a.b.c.d', `${key.slice(0, -1)}A`, key.replace(/\.\d+\./, '.1.'), `${key}.x`, '%2e%2e', 'k'.repeat(1500)),
        fc.string({ maxLength: 30 }).map(encodeURIComponent),
      );
      const size = fc.oneof(fc.constantFrom(...IMAGE_SIZES.map(String)), fc.constantFrom('0', '121', '0x78', '120.0', '-1', 'abc'));
      return getWithQuery(fc.tuple(size, keyArbitrary).map(([s, k]) => `/images/${s}/${k}`), fc.constant({}));
    },
  },
];

export const shopPath = (ctx: FuzzContext, rest: string) =>
  fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...ctx.shops.map((s) => s.shop_id)) }, { weight: 1, arbitrary: fc.constantFrom('0'.repeat(32), 'x', '%00', 'a'.repeat(300)) }).map((shopId) => `/admin/api/shops/${shopId}${rest}`);

/** An admin API request with the signed-in admin's cookie (mostly). */
export function adminJson(ctx: FuzzContext, method: fc.Arbitrary<string>, path: fc.Arbitrary<string>, fields: fc.Arbitrary<unknown>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(path, jsonRequest(ctx, method, '', fields.map((value) => ({ value })), false), fc.nat({ max: 9 })).map(([where, request, roll]) => {
    // jsonRequest wraps the value as { value }: the admin API takes the value itself.
    const body = request.oversized || !request.body ? request.body : Buffer.from(request.body.toString('utf8').replace(/^\{"value":([\s\S]*)\}$/, '$1'));
    return { ...request, path: where, body, headers: { ...request.headers, ...(roll === 0 ? {} : { Cookie: ctx.cookie }) } };
  });
}

/** A path segment that names nothing, now and then spoiled. */
const strayPath = fc.array(fc.oneof(fc.constantFrom('x', 'a/b', '..', '%2e', '', 'index.html', '%00', '~', '1'), fc.string({ maxLength: 12 }).map(encodeURIComponent)), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));

/** Paths that are no endpoint of the spec: under each endpoint's prefix, and the operations endpoints (§9, the API docs). */
export const PATH_TARGETS: FuzzTarget[] = [
  {
    name: 'unknown paths',
    share: 'route',
    routes: ['/[...path]', '/collection', '/collection/[id]/[...path]', '/images/[size]', '/images/[size]/[key]/[...path]', '/import/[...path]', '/init/[...path]', '/products/[...path]', '/subscriptions/[...path]', '/admin/api', '/admin/api/[...path]'],
    request: (ctx) => {
      const prefix = fc.constantFrom('', '/collection', `/collection/${ctx.collectionId}`, '/images/120', ctx.imagePath, '/import', '/init', '/products', '/subscriptions', '/admin/api', '/admin/api/shops/x/collections/1');
      return fc.oneof(
        getWithQuery(fc.tuple(prefix, strayPath).map(([base, rest]) => `${base}/${rest}`), fc.constant({})),
        jsonRequest(ctx, fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE'), '', fc.constant({})).chain((request) => fc.tuple(prefix, strayPath).map(([base, rest]) => ({ ...request, path: `${base}/${rest}` }))),
      );
    },
  },
  {
    name: 'operations',
    share: 'route',
    routes: ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/redoc.standalone.js'],
    request: () =>
      fc.oneof(
        { weight: 8, arbitrary: getWithQuery(fc.constantFrom('/healthz', '/readyz', '/openapi.json', '/docs', '/metrics'), fc.constant({})) },
        // The API docs' script (~1 MB) now and then.
        { weight: 1, arbitrary: getWithQuery(fc.constant('/docs/redoc.standalone.js'), fc.constant({})) },
        { weight: 2, arbitrary: fc.tuple(fc.constantFrom('POST', 'PUT', 'DELETE'), fc.constantFrom('/healthz', '/readyz', '/openapi.json', '/docs', '/metrics')).map(([method, path]) => ({ method, path, headers: {} })) },
      ),
  },
];
