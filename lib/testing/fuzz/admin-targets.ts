import fc from 'fast-check';
import { CollectionInput } from '@/lib/collections/schemas';
import { RulesPreviewInput } from '@/lib/collections/collection-previews';
import { ImportFilter } from '@/lib/imports/browse-imports';
import { ProblemsQuery } from '@/lib/imports/import-details';
import { ShopSettingsInput } from '@/lib/shops/shop-settings';
import { ShopCreateInput } from '@/lib/shops/schemas';
import { PasswordInput, StaffAccessInput, StaffCreateInput } from '@/lib/staff/manage-staff';
import { LoginInput } from '@/lib/staff/schemas';
import { PreviewInput, RestoreInput, TemplateInput } from '@/lib/storefront/shop-templates';
import { FlagInput } from '@/lib/subscriptions/schemas';
import { hostileValue } from './mutations';
import { anyJson, schemaArbitrary } from './schema-arbitrary';
import { adminJson, collectionPath, getWithQuery, jsonRequest, listingParams, shopPath, type FuzzContext, type FuzzTarget } from './targets';

// Every route of the admin API (app/admin/api), a target or a share of one each: targets.test.ts
// fails when a route file is added or removed without this list following.

/** Query values: fitting ones, and any text. */
const queryValue = (...fitting: string[]) => fc.oneof(fc.constantFrom(...fitting), fc.string({ maxLength: 20 }), fc.constantFrom('', '-1', '0', '1e9', '%ZZ', 'x'.repeat(300)));

/** Query parameters as `schema` takes them (its values as text), now and then others. */
const queryOf = (values: fc.Arbitrary<unknown>) =>
  values.map((value) =>
    Object.fromEntries(Object.entries(value && typeof value === 'object' ? value : {}).map(([key, member]) => [key, typeof member === 'string' ? member : JSON.stringify(member) ?? ''])),
  );

