import { storedOffers } from '@/lib/catalog/stored-offers';
import type { AppContext } from '@/lib/runtime/context';
import { storefrontShop } from '@/lib/shops/storefront-shop';
import { productCard, templateCard, type CardContext } from '@/lib/storefront/product-card';
import { priceFormat } from '@/lib/storefront/prices';
import { DEFAULT_LISTING_TEMPLATE, isDefaultListingTemplate, renderTemplateKept } from '@/lib/storefront/templates';
import { DIM_BRAND, DIM_CATEGORY, DIM_COLOR, DIM_SIZE, FIRST_PARAM_DIM, idOf, type ShopIndex } from './indexing';
import { keptUtf8, type FacetBlocks } from './index-memo';
import { runListing, type EngineResult } from './engine';
import { indexFor, searchIndexFor, setIndexBudget } from './index-store';
import { categoryLinks } from './category-links';
import { labelOrder, numberOrder } from './facet-order';
import { withReadSlot } from './in-flight';
import { objectJson, plainKeys } from './object-json';
import { parseListingQuery, type ListingQuery } from './query';
import { searchDocuments } from './search';
import { storedProducts, type KeptProduct } from './stored-products';
import { metrics, shopSizeBucket } from '@/lib/runtime/metrics';

// GET/POST /products: parse, answer from the shop's index, fetch the page's products, shape the
// response of spec 2.10 (CONTRACT §4).

/**
 * A dimension's values counted in the result, by count then label in code-unit order (then value
 * number); their counts are the result's. Numeric params get none: their filter is a range
 * (numericRange), and a catalog's weights and sizes are most of its values (a value list of each
 * made every answer walk and sort ~100,000 facets).
 */
type Counted = Int32Array;

const NONE: Counted = new Int32Array(0);

/**
 * Whether a dimension may have values counted in the result. A param dimension's presence is 0
 * when none of its values is, unless a filter selects it: its values are then counted without
 * that filter (disjunctive) while its presence is the result's. Presence is not counted below the
 * params (brands, categories, colors, sizes).
 */
function mayBeCounted(index: ShopIndex, query: ListingQuery, result: EngineResult, dim: number): boolean {
  return dim < FIRST_PARAM_DIM || result.present[dim] > 0 || query.filters.has(index.dims[dim].key);
}

function countedByDim(index: ShopIndex, query: ListingQuery, result: EngineResult): Counted[] {
  return index.dims.map((dimension, dim) => (dimension.numeric || !mayBeCounted(index, query, result, dim) ? NONE : countedValues(index, result.counts, dim)));
}

// Scratch for countedValues (answers are made one at a time on the serving thread).
let countedRanks = new Int32Array(1024);
let countedCounts = new Int32Array(1024);
let sortKeys = new Float64Array(1024);

/**
 * The dimension's counted values in their order (see Counted). Sorted as numbers, each value's
 * key its count's distance from the largest and its label's rank: sorting objects with a
 * comparator was most of shaping the facet blocks.
 */
function countedValues(index: ShopIndex, counts: Int32Array, dim: number): Counted {
  const from = index.dimValues[dim];
  const span = index.dimValues[dim + 1] - from;
  if (countedRanks.length < span) {
    countedRanks = new Int32Array(span);
    countedCounts = new Int32Array(span);
    sortKeys = new Float64Array(span);
  }
  const { byRank, rankOf } = labelOrder(index, dim); // places within the dimension
  let found = 0;
  let most = 0;
  for (let i = 0; i < span; i++) {
    const count = counts[from + i];
    if (count === 0) continue;
    countedRanks[found] = rankOf[i];
    countedCounts[found++] = count;
    if (count > most) most = count;
  }
  // Exact in a double: (most + 1) × span stays far below 2^53 (counts and values are each under 2^31).
  for (let i = 0; i < found; i++) sortKeys[i] = (most - countedCounts[i]) * span + countedRanks[i];
  const sorted = sortKeys.subarray(0, found).sort();
  const values = new Int32Array(found);
  for (let i = 0; i < found; i++) values[i] = from + byRank[sorted[i] % span];
  return values;
}

