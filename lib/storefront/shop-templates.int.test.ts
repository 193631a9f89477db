import { expect, it } from 'vitest';
import { DEFAULT_LISTING_TEMPLATE } from '@/lib/storefront/templates';
import { createTestShop } from '@/lib/testing/factories';
import { databaseAsAppContext } from '@/lib/testing/fixtures';
import { previewTemplate, restoreTemplate, saveTemplate, shopTemplates } from './shop-templates';

const fixture = databaseAsAppContext();

it('keeps every saved template as a version, restores one as a new version, and checks drafts before they go live', async () => {
  const ctx = fixture.database.ctx;
  const shop = await createTestShop(ctx);
  // A template set before versions were kept is kept as the first version on the first save.
  await ctx.sql`update shops set listing_template = '<p>old</p>' where id = ${shop.shop_id}`;
  const fresh = await shopTemplates(ctx, shop.shop_id);
  expect(fresh.listing).toMatchObject({ source: '<p>old</p>', default_source: DEFAULT_LISTING_TEMPLATE, versions: [] });

  await expect(saveTemplate(ctx, shop.shop_id, 'a@b.test', { kind: 'listing', source: '{% for p in products %}' })).rejects.toThrow(/^The listing template is not valid Liquid: /);
  const saved = await saveTemplate(ctx, shop.shop_id, 'a@b.test', { kind: 'listing', source: '<p>{{ products_total }}</p>' });
  expect(saved.listing.source).toBe('<p>{{ products_total }}</p>');
  expect(saved.listing.versions.map((v) => [v.source, v.saved_by])).toEqual([
    ['<p>{{ products_total }}</p>', 'a@b.test'],
    ['<p>old</p>', null],
  ]);
  const blank = await saveTemplate(ctx, shop.shop_id, 'c@d.test', { kind: 'listing', source: '  ' });
  expect(blank.listing.source).toBeNull();
  const restored = await restoreTemplate(ctx, shop.shop_id, 'c@d.test', { kind: 'listing', version: saved.listing.versions[1].id });
  expect(restored.listing.source).toBe('<p>old</p>');
  expect(restored.listing.versions).toHaveLength(4);
  await expect(restoreTemplate(ctx, shop.shop_id, 'c@d.test', { kind: 'collection', version: saved.listing.versions[1].id })).rejects.toThrow('not found');
  expect(restored.collection.versions).toEqual([]);

  expect(previewTemplate('Shop', { kind: 'listing', source: '{{ products_total }}:{% for p in products %}{{ p.name }}{% endfor %}', products: [{ name: 'A&B' }], products_total: 7 })).toEqual({ html: '7:A&amp;B' });
  expect(previewTemplate('Shop', { kind: 'collection', source: null, products: [] }).html).toContain('Preview collection');
  expect(() => previewTemplate('Shop', { kind: 'listing', source: '{% for i in (1..100000000) %}x{% endfor %}' })).toThrow(/not valid Liquid/);
});
