import { mulberry32 } from './random';

// A deterministic catalog that looks like a real shop's: ~2,000 categories four levels deep,
// 50 locations (states → cities → stores), variant groups, 10–20 params per product, fashion sizes
// and colours, location offers on a third of the products. Shared by the import and listing
// benchmarks.

export type SyntheticCategory = { id: string; name: string; parent: string | null; url: string };
export type SyntheticLocation = { id: string; name: string; parent: string | null; type: string };

export function syntheticCategories(): SyntheticCategory[] {
  const out: SyntheticCategory[] = [];
  const add = (id: string, parent: string | null) => out.push({ id, name: `Category ${id}`, parent, url: `https://shop.example/c/${id}` });
  const level3: string[] = [];
  for (let a = 0; a < 8; a++) {
    add(`${a}`, null);
    for (let b = 0; b < 6; b++) {
      add(`${a}.${b}`, `${a}`);
      for (let c = 0; c < 6; c++) {
        add(`${a}.${b}.${c}`, `${a}.${b}`);
        level3.push(`${a}.${b}.${c}`);
      }
    }
  }
  for (let i = 0; out.length < 2000; i++) add(`${level3[i % level3.length]}.${Math.floor(i / level3.length)}`, level3[i % level3.length]);
  return out;
}

export function leafCategories(categories: SyntheticCategory[]): string[] {
  const parents = new Set(categories.map((c) => c.parent));
  return categories.filter((c) => !parents.has(c.id)).map((c) => c.id);
}

export function syntheticLocations(): SyntheticLocation[] {
  const out: SyntheticLocation[] = [];
  for (let s = 0; s < 5; s++) {
    out.push({ id: `s${s}`, name: `State ${s}`, parent: null, type: 'state' });
    for (let c = 0; c < 3; c++) {
      out.push({ id: `s${s}c${c}`, name: `City ${s}-${c}`, parent: `s${s}`, type: 'city' });
      for (let t = 0; t < 2; t++) out.push({ id: `s${s}c${c}t${t}`, name: `Store ${s}-${c}-${t}`, parent: `s${s}c${c}`, type: 'store' });
    }
  }
  return out; // 5 + 15 + 30 = 50
}

const PARAM_NAMES = Array.from({ length: 40 }, (_, i) => `param_${i}`);
const NUMERIC_PARAMS = new Set(['param_0', 'param_1', 'param_2', 'param_3', 'param_4']);
const COLORS = ['black', 'white', 'red', 'blue', 'green', 'grey', 'beige', 'brown', 'pink', 'navy', 'olive', 'yellow'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '36', '38', '40', '42', '44', '46'];
const WORDS = ['classic', 'soft', 'urban', 'light', 'warm', 'summer', 'sport', 'premium', 'eco', 'cotton', 'leather', 'wool', 'slim', 'comfort', 'pro'];

export type SyntheticItem = Record<string, unknown> & { id: string; price: number };

/** The n-th product (0-based) of the synthetic catalog; the same n always gives the same item. */
export function syntheticItem(n: number, leaves: string[], locations: SyntheticLocation[]): SyntheticItem {
  const rnd = mulberry32(n * 7919 + 17);
  const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
  const price = Math.round((100 + rnd() * rnd() * 99_900) * 100) / 100;
  const discounted = rnd() < 0.3;
  const group = Math.floor(n / 3);
  const paramCount = 10 + Math.floor(rnd() * 11);
  const names = new Set<string>();
  while (names.size < paramCount) names.add(pick(PARAM_NAMES));
  const params = [...names].map((name) => ({
    name,
    value: NUMERIC_PARAMS.has(name) ? [Math.floor(rnd() * 500)] : [`${name}_v${Math.floor(rnd() * 12)}`],
    ...(name === 'param_39' ? { searchable: false } : {}),
  }));
  const item: SyntheticItem = {
    id: `p${n}`,
    group_id: `g${group}`,
    name: `${pick(WORDS)} ${pick(WORDS)} item ${n}`,
    url: `https://shop.example/p/${n}?ref=feed`,
    picture: `https://cdn.shop.example/img/${n}.jpg`,
    price,
    ...(discounted ? { oldprice: Math.round(price * (1.1 + rnd() * 0.6) * 100) / 100 } : {}),
    currency: 'USD',
    categories: rnd() < 0.1 ? [pick(leaves), pick(leaves)] : [pick(leaves)],
    brand: `Brand ${Math.floor(rnd() * rnd() * 500)}`,
    vendor_code: `VC-${n}`,
    barcode: String(4_600_000_000_000 + n),
    model: `M${Math.floor(rnd() * 1000)}`,
    description: `A ${pick(WORDS)} and ${pick(WORDS)} product for every day. Number ${n}.`,
    available: rnd() < 0.9,
    stock_quantity: Math.floor(rnd() * 100),
    rating: Math.round((1 + rnd() * 4) * 10) / 10,
    price_margin: Math.floor(rnd() * 60),
    tags: [pick(WORDS), pick(WORDS)],
    creation_date: `2026-${String(1 + Math.floor(rnd() * 10)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`,
    params,
  };
  if (rnd() < 0.4) {
    item.fashion = { gender: pick(['m', 'f', 'u']), type: 'clothing', sizes: [pick(SIZES), pick(SIZES)], colors: [{ color: pick(COLORS) }] };
  }
  if (n % 3 === 0) {
    const stores = locations.filter((l) => l.type === 'store');
    const count = 3 + Math.floor(rnd() * 6);
    const chosen = new Set<string>();
    while (chosen.size < count) chosen.add(pick(stores).id);
    item.locations = [...chosen].map((location) => ({
      location,
      ...(rnd() < 0.5 ? { price: Math.round(price * (0.85 + rnd() * 0.3) * 100) / 100 } : {}),
      stock_quantity: 1 + Math.floor(rnd() * 20),
    }));
  }
  return item;
}