/**
 * The least and greatest value of a numeric param counted in the result, or null when none is:
 * the first and last counted in the order of their numbers (a broad result has both near the
 * ends; every value was read before, ~100,000 of them per answer in a retail catalog).
 */
function numericRange(index: ShopIndex, result: EngineResult, dim: number): { min: number; max: number } | null {
  const { counts } = result;
  const order = numberOrder(index, dim); // places within the dimension
  const from = index.dimValues[dim];
  let low = 0;
  while (low < order.length && counts[from + order[low]] === 0) low++;
  if (low === order.length) return null;
  let high = order.length - 1;
  while (counts[from + order[high]] === 0) high--;
  return { min: index.valueNumber[from + order[low]], max: index.valueNumber[from + order[high]] };
}

/**
 * The answer's `filters` as JSON: each param with values counted in the result, in the order
 * asked for. Written as text (a values object per param, made and stringified, was a third of
 * shaping an answer), exactly as JSON.stringify writes the objects it stands for: keys that are
 * array indexes ("42") come first in ascending order, a repeated key keeps its first place and its
 * last value (objectJson).
 */
function filtersOf(index: ShopIndex, query: ListingQuery, result: EngineResult, counted: Counted[]): string {
  const entries: { name: string; count: number; priority: number; dim: number; range: { min: number; max: number } | null }[] = [];
  for (let dim = FIRST_PARAM_DIM; dim < index.dims.length; dim++) {
    const dimension = index.dims[dim];
    if (!mayBeCounted(index, query, result, dim)) continue;
    const range = dimension.numeric ? numericRange(index, result, dim) : null;
    if (dimension.numeric ? range === null : counted[dim].length === 0) continue;
    entries.push({ name: dimension.key, count: result.present[dim], priority: dimension.priority, dim, range });
  }
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const order = query.filtersSearchBy;
  entries.sort((a, b) => {
    if (order === 'name') return byName(a, b);
    if (order === 'quantity') return b.count - a.count || byName(a, b);
    return b.priority - a.priority || b.count - a.count || byName(a, b);
  });
  return objectJson(
    entries.map((entry) => entry.name),
    entries.map(({ count, priority, dim, range }) => {
      const head = `{"count":${JSON.stringify(count)},"priority":${JSON.stringify(priority)},"values":`;
      return range ? `${head}{},"ranges":${JSON.stringify(range)}}` : `${head}${valuesJson(index, result.counts, dim, counted[dim])}}`;
    }),
  );
}

/** `{label: count, …}` for a dimension's counted values, in their order. */
function valuesJson(index: ShopIndex, counts: Int32Array, dim: number, values: Counted): string {
  const labels = (index.memo.labelJson ??= []);
  const plain = (index.memo.plainLabelDims ??= []);
  // Most dimensions' labels are all distinct and none is an array index: written in order.
  plain[dim] ??= plainKeys(Array.from({ length: index.dimValues[dim + 1] - index.dimValues[dim] }, (_, i) => index.valueLabel[index.dimValues[dim] + i]));
  if (!plain[dim]) return objectJson(Array.from(values, (value) => index.valueLabel[value]), Array.from(values, (value) => String(counts[value])));
  let out = '{';
  for (let i = 0; i < values.length; i++) out += `${i === 0 ? '' : ','}${(labels[values[i]] ??= `${JSON.stringify(index.valueLabel[values[i]])}:`)}${counts[values[i]]}`;
  return `${out}}`;
}

/** The stock of each page product at the location that priced it, from the offers stored with it. */
function offerStock(stored: Map<string, KeptProduct>, pairs: { id: string; location: string }[]): Map<string, number | null> {
  const stock = new Map<string, number | null>();
  for (const { id, location } of pairs) {
    const offer = storedOffers(stored.get(id)?.offers ?? null).find(([at]) => at === location);
    if (offer) stock.set(`${id}\u0000${location}`, offer[4]);
  }
  return stock;
}

const LISTING_TRACKING = { recommended_by: 'listing' };

export type ListingRequest = { params: Map<string, string>; headers?: Headers; origin: string };

