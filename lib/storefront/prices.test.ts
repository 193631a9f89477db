import { expect, it } from 'vitest';
import type { StorefrontShop } from '@/lib/shops/storefront-shop';
import { priceFormat } from './prices';

const shop = (overrides: Partial<StorefrontShop>): StorefrontShop => ({
  id: 's',
  name: 'Shop',
  currency: 'EUR',
  currencySymbol: null,
  thousandsSeparator: null,
  decimalSeparator: null,
  decimals: null,
  listingExtendedDefault: false,
  listingTemplate: null,
  collectionTemplate: null,
  ...overrides,
});

it('formats prices by the shop’s currency settings, the same however many were formatted before', () => {
  const format = priceFormat(shop({ currencySymbol: 'Kč', thousandsSeparator: ' ', decimalSeparator: ',' }));
  expect([format.symbol, format.whole(1234.99), format.full(1234.5)]).toEqual(['Kč', 'Kč1 234', 'Kč1 234,50']);
  // Past the prices kept (two generations of 50,000): each still formatted as Intl does.
  const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });
  const plain = priceFormat(shop({}));
  for (let round = 0; round < 2; round++) {
    for (let cents = 0; cents < 130_000; cents += round === 0 ? 1 : 7) {
      const value = cents / 100;
      const text = plain.full(value);
      if (cents % 997 === 0) expect(text).toBe(intl.format(value));
    }
  }
  expect(plain.full(1299.99)).toBe('€1,299.99');
  expect(plain.whole(1299.99)).toBe('€1,299');
});
