import { AppError } from '@/lib/http/errors';
import { SEARCH_FIELDS, SEARCH_SCOPES, type SearchField } from './search-text';

// The listing's parameters (spec 4.7, CONTRACT §4), read the same from a GET query string and a
// POST JSON body. Every malformed value is a 400 that names its parameter.

export const SORT_KEYS = ['sales_rate', 'price', 'discount', 'date', 'price_margin', 'rating', 'relevance'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export type ListingQuery = {
  shopId: string;
  did: string | null;
  sid: string | null;
  email: string | null;
  categories: string[];
  locations: string[];
  brands: string[];
  excludedBrands: string[];
  merchants: string[];
  excludedMerchants: string[];
  colors: string[];
  sizes: string[];
  exclude: string[];
  filters: Map<string, string[]>;
  priceMin: number | null;
  priceMax: number | null;
  discount: boolean | null;
  available: boolean;
  sortBy: SortKey;
  sortDir: 'asc' | 'desc';
  collapse: boolean;
  extended: boolean | null; // null: not sent (the shop's setting decides)
  debug: boolean;
  limit: number;
  page: number;
  brandLimit: number;
  categoryLimit: number;
  filtersSearchBy: 'popularity' | 'name' | 'quantity';
  searchQuery: string | null;
  searchScope: SearchField[];
  v2: boolean;
};

export const MAX_LIMIT = 1000;
export const MAX_DEPTH = 10_000;

// CONTRACT §4: values encoded twice keep escapes of reserved characters after the normal decoding.
const RESERVED_ESCAPE = /%(2C|3A|2F|3F|23|26|3D|2B|24|3B|40)/gi;

export function decodeTwiceEncoded(value: string): string {
  return value.replace(RESERVED_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A GET's parameters: decoded once more where still escaped; `?=…` (Android SDK) is `filters`. */
export function paramsFromSearch(search: URLSearchParams): Map<string, string> {
  const params = new Map<string, string>();
  for (const [key, value] of search) {
    if (!params.has(key)) params.set(key, decodeTwiceEncoded(value));
  }
  const anonymous = params.get('');
  if (anonymous !== undefined && !params.has('filters')) params.set('filters', anonymous);
  return params;
}

// Fields a storefront read knows (listing, init, collections); a body's other fields are ignored.
const KNOWN_FIELDS = new Set([
  'shop_id', 'did', 'sid', 'seance', 'email', 'phone', 'external_id', 'loyalty_id', 'telegram_id', 'location',
  'categories', 'locations', 'brands', 'excluded_brands', 'merchants', 'excluded_merchants', 'sort_by', 'sort_dir',
  'price_min', 'price_max', 'colors', 'fashion_sizes', 'exclude', 'search_scope', 'search_query', 'discount', 'debug',
  'collapse', 'extended', 'available', 'filters_search_by', 'brand_limit', 'category_limit', 'limit', 'page', 'filters', 'format',
]);

const scalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A POST body's fields as the same strings a query string would carry. */
export function paramsFromBody(body: unknown): Map<string, string> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('VALIDATION', 'Request body must be a JSON object');
  const params = new Map<string, string>();
  for (const [key, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    if (key === 'filters' || key === '') {
      // Kept as the JSON text the query string would carry; its shape is checked with the rest.
      try {
        params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
      } catch {
        throw new AppError('VALIDATION', 'filters must be a JSON object of arrays');
      }
      continue;
    }
    if (!KNOWN_FIELDS.has(key)) continue;
    if (scalar(value)) params.set(key, String(value));
    else if (Array.isArray(value) && value.every(scalar)) params.set(key, value.map(String).join(','));
    else throw new AppError('VALIDATION', `${key} must be a string or a list of strings`);
  }
  const anonymous = params.get('');
  if (anonymous !== undefined && !params.has('filters')) params.set('filters', anonymous);
  return params;
}

function list(params: Map<string, string>, name: string): string[] {
  const raw = params.get(name);
  if (!raw) return [];
  return raw
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
}

function flag(params: Map<string, string>, name: string): boolean | null {
  const raw = params.get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return null;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new AppError('VALIDATION', `${name} must be true or false`);
}

function number(params: Map<string, string>, name: string): number | null {
  const raw = params.get(name)?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^-?\d+(\.\d+)?$/.test(raw)) throw new AppError('VALIDATION', `${name} must be a number`);
  return Number(raw);
}

function wholeNumber(params: Map<string, string>, name: string, fallback: number, min: number): number {
  const raw = params.get(name)?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new AppError('VALIDATION', `${name} must be a whole number`);
  const value = Number(raw);
  if (value < min) throw new AppError('VALIDATION', `${name} must be at least ${min}`);
  return value;
}

function oneOf<T extends string>(params: Map<string, string>, name: string, allowed: readonly T[], fallback: T): T {
  const raw = params.get(name)?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new AppError('VALIDATION', `${name} must be one of ${allowed.join(', ')}`);
  return raw as T;
}

function filtersOf(params: Map<string, string>): Map<string, string[]> {
  const raw = params.get('filters');
  const filters = new Map<string, string[]>();
  if (raw === undefined || raw.trim() === '') return filters;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AppError('VALIDATION', 'filters must be a JSON object of arrays');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new AppError('VALIDATION', 'filters must be a JSON object of arrays');
  for (const [name, values] of Object.entries(parsed)) {
    const array = Array.isArray(values) ? values : null;
    if (!array || !array.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) {
      throw new AppError('VALIDATION', `filters.${name} must be an array of strings`);
    }
    if (array.length > 0) filters.set(name, array.map(String));
  }
  return filters;
}

function scopeOf(params: Map<string, string>): SearchField[] {
  const names = list(params, 'search_scope');
  if (names.length === 0) return [...SEARCH_FIELDS];
  const fields = new Set<SearchField>();
  for (const name of names.map((n) => n.toLowerCase())) {
    const scope = Object.hasOwn(SEARCH_SCOPES, name) ? SEARCH_SCOPES[name] : undefined;
    if (scope) scope.forEach((field) => fields.add(field));
    else if ((SEARCH_FIELDS as readonly string[]).includes(name)) fields.add(name as SearchField);
    else throw new AppError('VALIDATION', `search_scope must list general, books or ${SEARCH_FIELDS.join(', ')}`);
  }
  return [...fields];
}

export function parseListingQuery(params: Map<string, string>, headers?: Headers): ListingQuery {
  const shopId = params.get('shop_id')?.trim();
  if (!shopId) throw new AppError('VALIDATION', 'shop_id is required');
  const did = params.get('did')?.trim() || null;
  const sid = params.get('sid')?.trim() || params.get('seance')?.trim() || null;
  const email = params.get('email')?.trim() || null;
  if (!email && !(did && sid)) throw new AppError('VALIDATION', 'did and sid are required (or email)');

  const searchQuery = params.get('search_query')?.trim() || null;
  const sortBy = oneOf(params, 'sort_by', [...SORT_KEYS, 'popular'] as const, searchQuery ? 'relevance' : 'sales_rate');
  if (sortBy === 'relevance' && !searchQuery) throw new AppError('VALIDATION', 'sort_by=relevance needs a search_query');
  const priceMin = number(params, 'price_min');
  const priceMax = number(params, 'price_max');
  return {
    shopId,
    did,
    sid,
    email,
    categories: list(params, 'categories'),
    locations: list(params, 'locations'),
    brands: list(params, 'brands'),
    excludedBrands: list(params, 'excluded_brands'),
    merchants: list(params, 'merchants'),
    excludedMerchants: list(params, 'excluded_merchants'),
    colors: list(params, 'colors'),
    sizes: list(params, 'fashion_sizes'),
    exclude: list(params, 'exclude'),
    filters: filtersOf(params),
    priceMin,
    priceMax,
    discount: flag(params, 'discount'),
    available: flag(params, 'available') ?? true,
    // `popular` is obsolete: accepted and ignored (CONTRACT §4).
    sortBy: sortBy === 'popular' ? (searchQuery ? 'relevance' : 'sales_rate') : sortBy,
    sortDir: oneOf(params, 'sort_dir', ['asc', 'desc'] as const, 'desc'),
    collapse: flag(params, 'collapse') ?? true,
    extended: flag(params, 'extended'),
    debug: flag(params, 'debug') ?? false,
    limit: Math.min(wholeNumber(params, 'limit', 24, 0), MAX_LIMIT),
    page: wholeNumber(params, 'page', 1, 1),
    brandLimit: wholeNumber(params, 'brand_limit', 1000, 0),
    categoryLimit: wholeNumber(params, 'category_limit', 1000, 0),
    filtersSearchBy: oneOf(params, 'filters_search_by', ['popularity', 'name', 'quantity'] as const, 'popularity'),
    searchQuery,
    searchScope: scopeOf(params),
    v2: params.get('format')?.trim().toLowerCase() === 'v2' || headers?.get('accept-version')?.trim() === '2',
  };
}