/** The listing's answer as JSON, UTF-8 encoded (503 while too many reads run: in-flight.ts). */
export function listProducts(ctx: AppContext, request: ListingRequest): Promise<Uint8Array[]> {
  return withReadSlot(ctx.settings.listing, () => listingAnswer(ctx, request));
}

async function listingAnswer(ctx: AppContext, request: ListingRequest): Promise<Uint8Array[]> {
  const started = performance.now();
  const query = parseListingQuery(request.params, request.headers);
  const shop = await storefrontShop(ctx.sql, query.shopId);
  setIndexBudget(ctx.settings.listing.memoryBytes);
  const index = await indexFor(ctx.sql, shop.id);
  const search = query.searchQuery ? searchDocuments(index, await searchIndexFor(index), query.searchQuery, query.searchScope) : null;
  const result = runListing(index, query, search);

  const pageIds = Array.from(result.page, (doc) => idOf(index, doc));
  const located = pageIds.flatMap((id, i) => (result.pageLocation[i] >= 0 ? [{ id, location: index.locations[result.pageLocation[i]].id }] : []));
  const stored = await storedProducts(ctx.sql, index, pageIds);
  const stock = offerStock(stored, located);
  const cardContext: CardContext = {
    format: priceFormat(shop),
    sealKey: ctx.sealKey,
    shopId: shop.id,
    origin: ctx.settings.publicUrl ?? request.origin,
    tracking: LISTING_TRACKING,
    categories: index.categories,
    categoryLink: categoryLinks(index, LISTING_TRACKING),
    maxSalesRate: index.maxSalesRate,
  };
  const extended = query.extended ?? shop.listingExtendedDefault;
  const template = shop.listingTemplate ?? DEFAULT_LISTING_TEMPLATE;
  // Without `extended`, the cards are shown only through the template: the default one needs
  // only a few of their fields (templateCard).
  const card = extended || !isDefaultListingTemplate(template) ? productCard : templateCard;
  const cards = pageIds.flatMap((id, i) => {
    const product = stored.get(id);
    if (!product) return []; // removed since this index version
    const location = result.pageLocation[i] >= 0 ? index.locations[result.pageLocation[i]].id : null;
    return [
      card(cardContext, product, {
        price: result.pagePrice[i],
        oldprice: Number.isNaN(result.pageOldprice[i]) ? null : result.pageOldprice[i],
        discount: result.pageDiscount[i],
        stockQuantity: location !== null ? (stock.get(`${id}\u0000${location}`) ?? null) : null,
      }),
    ];
  });

  const blocks = facetBlocks(index, query, result, cardContext.categoryLink);
  const stats = result.stats;
  // Written as text, when asked for: the cards' JSON is the answer's `products` and says what `html` shows.
  let cardsJson: string | undefined;
  const cardsText = () => (cardsJson ??= JSON.stringify(cards));
  const html = renderTemplateKept(
    template,
    DEFAULT_LISTING_TEMPLATE,
    () => ({ products: cards, products_total: result.total, shop: { name: shop.name } }),
    () => `${result.total}:${shop.name.length}:${shop.name}${cardsText()}`,
  );
  const head = {
    html,
    requests_count: result.requests,
    products_total: result.total,
    price_range: stats ? stats.range : { min: 0, max: 0 },
    price_ranges: stats ? stats.ranges : [],
    price_median: stats ? stats.median : 0,
  };
  const products = extended ? cardsText() : JSON.stringify(cards.map((shown) => shown.id));
  const locations = result.locations.map((number) => {
    const location = index.locations[number];
    return { id: location.id, name: location.name, type: location.type ?? '' };
  });
  // The answer is written as bytes: the facet blocks are kept encoded (see facetBlocks). One big
  // string would cost more than the rest of the answer: flattening ~300 KB of concatenated text
  // and encoding it again for the socket took ~3 ms a request.
  const v2 = query.v2 ? '{"status":"success","payload":{"listing":{"collections":[],' : '{';
  const parts: (string | Uint8Array)[] = [
    `${v2}${JSON.stringify(head).slice(1, -1)},"products":${products},"categories":`,
    blocks.categories,
    `,"locations":${JSON.stringify(locations)},"filters":`,
    blocks.filters,
    ',"industrial_filters":',
    blocks.industrial,
    ',"brands":',
    blocks.brands,
  ];
  if (result.debug) parts.push(`,"debug":${JSON.stringify({ index_version: index.version, products: result.debug })}`);
  parts.push(query.v2 ? '}}}' : '}');
  const answer = parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
  metrics().listingDuration.observe({ shop_size: shopSizeBucket(index.n) }, (performance.now() - started) / 1000);
  return answer;
}


