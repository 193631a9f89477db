import type { CatalogShape } from './catalog-shapes';
import { mulberry32 } from './random';

// Listing queries a storefront's visitors send, drawn for a catalog shape: each a combination of
// a category, brands, a param, a price range, a city, a search, a sort and a page, most of them
// rare (real traffic is mostly queries never seen before, so nothing computed per query and kept
// carries it). Deterministic for a seed. Also the named query shapes every benchmark times.


const SORTS = ['', '', '', 'sort_by=price&sort_dir=asc', 'sort_by=price', 'sort_by=discount', 'sort_by=date', 'sort_by=rating', 'sort_by=sales_rate&sort_dir=asc'];
const PRICES: [number, number][] = [
  [0, 50],
  [20, 100],
  [50, 300],
  [100, 1000],
  [500, 5000],
  [1000, 20000],
];

/** `count` distinct query strings (without shop_id, did, sid) for the shape's catalog. */
export function storefrontQueries(shape: CatalogShape, count: number, seed = 1): string[] {
  const rnd = mulberry32(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const { facets } = shape;
  const out = new Set<string>();
  for (let tries = 0; out.size < count && tries < count * 20; tries++) {
    const parts: string[] = [];
    const roll = rnd();
    // Most visitors are in a category; a few browse everything or search.
    if (roll < 0.55) parts.push(`categories=${encodeURIComponent(pick(facets.categories))}`);
    else if (roll < 0.8) parts.push(`categories=${encodeURIComponent(pick(facets.topCategories))}`);
    else if (roll < 0.9 && facets.words.length > 0) parts.push(`search_query=${encodeURIComponent(pick(facets.words))}`);
    if (rnd() < 0.25) parts.push(`brands=${encodeURIComponent(rnd() < 0.7 ? pick(facets.brands) : `${pick(facets.brands)},${pick(facets.brands)}`)}`);
    if (rnd() < 0.3 && facets.params.length > 0) {
      const [name, values] = pick(facets.params);
      const chosen = rnd() < 0.6 ? [pick(values)] : [pick(values), pick(values)];
      parts.push(`filters=${encodeURIComponent(JSON.stringify({ [name]: [...new Set(chosen)] }))}`);
    }
    if (rnd() < 0.2) {
      const [min, max] = pick(PRICES);
      parts.push(`price_min=${min}&price_max=${max}`);
    }
    if (rnd() < 0.3 && facets.cities.length > 0) parts.push(`locations=${encodeURIComponent(pick(facets.cities))}`);
    const sort = pick(SORTS);
    if (sort) parts.push(sort);
    const pageRoll = rnd();
    if (pageRoll > 0.6) parts.push(`page=${pageRoll > 0.95 ? 10 + Math.floor(rnd() * 30) : 2 + Math.floor(rnd() * 6)}`);
    out.add(parts.join('&'));
  }
  return [...out];
}

/** Named query shapes for the shape's catalog: each timed on its own (p95 per shape). */
export function namedQueryShapes(shape: CatalogShape): [name: string, query: string][] {
  const { facets } = shape;
  const [paramName, paramValues] = facets.params[0];
  const city = facets.cities[0];
  const shapes: [string, string][] = [
    ['unfiltered', ''],
    ['top category', `categories=${encodeURIComponent(facets.topCategories[1 % facets.topCategories.length])}`],
    ['leaf category', `categories=${encodeURIComponent(facets.categories[7 % facets.categories.length])}`],
    ['brands', `brands=${encodeURIComponent(facets.brands.slice(0, 3).join(','))}`],
    ['param', `filters=${encodeURIComponent(JSON.stringify({ [paramName]: paramValues.slice(0, 2) }))}`],
    ['price range', 'price_min=100&price_max=1000'],
    ['discount', 'discount=true'],
    ['sort price asc', 'sort_by=price&sort_dir=asc'],
    ['sort discount', 'sort_by=discount'],
    ['page 20', 'page=20'],
    ['search', `search_query=${encodeURIComponent(facets.words[0])}`],
    ['param+price+discount sort', `filters=${encodeURIComponent(JSON.stringify({ [paramName]: [paramValues[0]] }))}&price_min=50&price_max=2000&sort_by=discount`],
  ];
  if (city) {
    shapes.push(['location', `locations=${encodeURIComponent(city)}`]);
    shapes.push(['location page 3', `locations=${encodeURIComponent(city)}&page=3`]);
    shapes.push(['location by price', `locations=${encodeURIComponent(city)}&sort_by=price&sort_dir=asc`]);
  }
  return shapes;
}
