import crypto from 'node:crypto';
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import { imageSigningKey, linkExpiry, readImageKey } from '@/lib/images/image-urls';
import type { StorefrontShop } from '@/lib/shops/storefront-shop';
import { productCard, templateCard, type CardContext, type Shown, type StoredProduct } from './product-card';
import { priceFormat } from './prices';
import { DEFAULT_LISTING_TEMPLATE, renderLiquid, renderTemplate } from './templates';

const shop: StorefrontShop = {
  id: '0123456789abcdef0123456789abcdef', name: 'Shop', currency: 'EUR', currencySymbol: null, thousandsSeparator: ' ', decimalSeparator: ',', decimals: 2,
  listingExtendedDefault: false, listingTemplate: null, collectionTemplate: null,
};
const context: CardContext = {
  format: priceFormat(shop),
  sealKey: crypto.randomBytes(32),
  shopId: shop.id,
  origin: 'https://vitrine.example',
  tracking: { recommended_by: 'listing' },
  categories: new Map(),
  categoryLink: () => ({ url: '', url_handle: '' }),
  maxSalesRate: 10,
};

const text = fc.oneof(fc.string(), fc.constantFrom('', 'Bob & "Ann" <b>', 'Čaj – 茶 😀', "l'été"));
const link = fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom('', 'p/1.html?a=1+2', '//cdn.example/x.jpg', 'not a url', 'https://s.example/p?recommended_by=x&b=%2B'));
const product = fc.record({ id: fc.string({ minLength: 1 }), name: text, url: link, picture: link });
const shown: fc.Arbitrary<Shown> = fc.record({
  price: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.double({ min: 0, max: 1e7, noNaN: true })),
  oldprice: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true }), { nil: null }),
  discount: fc.integer({ min: 0, max: 99 }),
  stockQuantity: fc.constant(null),
});

it("gives a template card's fields as the full card gives them, and the default template the same html from both", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(product, shown), { maxLength: 5 }), (rows) => {
      const stored = rows.map(([{ id, ...data }]): StoredProduct => ({ id, data, sales_rate: 1 }));
      const full = stored.map((row, i) => productCard(context, row, rows[i][1]));
      const light = stored.map((row, i) => templateCard(context, row, rows[i][1]));
      light.forEach((card, i) => {
        expect(card).toEqual({
          id: full[i].id, url: full[i].url, name: full[i].name, image_url_resized: { 220: full[i].image_url_resized['220'] },
          price_formatted: full[i].price_formatted, oldprice: full[i].oldprice, oldprice_formatted: full[i].oldprice_formatted,
        });
      });
      const html = renderTemplate(DEFAULT_LISTING_TEMPLATE, { products: light });
      expect(html).toBe(renderTemplate(DEFAULT_LISTING_TEMPLATE, { products: full }));
      expect(html).toBe(renderLiquid(DEFAULT_LISTING_TEMPLATE, { products: full }));
    }),
    { numRuns: 300 },
  );
});

it('adds the tracking parameters to a product link the same way when the link was seen before', () => {
  const row: StoredProduct = { id: 'p1', data: { url: 'https://s.example/p/1?ref=feed#top' }, sales_rate: 0 };
  const first = productCard(context, row, { price: 1, oldprice: null, discount: 0, stockQuantity: null }).url;
  expect(first).toBe('https://s.example/p/1?ref=feed&recommended_by=listing#top');
  expect(templateCard(context, row, { price: 1, oldprice: null, discount: 0, stockQuantity: null }).url).toBe(first);
  // Other parameters, another link: kept apart.
  expect(productCard({ ...context, tracking: { recommended_by: 'collection' } }, row, { price: 1, oldprice: null, discount: 0, stockQuantity: null }).url).toBe('https://s.example/p/1?ref=feed&recommended_by=collection#top');
});

it("signs a product's picture again when the link window, the shop or the key changes, not otherwise", () => {
  const row: StoredProduct = { id: 'p1', data: { url: 'https://s.example/p/1', picture: 'https://cdn.example/1.jpg' }, sales_rate: 0 };
  const price = { price: 1, oldprice: null, discount: 0, stockQuantity: null };
  const keyOf = (ctx: CardContext) => productCard(ctx, row, price).image_url_resized['520'].split('/').pop()!;
  const now = Date.UTC(2026, 10, 28);
  vi.useFakeTimers({ now, toFake: ['Date'] });
  try {
    const first = keyOf(context);
    expect(keyOf(context)).toBe(first);
    expect(templateCard(context, row, price).image_url_resized['220']).toBe(`https://vitrine.example/images/220/${first}`);
    const check = (ctx: CardContext, key: string) => readImageKey(imageSigningKey(ctx.sealKey), key, Date.now());
    expect(check(context, first)).toEqual({ shopId: context.shopId, url: 'https://cdn.example/1.jpg', expires: linkExpiry(now) });
    const otherShop = { ...context, shopId: 'fedcba9876543210fedcba9876543210' };
    expect(check(otherShop, keyOf(otherShop))).toMatchObject({ shopId: otherShop.shopId });
    const otherKey = { ...context, sealKey: crypto.randomBytes(32) };
    expect(check(otherKey, keyOf(otherKey))).toMatchObject({ shopId: context.shopId });
    vi.setSystemTime(now + 31 * 86_400_000);
    const later = keyOf(context);
    expect(later).not.toBe(first);
    expect(check(context, later)).toEqual({ shopId: context.shopId, url: 'https://cdn.example/1.jpg', expires: linkExpiry(Date.now()) });
  } finally {
    vi.useRealTimers();
  }
});