/** An import id of the fuzz shops (they have a few dozen), or one that names none. */
const importId = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 60 }).map(String) }, { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1.5', 'x', '99999999999', '%00', '1'.repeat(300)) });

/** An id of a staff account that is not the fuzz's signed-in admin (changing or removing it would end the run's session). */
const staffId = (ctx: FuzzContext) => fc.oneof({ weight: 3, arbitrary: fc.constant(String(ctx.spareStaffId)) }, { weight: 1, arbitrary: fc.constantFrom('0', '999999999', 'x', '-1', '1.5', '1'.repeat(30)) });

const cookie = (ctx: FuzzContext) => ({ Cookie: ctx.cookie });

export const ADMIN_TARGETS: FuzzTarget[] = [
  {
    name: 'admin session',
    share: 'route',
    routes: ['/admin/api/session'],
    // Without the fuzz's own cookie: signing out would end the session the other targets use.
    request: (ctx) => jsonRequest(ctx, fc.constantFrom('POST', 'POST', 'DELETE', 'GET'), '/admin/api/session', schemaArbitrary(LoginInput) as fc.Arbitrary<Record<string, unknown>>, false),
  },
  {
    name: 'admin collections',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/collections', '/admin/api/shops/[shopId]/collections/preview'],
    request: (ctx) =>
      fc.oneof(
        adminJson(ctx, fc.constantFrom('GET', 'POST', 'PATCH'), shopPath(ctx, '/collections'), schemaArbitrary(CollectionInput)),
        adminJson(ctx, fc.constantFrom('POST', 'POST', 'GET'), shopPath(ctx, '/collections/preview'), schemaArbitrary(RulesPreviewInput)),
      ),
  },
  {
    name: 'admin collection',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/collections/[id]'],
    request: (ctx) => adminJson(ctx, fc.constantFrom('PUT', 'PUT', 'DELETE', 'GET'), fc.tuple(shopPath(ctx, '/collections/'), collectionPath(ctx)).map(([base, id]) => `${base}${id}`), schemaArbitrary(CollectionInput)),
  },
  {
    name: 'admin flags',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/flags', '/admin/api/shops/[shopId]/flags/totals', '/admin/api/shops/[shopId]/flags/import'],
    request: (ctx) =>
      fc.oneof(
        adminJson(ctx, fc.constantFrom('POST', 'DELETE'), shopPath(ctx, '/flags'), schemaArbitrary(FlagInput)),
        getWithQuery(
          shopPath(ctx, '/flags'),
          fc.record({ limit: queryValue('1', '1000', '0', '1001'), after: fc.string({ maxLength: 40 }), q: queryValue('a@', 'example'), flag: queryValue('email_bounce'), format: fc.constantFrom('csv', 'json') }, { requiredKeys: [] }),
          cookie(ctx),
        ),
        getWithQuery(shopPath(ctx, '/flags/totals'), fc.constant({}), cookie(ctx)),
        adminJson(
          ctx,
          fc.constantFrom('POST', 'POST', 'GET'),
          shopPath(ctx, '/flags/import'),
          fc.record({
            csv: fc.oneof(
              fc.array(fc.tuple(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 })), fc.constantFrom('email_bounce', 'email_complaint', 'x', '')).map(([email, flag]) => `${email},${flag}`), { maxLength: 20 }).map((lines) => lines.join('\n')),
              hostileValue,
            ),
            flag: fc.oneof(fc.constantFrom('email_bounce', 'email_unsubscribe'), hostileValue),
          }, { requiredKeys: [] }),
        ),
      ),
  },
  {
    name: 'admin imports',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/imports'],
    request: (ctx) => getWithQuery(shopPath(ctx, '/imports'), fc.oneof(queryOf(schemaArbitrary(ImportFilter)), fc.record({ before: queryValue('1', '5') }, { requiredKeys: [] })), cookie(ctx)),
  },
  {
    name: 'admin import',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/imports/[importId]', '/admin/api/shops/[shopId]/imports/[importId]/body', '/admin/api/shops/[shopId]/imports/[importId]/problems'],
    request: (ctx) =>
      fc.oneof(
        getWithQuery(fc.tuple(shopPath(ctx, '/imports/'), importId, fc.constantFrom('', '/body')).map(([base, id, rest]) => `${base}${id}${rest}`), fc.constant({}), cookie(ctx)),
        getWithQuery(
          fc.tuple(shopPath(ctx, '/imports/'), importId).map(([base, id]) => `${base}${id}/problems`),
          fc.oneof(queryOf(schemaArbitrary(ProblemsQuery)), fc.record({ kind: queryValue('errors', 'warnings'), page: queryValue('1', '2'), q: queryValue('p1') }, { requiredKeys: [] })),
          cookie(ctx),
        ),
        adminJson(ctx, fc.constantFrom('POST', 'DELETE'), fc.tuple(shopPath(ctx, '/imports/'), importId).map(([base, id]) => `${base}${id}`), anyJson()),
      ),
  },
  {
    name: 'admin listing preview',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/listing-preview'],
    request: (ctx) => getWithQuery(shopPath(ctx, '/listing-preview'), listingParams(ctx, false), cookie(ctx)),
  },
  {
    name: 'admin catalog',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/catalog/brands', '/admin/api/shops/[shopId]/catalog/product', '/admin/api/shops/[shopId]/catalog/products', '/admin/api/shops/[shopId]/catalog/trees', '/admin/api/shops/[shopId]/catalog/units'],
    request: (ctx) =>
      fc.oneof(
        getWithQuery(shopPath(ctx, '/catalog/product'), fc.record({ id: queryValue('p1', 'p39', 'after-fuzz') }, { requiredKeys: [] }), cookie(ctx)),
        getWithQuery(
          shopPath(ctx, '/catalog/products'),
          fc.record({ q: queryValue('p1', 'Item'), category: queryValue('c1', 'c2'), brand: queryValue('Acme'), availability: queryValue('in_stock', 'out_of_stock', 'all'), page: queryValue('1', '2', '100000') }, { requiredKeys: [] }),
          cookie(ctx),
        ),
        getWithQuery(fc.constantFrom('/catalog/brands', '/catalog/trees', '/catalog/units').chain((rest) => shopPath(ctx, rest)), fc.constant({}), cookie(ctx)),
        adminJson(ctx, fc.constantFrom('POST', 'PUT', 'DELETE'), fc.constantFrom('/catalog/brands', '/catalog/products').chain((rest) => shopPath(ctx, rest)), anyJson()),
      ),
  },
  {
    name: 'admin shop settings',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/settings', '/admin/api/shops/[shopId]/secret', '/admin/api/shops'],
    request: (ctx) =>
      fc.oneof(
        adminJson(ctx, fc.constantFrom('PUT', 'PUT', 'GET', 'POST'), shopPath(ctx, '/settings'), schemaArbitrary(ShopSettingsInput)),
        // A new secret for the spare shop only: the fuzz's requests carry its shops' secrets.
        adminJson(ctx, fc.constantFrom('POST', 'POST', 'GET'), fc.constantFrom(ctx.spareShopId, '0'.repeat(32), 'x', '%00').map((id) => `/admin/api/shops/${id}/secret`), fc.constant({})),
        adminJson(ctx, fc.constantFrom('POST', 'POST', 'GET', 'DELETE'), fc.constant('/admin/api/shops'), schemaArbitrary(ShopCreateInput)),
      ),
  },
  {
    name: 'admin templates',
    share: 'route',
    routes: ['/admin/api/shops/[shopId]/templates', '/admin/api/shops/[shopId]/templates/preview', '/admin/api/shops/[shopId]/templates/restore'],
    request: (ctx) => {
      const source = fc.oneof(fc.constantFrom('{% for p in products %}{{ p.name }}{% endfor %}', '{{ products_total }}', '{% if x %}', '{{ "a" | upcase }}', '{% for i in (1..100000) %}{{ i }}{% endfor %}', '{% include "x" %}', null), fc.string({ maxLength: 60 }));
      return fc.oneof(
        adminJson(ctx, fc.constantFrom('PUT', 'PUT', 'GET', 'POST'), shopPath(ctx, '/templates'), fc.oneof(schemaArbitrary(TemplateInput), fc.record({ kind: fc.constantFrom('listing', 'collection'), source }))),
        adminJson(ctx, fc.constantFrom('POST', 'POST', 'GET'), shopPath(ctx, '/templates/preview'), fc.oneof(schemaArbitrary(PreviewInput), fc.record({ kind: fc.constantFrom('listing', 'collection'), source, products: fc.array(fc.record({ id: fc.string(), name: fc.string() }), { maxLength: 3 }), products_total: fc.nat() }))),
        adminJson(ctx, fc.constantFrom('POST', 'PUT'), shopPath(ctx, '/templates/restore'), fc.oneof(schemaArbitrary(RestoreInput), fc.record({ kind: fc.constantFrom('listing', 'collection'), version: fc.integer({ min: 1, max: 50 }) }))),
      );
    },
  },
  {
    name: 'admin staff',
    share: 'route',
    routes: ['/admin/api/staff', '/admin/api/staff/[id]', '/admin/api/staff/[id]/password'],
    // Accounts changed or removed are the spare one (or none): the fuzz's admin must stay signed in.
    request: (ctx) =>
      fc.oneof(
        adminJson(ctx, fc.constantFrom('GET', 'GET', 'POST', 'PATCH'), fc.constant('/admin/api/staff'), schemaArbitrary(StaffCreateInput)),
        adminJson(ctx, fc.constantFrom('PUT', 'PUT', 'DELETE', 'GET'), staffId(ctx).map((id) => `/admin/api/staff/${id}`), fc.oneof(schemaArbitrary(StaffAccessInput), fc.record({ is_admin: fc.boolean(), shops: fc.constant([ctx.spareShopId]) }))),
        adminJson(ctx, fc.constantFrom('PUT', 'PUT', 'POST'), staffId(ctx).map((id) => `/admin/api/staff/${id}/password`), schemaArbitrary(PasswordInput)),
      ),
  },
  {
    name: 'admin outbox',
    share: 'route',
    routes: ['/admin/api/outbox'],
    request: (ctx) =>
      fc.oneof(
        getWithQuery(fc.constant('/admin/api/outbox'), fc.record({ before: queryValue('1', '100') }, { requiredKeys: [] }), cookie(ctx)),
        adminJson(ctx, fc.constantFrom('POST', 'DELETE'), fc.constant('/admin/api/outbox'), anyJson()),
      ),
  },
];
