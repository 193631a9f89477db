// How the storefront's parameters read to a merchandiser, and where their errors show.

export const SORTS = [
  { value: '', label: 'Best sellers' },
  { value: 'price:asc', label: 'Price: low to high' },
  { value: 'price:desc', label: 'Price: high to low' },
  { value: 'discount:desc', label: 'Biggest discount' },
  { value: 'date:desc', label: 'Newest' },
  { value: 'rating:desc', label: 'Best rated' },
  { value: 'price_margin:desc', label: 'Highest margin' },
  { value: 'sales_rate:asc', label: 'Least sold' },
  { value: 'relevance:desc', label: 'Relevance to the search' },
] as const;

/** The control an API error names: the first listing parameter its message mentions. */
export function controlOf(message: string): string {
  const named = /\b(search_query|categories|locations|brands|price_min|price_max|sort_by|sort_dir|filters|colors|fashion_sizes|page|limit)\b/.exec(message);
  return named ? (named[1] === 'sort_dir' ? 'sort_by' : named[1]) : 'general';
}

/** The storefront request behind the preview: what a shop's developer would send. */
export function storefrontUrl(origin: string, shopId: string, search: URLSearchParams): string {
  const params = new URLSearchParams({ shop_id: shopId, did: 'DEVICE_ID', sid: 'SESSION_ID', extended: 'true' });
  for (const [key, value] of search) if (key !== 'view') params.set(key, value);
  return `${origin}/products?${params}`;
}
