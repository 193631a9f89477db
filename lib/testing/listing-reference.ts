import type { Sql } from 'postgres';
import { MAX_DEPTH, type ListingQuery } from '@/lib/listing/query';
import type { SearchField } from '@/lib/listing/search-text';

// The listing's semantics (CONTRACT §4) written the slow and obvious way, over rows read with plain
// SQL: used only by tests, which require the engine to give the same answer. It takes nothing but
// types and the spec's constants from lib/listing: price statistics and search are written here
// again from spec 2.10, CONTRACT §4 and docs/decisions.md ("Listing").

// --- Price statistics (spec 2.10, CONTRACT §4, decisions "Prices shown and counted") ---

export type ReferenceBucket = { from?: number; to?: number; count: number };
export type ReferenceStats = { range: { min: number; max: number }; median: number; ranges: ReferenceBucket[] };

/** Round steps in ascending order: 1, 2, 2.5 and 5 × 10ⁿ that are whole numbers (spec 2.10's bounds are Integers). */
function* roundSteps(): Generator<number> {
  for (let magnitude = 1; ; magnitude *= 10) for (const step of [magnitude, 2 * magnitude, 2.5 * magnitude, 5 * magnitude]) if (Number.isInteger(step)) yield step;
}

/**
 * price_range: floor of the lowest, ceiling of the highest price; price_median: floor of the
 * median (the mean of the two middle ones for an even count); price_ranges: the smallest round
 * step whose buckets, starting at the multiple of it at or below the lowest price, need at most 5
 * to cover every price; empty ones left out, `from` absent when 0, the last without `to`.
 */
export function referencePriceStats(prices: number[]): ReferenceStats | null {
  if (prices.length === 0) return null;
  const sorted = [...prices].sort((a, b) => a - b);
  const lowest = sorted[0];
  const highest = sorted[sorted.length - 1];
  const half = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
  for (const step of roundSteps()) {
    const start = step * Math.floor(Math.floor(lowest) / step);
    // A price's bucket: how many bounds above the start are at or below it (compared, never divided).
    const bucketOf = (price: number) => {
      let bucket = 0;
      while (bucket < 5 && start + (bucket + 1) * step <= price) bucket++;
      return bucket;
    };
    const last = bucketOf(highest);
    if (last >= 5) continue;
    const counts = new Array<number>(last + 1).fill(0);
    for (const price of sorted) counts[bucketOf(price)]++;
    const ranges: ReferenceBucket[] = [];
    counts.forEach((count, bucket) => {
      if (count === 0) return;
      const from = start + bucket * step;
      ranges.push({ ...(from === 0 ? {} : { from }), ...(bucket === last ? {} : { to: from + step }), count });
    });
    return { range: { min: Math.floor(lowest), max: Math.ceil(highest) }, median: Math.floor(median), ranges };
  }
  throw new Error('unreachable: some step covers any prices');
}

// --- Search (CONTRACT §4 search_query, decisions "Search", "sort_by=relevance") ---

// sort_by=relevance: each query word counts the weight of the best field it was found in.
const WEIGHT: Record<SearchField, number> = { name: 8, brand: 4, model: 4, author: 4, publisher: 2, illustrator: 2, editor: 2, series: 2, categories: 2, params: 1 };
const MAX_QUERY_WORDS = 32;

// Letters whose folding is not plain "lower-case, drop the accents", and what they fold to. The
// sharp s and the dotless i are letters of their own (no accent to drop): kept; İ's dot, ё's
// diaeresis and й's breve are marks once decomposed: dropped; the final sigma is a sigma (folding
// is case-insensitive, and ς is how Σ is lower-cased at a word's end).
export const FOLDS: Record<string, string> = { ß: 'ß', ẞ: 'ß', İ: 'i', ı: 'ı', Ё: 'е', ё: 'е', Й: 'и', й: 'и', Σ: 'σ', ς: 'σ' };
const MARK = /^\p{M}$/u;
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/** One character folded: from the table, else decomposed, without its marks, lower-cased (a mark alone: ''). */
function foldCharacter(character: string): string {
  const listed = FOLDS[character];
  if (listed !== undefined) return listed;
  return [...character.normalize('NFD')].filter((part) => !MARK.test(part)).map((part) => part.toLowerCase()).join('');
}

/** A text's words: runs of letters and digits, folded; marks join the letters around them, anything else splits. */
export function referenceWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  for (const character of text) {
    if (MARK.test(character)) continue;
    for (const folded of foldCharacter(character)) {
      if (WORD_CHARACTER.test(folded)) word += folded;
      else if (word !== '') {
        words.push(word);
        word = '';
      }
    }
  }
  if (word !== '') words.push(word);
  return words;
}

