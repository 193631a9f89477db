import type { StorefrontShop } from '@/lib/shops/storefront-shop';

// CONTRACT §4: `price` is the integer part, `*_full` the exact value, `*_formatted` follow the
// shop's currency settings (symbol, separators, decimals), by default Intl.NumberFormat's.

export type PriceFormat = { symbol: string; whole: (value: number) => string; full: (value: number) => string };

const formats = new Map<string, PriceFormat>();
const KEPT_PRICES = 50_000;

function formatter(shop: StorefrontShop, digits: number | null) {
  const options: Intl.NumberFormatOptions = { style: 'currency', currency: shop.currency };
  if (digits !== null) {
    options.minimumFractionDigits = digits;
    options.maximumFractionDigits = digits;
  }
  const intl = new Intl.NumberFormat('en-US', options);
  // Listings show the same prices again and again: formatted ones are kept, in two generations
  // of up to KEPT_PRICES each (the older one dropped when the newer fills: what pages still show
  // stays). One format serves every shop of a currency: with a single map of 10,000, cleared when
  // full, 20 shops' prices thrashed it and formatting took ~2 % of the serving thread.
  let known = new Map<number, string>();
  let older = new Map<number, string>();
  return (value: number) => {
    let text = known.get(value);
    if (text === undefined) {
      text = older.get(value);
      if (text === undefined) text = formatted(value);
      if (known.size >= KEPT_PRICES) {
        older = known;
        known = new Map();
      }
      known.set(value, text);
    }
    return text;
  };

  function formatted(value: number): string {
    return intl
      .formatToParts(value)
      .map((part) => {
        if (part.type === 'currency' && shop.currencySymbol !== null) return shop.currencySymbol;
        if (part.type === 'group' && shop.thousandsSeparator !== null) return shop.thousandsSeparator;
        if (part.type === 'decimal' && shop.decimalSeparator !== null) return shop.decimalSeparator;
        return part.value;
      })
      .join('');
  }
}

export function priceFormat(shop: StorefrontShop): PriceFormat {
  const key = JSON.stringify([shop.currency, shop.currencySymbol, shop.thousandsSeparator, shop.decimalSeparator, shop.decimals]);
  let format = formats.get(key);
  if (!format) {
    const whole = formatter(shop, 0);
    const full = formatter(shop, shop.decimals);
    const symbol =
      shop.currencySymbol ??
      new Intl.NumberFormat('en-US', { style: 'currency', currency: shop.currency }).formatToParts(0).find((part) => part.type === 'currency')?.value ??
      shop.currency;
    format = { symbol, whole: (value) => whole(Math.trunc(value)), full };
    formats.set(key, format);
  }
  return format;
}
