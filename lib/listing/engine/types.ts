import { type Bitset } from '../indexing';
import { type SortKey } from '../query';
import { type PriceStats } from './price-stats';

// What the engine's stages hand each other and its callers.

export type SearchHits = { set: Bitset; score: Float64Array };

export type DimCounts = { counts: Int32Array; present: Int32Array };

export type EngineResult = {
  total: number;
  page: Int32Array;
  // Price, oldprice (NaN: none) and discount each page product is shown with.
  pagePrice: Float64Array;
  pageOldprice: Float64Array;
  pageDiscount: Float64Array;
  pageLocation: Int32Array; // the location of the offer that priced it, or -1
  stats: PriceStats | null;
  counts: Int32Array; // per facet value: products (groups) of the result with it, disjunctive per dimension
  present: Int32Array; // per dimension: products (groups) with any value of it
  locations: number[];
  requests: number;
  countsKey: string; // what the counts depend on (countsKey)
  debug: { id: string; sort_by: SortKey; sort_key: number | null; matched: Record<string, unknown> }[] | null;
};

// Prices by document; with locations asked for, the offers there written over the base prices of
// `written` (and only those: every other document has its base price).
export type Effective = { price: Float64Array; oldprice: Float64Array; discount: Float64Array; offerLocation: Int32Array | null; written?: Int32Array; priceByRank?: Float64Array; discountByRank?: Float64Array };

export type FacetCounts = DimCounts & { requests: number };

export type Shown = { total: number; stats: PriceStats | null };

/** Per document its value's place in a dimension plus one (0: none), for a dimension no document has several values of. */
export type DimColumn = Uint16Array | Int32Array;
