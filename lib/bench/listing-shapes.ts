import { paramsFromSearch, parseListingQuery, type ListingQuery } from '@/lib/listing/query';

// The listing benchmark's query shapes (issue: listing), as a storefront sends them, over the
// synthetic catalog. Shared by `bench:listing` and `bin/bench/measure-queries.ts`.

export const LISTING_SHAPES: [name: string, query: string][] = [
  ['unfiltered', ''],
  ['top category', 'categories=3'],
  ['deep category', 'categories=3.2.1'],
  ['brands', 'brands=Brand 1,Brand 7,Brand 30'],
  ['location', 'locations=s1c2'],
  ['location by price', 'locations=s1c2&sort_by=price&sort_dir=asc'],
  ['two params', `filters=${JSON.stringify({ param_10: ['param_10_v3'], param_11: ['param_11_v5', 'param_11_v6'] })}`],
  ['price range', 'price_min=1000&price_max=5000'],
  ['discount', 'discount=true'],
  ['collapse off', 'collapse=false'],
  ['sort price asc', 'sort_by=price&sort_dir=asc'],
  ['sort price desc', 'sort_by=price'],
  ['sort discount', 'sort_by=discount'],
  ['sort date', 'sort_by=date'],
  ['sort price_margin', 'sort_by=price_margin&sort_dir=asc'],
  ['sort rating', 'sort_by=rating'],
  ['page 50', 'page=50'],
  ['search', 'search_query=premium wo'],
];

export function shapeQuery(shopId: string, shape: string): ListingQuery {
  return parseListingQuery(paramsFromSearch(new URLSearchParams(`shop_id=${shopId}&did=bench&sid=bench&${shape}`)));
}