/** A query's words: each distinct one once, in order, at most 32 (decisions "search_query"). */
function referenceQueryWords(text: string): string[] {
  const distinct: string[] = [];
  for (const word of referenceWords(text)) if (!distinct.includes(word)) distinct.push(word);
  return distinct.slice(0, MAX_QUERY_WORDS);
}

type Offer = { location: string; price: number; oldprice: number | null; discount: number };
type Product = {
  id: string;
  group_id: string | null;
  price: number;
  oldprice: number | null;
  discount_percent: number;
  brand: string | null;
  merchants: string[] | null;
  categories: string[];
  rating: number | null;
  price_margin: number | null;
  sales_rate: number;
  date: number;
  available: boolean;
  data: Record<string, unknown>;
  offers: Offer[];
};
type Node = { id: string; name: string; parent: string | null };

export type ReferenceCatalog = { products: Product[]; categories: Map<string, Node>; locations: Map<string, Node> };

export async function loadReferenceCatalog(sql: Sql, shopId: string): Promise<ReferenceCatalog> {
  // Offers are [location_id, price, oldprice, discount_percent, stock_quantity] in `products.offers`.
  const products = await sql<Product[]>`
    select p.id, p.group_id, p.price, p.oldprice, p.discount_percent, p.brand, p.merchants, p.categories, p.rating, p.price_margin,
           p.sales_rate, (extract(epoch from coalesce(p.creation_date, p.first_added_at)) * 1000)::float8 as date, st.available, p.data::jsonb as data,
           coalesce((select json_agg(json_build_object('location', e->>0, 'price', (e->>1)::float8, 'oldprice', (e->>2)::float8, 'discount', (e->>3)::float8))
                       from jsonb_array_elements(p.offers::jsonb) e), '[]') as offers
      from products p join product_state st on st.shop_id = p.shop_id and st.product_id = p.id where p.shop_id = ${shopId}`;
  const categories = await sql<Node[]>`select id, name, parent from categories where shop_id = ${shopId}`;
  const locations = await sql<Node[]>`select id, name, parent from locations where shop_id = ${shopId}`;
  return {
    products,
    categories: new Map(categories.map((c) => [c.id, c])),
    locations: new Map(locations.map((l) => [l.id, l])),
  };
}

/** The node and every known node above it. */
function lineage(nodes: Map<string, Node>, id: string): string[] {
  const chain = [id];
  let current = nodes.get(id);
  const seen = new Set([id]);
  while (current && current.parent !== null && nodes.has(current.parent) && !seen.has(current.parent)) {
    chain.push(current.parent);
    seen.add(current.parent);
    current = nodes.get(current.parent);
  }
  return chain;
}

const fold = (s: string) => s.trim().toLowerCase();
const keyOf = (v: unknown) => (typeof v === 'boolean' ? String(v) : typeof v === 'number' ? String(v) : typeof v === 'string' ? v : null);

function paramValues(product: Product): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const params = (product.data.params ?? []) as { name: string; value: unknown[]; searchable?: boolean }[];
  for (const param of params) {
    if (param.searchable === false || param.name === '') continue;
    const set = out.get(param.name) ?? new Set<string>();
    for (const value of param.value) {
      const key = keyOf(value);
      if (key !== null) set.add(key);
    }
    out.set(param.name, set);
  }
  return out;
}

function colorsOf(product: Product): Set<string> {
  const fashion = product.data.fashion as { colors?: { color?: string }[] } | undefined;
  return new Set((fashion?.colors ?? []).map((c) => c.color).filter((c): c is string => typeof c === 'string' && c.trim() !== '').map(fold));
}

function sizesOf(product: Product): Set<string> {
  const fashion = product.data.fashion as { sizes?: unknown[] } | undefined;
  return new Set((fashion?.sizes ?? []).map(keyOf).filter((s): s is string => s !== null && s.trim() !== '').map(fold));
}

function categoriesOf(catalog: ReferenceCatalog, product: Product): Set<string> {
  return new Set(product.categories.flatMap((id) => (catalog.categories.has(id) ? lineage(catalog.categories, id) : [id])));
}

// How a product is shown: its price, oldprice and discount, and the location whose offer set them.
type Shown = { price: number; oldprice: number | null; discount: number; location: string | null };