/** Serialized facet blocks kept per index: at most this many (each up to a few hundred KB). */
const KEPT_BLOCKS = 32;

/**
 * A JSON array of at most `limit` facets, each its head (its object's JSON up to `"count":`, or
 * null to leave it out) and its count. The heads depend on the index alone and are made once per
 * index version (categoryHead, brandHead): an answer writes up to 1,000 of each block.
 */
function jsonList(values: Counted, counts: Int32Array, limit: number, head: (value: number) => string | null): string {
  let out = '[';
  let written = 0;
  for (let i = 0; i < values.length && written < limit; i++) {
    const start = head(values[i]);
    if (start === null) continue;
    out += `${written++ === 0 ? '' : ','}${start}${counts[values[i]]}}`;
  }
  return `${out}]`;
}

/** A category facet's JSON up to its count (spec 2.10's listing category), or null for an id not in the tree. */
function categoryHead(index: ShopIndex, value: number, categoryLink: CardContext['categoryLink']): string | null {
  const heads = (index.memo.categoryHeads ??= []);
  let head = heads[value];
  if (head === undefined) {
    const node = index.categories.get(index.valueKey[value]);
    if (node) {
      const link = categoryLink(node);
      const parent = node.parent !== null && index.categories.has(node.parent) ? { parent: node.parent } : {};
      const object = JSON.stringify({ id: node.id, name: node.name, url: link.url, url_handle: link.url_handle, ...parent, alias: node.alias ?? '' });
      head = `${object.slice(0, -1)},"count":`;
    } else head = null;
    heads[value] = head;
  }
  return head;
}

/** A brand facet's JSON up to its count: `{name, picture, count}` (its cheapest product's spelling and picture). */
function brandHead(index: ShopIndex, value: number): string {
  const heads = (index.memo.brandHeads ??= []);
  return (heads[value] ??= `${JSON.stringify({ name: index.valueLabel[value], picture: index.brandPicture.get(value) ?? '' }).slice(0, -1)},"count":`);
}

/**
 * The answer's categories, filters, industrial_filters and brands, serialized. They depend on the
 * facet counts (so on the filters), the limits and the filters' order only: a storefront asking
 * for the same page in another order, or the next page, gets them from the index's cache.
 */
function facetBlocks(index: ShopIndex, query: ListingQuery, result: EngineResult, categoryLink: CardContext['categoryLink']): FacetBlocks {
  const kept = (index.memo.facetBlocks ??= new Map());
  const key = `${result.countsKey}|${query.categoryLimit}|${query.brandLimit}|${query.filtersSearchBy}`;
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key); // most recently used last
    kept.set(key, hit);
    return hit;
  }
  const counted = countedByDim(index, query, result);
  const { counts } = result;
  const categories = jsonList(counted[DIM_CATEGORY], counts, query.categoryLimit, (value) => categoryHead(index, value, categoryLink));
  const brands = jsonList(counted[DIM_BRAND], counts, query.brandLimit, (value) => brandHead(index, value));
  const json = (value: unknown) => keptUtf8(typeof value === 'string' ? value : JSON.stringify(value));
  const blocks = {
    categories: json(categories),
    filters: json(filtersOf(index, query, result, counted)),
    industrial: json({
      fashion_sizes: Array.from(counted[DIM_SIZE], (value) => ({ size: index.valueLabel[value], count: counts[value] })),
      colors: Array.from(counted[DIM_COLOR], (value) => ({ color: index.valueLabel[value], count: counts[value] })),
    }),
    brands: json(brands),
  };
  kept.set(key, blocks);
  if (kept.size > KEPT_BLOCKS) kept.delete(kept.keys().next().value!);
  return blocks;
}
