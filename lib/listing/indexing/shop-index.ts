import type { CategoryNode } from '@/lib/catalog/tree';
import type { Memo } from './memo';
import type { Bitset } from './bitset';
import type { StringTable } from './string-table';

export type { CategoryNode } from '@/lib/catalog/tree';
export { foldCase, valueKeyOf } from '@/lib/catalog/facet-tokens';

// A shop's catalog as the listing engine reads it: documents (one per product) numbered by base
// price, typed-array columns, and facet values as one global dictionary with two indexes over it:
// per document its values (for counting) and per value its documents (for filtering).

export const DIM_CATEGORY = 0;
export const DIM_BRAND = 1;
export const DIM_COLOR = 2;
export const DIM_SIZE = 3;
export const FIRST_PARAM_DIM = 4;

export type Dimension = {
  key: string; // 'category' | 'brand' | 'color' | 'size' | the param's name
  param: boolean;
  values: Map<string, number>; // value key → global value number
  priority: number;
  numeric: boolean;
};

export type LocationNode = { id: string; name: string; type: string | null; path: string[] };

export type ShopIndex = {
  shopId: string;
  version: number;
  treeFingerprint: string;
  buildMs: number;
  buildSteps: string; // where the build's time went, for the log
  n: number;
  // Every id in one string (one object for the garbage collector instead of a million):
  // document d's id is idText[idOffsets[d] .. idOffsets[d + 1]) — `idOf`.
  idText: string;
  idOffsets: Int32Array;
  // A document's place in the code-unit order of ids (ties in every order break on it), and the
  // documents in that order (ids are looked up by binary search: `docOf`).
  idRank: Int32Array;
  idOrder: Int32Array;
  price: Float64Array;
  oldprice: Float64Array; // NaN: none
  discount: Float64Array;
  salesRate: Float64Array;
  date: Float64Array; // creation_date, else first stored (ms)
  priceMargin: Float64Array; // NaN: none
  rating: Float64Array; // NaN: none
  maxSalesRate: number;
  // Variant groups: every product without a group_id is a group of its own.
  groupOf: Int32Array;
  groupOrder: Int32Array; // documents sorted by group
  groupRank: Int32Array; // a document's position in groupOrder
  groupOfRank: Int32Array; // the group of the document at each position of groupOrder
  available: Bitset;
  // Facet values.
  dims: Dimension[];
  dimByKey: Map<string, number>;
  valueDim: Int32Array;
  valueKey: string[];
  valueLabel: string[];
  valueNumber: Float64Array; // NaN when not a number
  dimValues: Int32Array; // dimension d's values are dimValues[d] .. dimValues[d + 1] - 1
  // Per document its values, laid out in groupOrder (the order counting visits documents in):
  // the document at rank r has postings[postOffsets[r] .. postOffsets[r + 1]): its values, and for
  // each param dimension it has k > 1 values of, k - 1 excess markers (valueKey.length + the
  // dimension), in no particular order. Products with any value of a param dimension are then the
  // sum of its values' counts less the markers' (`presenceFromExcess`): a product has one value of
  // most params, and a marker per dimension on every document was 45 % of all postings.
  postOffsets: Int32Array;
  postings: Int32Array | Uint16Array; // 16 bits while values and markers are fewer than 65,536
  // Per rank two words: bit b of word w is set when the document has a value of param dimension
  // FIRST_PARAM_DIM + 32w + b. A group with several documents in a set is counted by them
  // (count-kernel.ts). Null with more than 64 param dimensions.
  paramDims: Uint32Array | null;
  invOffsets: Int32Array; // value → range of invDocs: its documents, in group order
  invDocs: Int32Array;
  brandPicture: Map<number, string>;
  // Merchants filter only (no facet).
  merchants: Map<string, Int32Array>;
  // Location offers, numbered in group order (as counting visits documents): the document at rank
  // r has offers rankOfferOffsets[r] .. rankOfferOffsets[r + 1] - 1, sorted by location id, and
  // offerRank gives an offer's rank back. Documents without any are in stock everywhere.
  withoutOffers: Bitset;
  rankOfferOffsets: Int32Array;
  offerLocation: Int32Array;
  offerRank: Int32Array;
  // Offers by location: location number → range of locationOffers (offer numbers, so in rank order).
  locationOfferOffsets: Int32Array;
  locationOffers: Int32Array;
  offerPrice: Float64Array;
  offerOldprice: Float64Array;
  offerDiscount: Float64Array;
  locations: LocationNode[]; // by location number; ids of unknown locations come last
  locationByKey: Map<string, number>;
  locationDescendants: Int32Array[]; // number → itself and every location below it
  // Number → what a query for that location alone finds: per document in stock somewhere in its
  // subtree (itself included), the offer pricing it there (the cheapest, then the lowest location
  // id), by rank. Null when at most one location of the subtree has offers (its list is that).
  subtreeOffers: (Int32Array | null)[];
  locationAncestors: Int32Array[]; // number → itself and every location above it
  knownLocations: number;
  categories: Map<string, CategoryNode>;
  // What the next build replays the documents of unchanged products from (null when some row held
  // no dictionary numbers: the next build reads everything).
  replay: ReplaySource | null;
  // A rebuild's: the ids whose rows it read again (changed since the index it replayed); what was
  // kept for the others' rows still holds (index-store.ts carries it). Null for other builds.
  reread: ReadonlySet<string> | null;
  // What queries make once and keep with this version (memo.ts).
  memo: Memo;
};

/**
 * Per rank (the documents in group order), its product's facet dictionary numbers (CSR); the group
 * numbers given to variant group ids, and how many groups there are.
 */
export type ReplaySource = {
  tokenOffsets: Int32Array;
  tokenNumbers: Int32Array | Uint16Array;
  groups: StringTable;
  groupCount: number;
};

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The document with this id, or undefined. */
export function docOf(index: Pick<ShopIndex, 'idText' | 'idOffsets' | 'idOrder'>, id: string): number | undefined {
  const { idOrder } = index;
  let lo = 0;
  let hi = idOrder.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIdAt(index, idOrder[mid], id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < idOrder.length && compareIdAt(index, idOrder[lo], id) === 0 ? idOrder[lo] : undefined;
}

/** A document's id compared with `id` in code-unit order, read in place (no substring). */
function compareIdAt(index: Pick<ShopIndex, 'idText' | 'idOffsets'>, doc: number, id: string): number {
  const { idText } = index;
  const from = index.idOffsets[doc];
  const length = index.idOffsets[doc + 1] - from;
  const common = Math.min(length, id.length);
  for (let i = 0; i < common; i++) {
    const difference = idText.charCodeAt(from + i) - id.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return length - id.length;
}

/** A document's facet values (not its presence markers). */
export function documentValues(index: ShopIndex, doc: number): number[] {
  const rank = index.groupRank[doc];
  const values: number[] = [];
  for (let p = index.postOffsets[rank]; p < index.postOffsets[rank + 1]; p++) {
    if (index.postings[p] < index.valueKey.length) values.push(index.postings[p]);
  }
  return values;
}

/** A document's id. */
export function idOf(index: Pick<ShopIndex, 'idText' | 'idOffsets'>, doc: number): string {
  return index.idText.slice(index.idOffsets[doc], index.idOffsets[doc + 1]);
}