export type ReferenceAnswer = {
  ids: string[];
  shown: Shown[]; // the page's products, as ids
  total: number;
  facets: Record<string, Record<string, number>>; // dimension → value → count
  present: Record<string, number>; // param → products with any of its values
  stats: ReferenceStats | null;
  locations: string[];
};

function searchScore(catalog: ReferenceCatalog, product: Product, text: string, scope: SearchField[]): number | null {
  const words = referenceQueryWords(text);
  if (words.length === 0) return null;
  const book = (product.data.book ?? {}) as Record<string, unknown>;
  const fieldText: Record<SearchField, string[]> = {
    name: [String(product.data.name ?? '')],
    brand: product.brand && product.brand.trim() !== '' ? [product.brand] : [],
    model: typeof product.data.model === 'string' ? [product.data.model] : [],
    categories: [...categoriesOf(catalog, product)].map((id) => catalog.categories.get(id)?.name ?? id),
    params: [...paramValues(product).values()].flatMap((set) => [...set]),
    author: typeof book.author === 'string' ? [book.author] : [],
    publisher: typeof book.publisher === 'string' ? [book.publisher] : [],
    illustrator: typeof book.illustrator === 'string' ? [book.illustrator] : [],
    editor: typeof book.editor === 'string' ? [book.editor] : [],
    series: typeof book.series === 'string' ? [book.series] : [],
  };
  let score = 0;
  for (let i = 0; i < words.length; i++) {
    const last = i === words.length - 1;
    let best = 0;
    for (const field of scope) {
      const found = fieldText[field].some((t) => referenceWords(t).some((w) => (last ? w.startsWith(words[i]) : w === words[i])));
      if (found) best = Math.max(best, WEIGHT[field]);
    }
    if (best === 0) return null;
    score += best;
  }
  return score;
}

export function referenceListing(catalog: ReferenceCatalog, q: ListingQuery): ReferenceAnswer {
  const expandedLocations = new Set<string>();
  for (const [id] of catalog.locations) {
    if (lineage(catalog.locations, id).some((above) => q.locations.includes(above))) expandedLocations.add(id);
  }
  for (const product of catalog.products) for (const o of product.offers) if (!catalog.locations.has(o.location) && q.locations.includes(o.location)) expandedLocations.add(o.location);

  const anyMerchants = catalog.products.some((p) => (p.merchants ?? []).length > 0);
  const shown = new Map<string, Shown>();
  const scores = new Map<string, number>();

  // Filters every facet sees.
  const common = catalog.products.filter((p) => {
    if (q.available && !p.available) return false;
    if (q.exclude.includes(p.id)) return false;
    if (q.categories.length && !q.categories.some((c) => categoriesOf(catalog, p).has(c))) return false;
    let view: Shown = { price: p.price, oldprice: p.oldprice, discount: p.discount_percent, location: null };
    if (q.locations.length && p.offers.length) {
      const here = p.offers.filter((o) => expandedLocations.has(o.location)).sort((a, b) => a.price - b.price || (a.location < b.location ? -1 : 1));
      if (here.length === 0) return false;
      view = { price: here[0].price, oldprice: here[0].oldprice, discount: here[0].discount, location: here[0].location };
    }
    shown.set(p.id, view);
    if (anyMerchants) {
      const mine = (p.merchants ?? []).map(fold);
      if (q.merchants.length && !q.merchants.some((m) => mine.includes(fold(m)))) return false;
      if (q.excludedMerchants.some((m) => mine.includes(fold(m)))) return false;
    }
    if (q.priceMin !== null && view.price < q.priceMin) return false;
    if (q.priceMax !== null && view.price > q.priceMax) return false;
    if (q.discount !== null && view.discount > 0 !== q.discount) return false;
    if (q.searchQuery) {
      const score = searchScore(catalog, p, q.searchQuery, q.searchScope);
      if (score === null) return false;
      scores.set(p.id, score);
    }
    return true;
  });

  // Filters on facet dimensions, by dimension.
  const own: Record<string, (p: Product) => boolean> = {};
  if (q.brands.length || q.excludedBrands.length) {
    own.brand = (p) => {
      const brand = p.brand && p.brand.trim() !== '' ? fold(p.brand) : null;
      if (q.brands.length && (brand === null || !q.brands.map(fold).includes(brand))) return false;
      return !(brand !== null && q.excludedBrands.map(fold).includes(brand));
    };
  }
  if (q.colors.length) own.color = (p) => q.colors.some((c) => colorsOf(p).has(fold(c)));
  if (q.sizes.length) own.size = (p) => q.sizes.some((s) => sizesOf(p).has(fold(s)));
  for (const [name, values] of q.filters) own[`param:${name}`] = (p) => values.some((v) => paramValues(p).get(name)?.has(v) ?? false);

  const passing = (except: string | null) => common.filter((p) => Object.entries(own).every(([dim, test]) => dim === except || test(p)));
  const unit = (p: Product) => (q.collapse && p.group_id !== null ? `g:${p.group_id}` : `p:${p.id}`);
  const matched = passing(null);

  const facets: Record<string, Record<string, number>> = {};
  const present: Record<string, number> = {};
  const countDim = (dim: string, valuesOf: (p: Product) => Iterable<string>) => {
    // Value counts leave out the dimension's own selection; "products with it" counts the result.
    const products = own[dim] ? passing(dim) : matched;
    const units = new Map<string, Set<string>>();
    for (const p of products) {
      for (const value of valuesOf(p)) {
        if (!units.has(value)) units.set(value, new Set());
        units.get(value)!.add(unit(p));
      }
    }
    facets[dim] = Object.fromEntries([...units].map(([value, set]) => [value, set.size]));
    if (dim.startsWith('param:')) present[dim.slice(6)] = new Set(matched.filter((p) => [...valuesOf(p)].length > 0).map(unit)).size;
  };
  countDim('category', (p) => categoriesOf(catalog, p));
  countDim('brand', (p) => (p.brand && p.brand.trim() !== '' ? [fold(p.brand)] : []));
  countDim('color', colorsOf);
  countDim('size', sizesOf);
  const paramNames = new Set(catalog.products.flatMap((p) => [...paramValues(p).keys()]));
  for (const name of paramNames) countDim(`param:${name}`, (p) => paramValues(p).get(name) ?? []);

  const sortValue = (p: Product): number => {
    switch (q.sortBy) {
      case 'price':
        return shown.get(p.id)!.price;
      case 'discount':
        return shown.get(p.id)!.discount;
      case 'date':
        return p.date;
      case 'price_margin':
        return p.price_margin ?? NaN;
      case 'rating':
        return p.rating ?? NaN;
      case 'relevance':
        return scores.get(p.id)!;
      default:
        return p.sales_rate;
    }
  };
  const ordered = [...matched].sort((a, b) => {
    const x = sortValue(a);
    const y = sortValue(b);
    if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
    if (!Number.isNaN(x) && x !== y) return q.sortDir === 'asc' ? x - y : y - x;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const seen = new Set<string>();
  const reps = ordered.filter((p) => {
    if (seen.has(unit(p))) return false;
    seen.add(unit(p));
    return true;
  });

  const locations: string[] = [];
  for (const [id] of catalog.locations) {
    if (q.locations.length && !expandedLocations.has(id)) continue;
    const inStock = matched.some(
      (p) => p.offers.length === 0 || p.offers.some((o) => (!q.locations.length || expandedLocations.has(o.location)) && lineage(catalog.locations, o.location).includes(id)),
    );
    if (inStock) locations.push(id);
  }

  const from = (q.page - 1) * q.limit;
  const page = q.page * q.limit > MAX_DEPTH ? [] : reps.slice(from, from + q.limit);
  return {
    ids: page.map((p) => p.id),
    shown: page.map((p) => shown.get(p.id)!),
    total: reps.length,
    facets,
    present,
    stats: referencePriceStats(reps.map((p) => shown.get(p.id)!.price)),
    locations: locations.sort(),
  };
}

// --- The response's blocks (spec 2.10, CONTRACT §4, decisions "Listing") ---

export type ReferenceResponse = {
  products_total: number;
  price_range: { min: number; max: number };
  price_ranges: ReferenceBucket[];
  price_median: number;
  products: string[];
  categories: { id: string; count: number }[];
  brands: { name: string; count: number }[];
  industrial_filters: { fashion_sizes: { size: string; count: number }[]; colors: { color: string; count: number }[] };
  // In their order: [name, {count, priority, values (in order), ranges}].
  filters: [string, { count: number; priority: number; values: [string, number][]; ranges?: { min: number; max: number } }][];
  locations: string[];
};

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * How a case-folded value (brand, colour, size) is shown: as spelt by the product with the lowest
 * price, then the lowest id, of the whole catalog; of two spellings on one product, the first in
 * code-unit order (decisions "Params").
 */
function spellings(catalog: ReferenceCatalog, valuesOf: (p: Product) => string[]): Map<string, string> {
  const shown = new Map<string, string>();
  const products = [...catalog.products].sort((a, b) => a.price - b.price || byText(a.id, b.id));
  // Shown without the blanks around it (decisions "Structure (issue 39)").
  for (const p of products) for (const spelling of valuesOf(p).map((value) => value.trim()).sort(byText)) if (!shown.has(fold(spelling))) shown.set(fold(spelling), spelling);
  return shown;
}

/** A param's priority (the highest sent for it, 0 when none is) and whether it is numeric (every value a number or a decimal numeral). */
function paramKinds(catalog: ReferenceCatalog): Map<string, { priority: number; numeric: boolean }> {
  const kinds = new Map<string, { priority: number | null; numeric: boolean }>();
  for (const product of catalog.products) {
    for (const param of (product.data.params ?? []) as { name: string; value: unknown[]; priority?: number; searchable?: boolean }[]) {
      if (param.searchable === false || param.name === '') continue;
      const kind = kinds.get(param.name) ?? { priority: null, numeric: true };
      if (typeof param.priority === 'number') kind.priority = Math.max(kind.priority ?? -Infinity, param.priority);
      // A number, a decimal numeral, or the text a number is written as (matching that number: "1e-7" is 1e-7).
      const numeral = (v: string) => /^-?[0-9]+(\.[0-9]+)?$/.test(v) || (Number.isFinite(Number(v)) && String(Number(v)) === v);
      if (!param.value.every((v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && numeral(v)))) kind.numeric = false;
      kinds.set(param.name, kind);
    }
  }
  return new Map([...kinds].map(([name, kind]) => [name, { priority: kind.priority ?? 0, numeric: kind.numeric }]));
}

/** The answer's blocks as the listing shapes them, from the reference's answer to `q`. */
export function referenceResponse(catalog: ReferenceCatalog, q: ListingQuery): ReferenceResponse {
  const answer = referenceListing(catalog, q);
  const counted = (dim: string) => Object.entries(answer.facets[dim] ?? {}).filter(([, count]) => count > 0);
  const byCount = <T extends { count: number }>(label: (entry: T) => string) => (a: T, b: T) => b.count - a.count || byText(label(a), label(b));
  const brandNames = spellings(catalog, (p) => (p.brand && p.brand.trim() !== '' ? [p.brand] : []));
  const colorNames = spellings(catalog, (p) => ((p.data.fashion as { colors?: { color?: unknown }[] } | undefined)?.colors ?? []).map((c) => c.color).filter((c): c is string => typeof c === 'string' && c.trim() !== ''));
  const sizeNames = spellings(catalog, (p) => ((p.data.fashion as { sizes?: unknown[] } | undefined)?.sizes ?? []).map(keyOf).filter((s): s is string => s !== null && s.trim() !== ''));
  const named = (names: Map<string, string>, dim: string) => counted(dim).map(([key, count]) => ({ name: names.get(key) ?? key, count })).sort(byCount((e) => e.name));

  const kinds = paramKinds(catalog);
  const filters: ReferenceResponse['filters'] = [];
  for (const [name, kind] of kinds) {
    const values = counted(`param:${name}`);
    if (values.length === 0) continue;
    const numbers = values.map(([key]) => Number(key));
    filters.push([
      name,
      {
        count: answer.present[name] ?? 0,
        priority: kind.priority,
        values: kind.numeric ? [] : values.sort((a, b) => b[1] - a[1] || byText(a[0], b[0])),
        ...(kind.numeric ? { ranges: { min: Math.min(...numbers), max: Math.max(...numbers) } } : {}),
      },
    ]);
  }
  const order = q.filtersSearchBy;
  filters.sort(([an, a], [bn, b]) => {
    if (order === 'name') return byText(an, bn);
    if (order === 'quantity') return b.count - a.count || byText(an, bn);
    return b.priority - a.priority || b.count - a.count || byText(an, bn);
  });

  return {
    products_total: answer.total,
    price_range: answer.stats?.range ?? { min: 0, max: 0 },
    price_ranges: answer.stats?.ranges ?? [],
    price_median: answer.stats?.median ?? 0,
    products: answer.ids,
    categories: counted('category')
      .filter(([id]) => catalog.categories.has(id))
      .map(([id, count]) => ({ id, count }))
      .sort(byCount((e) => e.id))
      .slice(0, q.categoryLimit),
    brands: named(brandNames, 'brand').slice(0, q.brandLimit),
    industrial_filters: {
      fashion_sizes: named(sizeNames, 'size').map(({ name, count }) => ({ size: name, count })),
      colors: named(colorNames, 'color').map(({ name, count }) => ({ color: name, count })),
    },
    filters,
    locations: answer.locations,
  };
}
