import type { Bitset } from './bitset';

// What queries make once and keep with an index version (issue 39: it was a Map of ~16 string
// keys cast at every read). Each entry is declared here with its type, what an index swap carries
// of it (MEMO_RULES) and how it counts in the memory budget (memoBytes). An entry is either one
// value or a family: a map of values by key (an order per sort key, counts per stock rule…).
//
// The index carries its memo, but most entries are made by the layers above it (the engine,
// search, the answer), whose types this layer does not import: they register them in MemoTypes
// (lib/listing/index-memo.ts, by declaration merging), so the index's layer names none of them
// and no import goes back up. Every name in MemoTypeName must be registered: index-memo.ts fails
// to compile otherwise (an unregistered entry would be `unknown`).

/** The names of the entry types the layers above register. */
export type MemoTypeName = 'Scratch' | 'Work' | 'DimColumn' | 'FacetCounts' | 'Shown' | 'Located' | 'Walk' | 'LocationBase' | 'SearchIndex' | 'SearchScratch' | 'CategoryLink' | 'KeptProducts';

/** The types of the entries the layers above make, by name (lib/listing/index-memo.ts registers them). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MemoTypes {}

type Registered<K extends MemoTypeName> = K extends keyof MemoTypes ? MemoTypes[K] : unknown;

export class Memo {
  // The engine (lib/listing/engine).
  /** Location prices written over a copy of the price columns. */
  scratch: Registered<'Scratch'> | undefined = undefined;
  /** Buffers of the catalog's size every query works in. */
  work: Registered<'Work'> | undefined = undefined;
  /** Documents with (true) or without a base discount. */
  readonly discountSets = new Map<boolean, Bitset>();
  /** A dimension's value per document, when no document has several (null: some do), by dimension. */
  readonly dimColumns = new Map<number, Registered<'DimColumn'> | null>();
  /** Counts over the whole catalog, by `${collapse}:${available}`. */
  readonly baseCounts = new Map<string, Int32Array>();
  /** Facet counts per filter set (countsKey), least recently used first. */
  facetCounts: Map<string, Registered<'FacetCounts'>> | undefined = undefined;
  /** Result sizes and price statistics per filter set and order, least recently used first. */
  shown: Map<string, Registered<'Shown'>> | undefined = undefined;
  /** Sorted results per filter set and order, least recently used first. */
  sorted: Map<string, Int32Array> | undefined = undefined;
  /** Documents in stock and their offers per set of locations, least recently used first. */
  located: Map<string, Registered<'Located'>> | undefined = undefined;
  /** Every document in a location-independent order, by `${key}:${dir}`. */
  readonly orders = new Map<string, Int32Array>();
  /** A kept order with each document's group and each rank's position, by `${key}:${dir}`. */
  readonly walks = new Map<string, Registered<'Walk'>>();
  /** The unfiltered listing's size and statistics in an order, by `${key}:${dir}`. */
  readonly unfiltered = new Map<string, Registered<'Shown'>>();
  /** What queries for locations alone share, per stock rule (location-only.ts). */
  readonly locationBases = new Map<boolean, Registered<'LocationBase'>>();
  // Search (search.ts, index-store.ts).
  /** The word index, being built or built. */
  search: Promise<Registered<'SearchIndex'>> | undefined = undefined;
  /** The word index once built (counted in the budget; the promise is not). */
  searchIndex: Registered<'SearchIndex'> | undefined = undefined;
  /** A query asked for the word index: its build no longer gives way to index builds. */
  searchWanted = false;
  /** Buffers of the catalog's size a search works in. */
  searchScratch: Registered<'SearchScratch'> | undefined = undefined;
  // The answer (category-links.ts, stored-products.ts).
  /** Category links per tracking parameters (JSON), by category id. */
  readonly links = new Map<string, Map<string, Registered<'CategoryLink'>>>();
  /** Products' stored rows read for pages shown. */
  storedProducts: Registered<'KeptProducts'> | undefined = undefined;
  // The answer's shaping (listing.ts): per dimension, or per value.
  /** Per dimension, its values by label and a numeric param's by number (facet-order.ts). */
  facetOrders: FacetOrders | undefined = undefined;
  /** A value's label as JSON, by value. */
  labelJson: (string | undefined)[] | undefined = undefined;
  /** Whether a dimension's labels are all distinct and none is an array index, by dimension. */
  plainLabelDims: (boolean | undefined)[] | undefined = undefined;
  /** A category facet's JSON up to its count, by value (null: not shown). */
  categoryHeads: (string | null | undefined)[] | undefined = undefined;
  /** A brand facet's JSON up to its count, by value. */
  brandHeads: string[] | undefined = undefined;
  /** The answer's facet blocks, encoded, per filter set and limits, least recently used first. */
  facetBlocks: Map<string, FacetBlocks> | undefined = undefined;
  // Collections (read-collection.ts).
  /** Collection answers, encoded, per collection, settings and request, least recently used first. */
  collectionAnswers: Map<string, Uint8Array<ArrayBuffer>> | undefined = undefined;
}

/**
 * A dimension's values in code-unit order of their labels (then value number): `byRank[rank]` a
 * value's place in the dimension (value − its first), `rankOf[place]` its rank.
 */
export type LabelOrder = { byRank: Int32Array; rankOf: Int32Array };

/** Per dimension: its values by label, and a numeric param's places in ascending order of their numbers. */
export type FacetOrders = { byLabel: (LabelOrder | undefined)[]; byNumber: (Int32Array | undefined)[] };

/** The answer's categories, filters, industrial_filters and brands, encoded. */
export type FacetBlocks = { categories: Uint8Array<ArrayBuffer>; filters: Uint8Array<ArrayBuffer>; industrial: Uint8Array<ArrayBuffer>; brands: Uint8Array<ArrayBuffer> };

/**
 * Per entry: whether an availability patch keeps it (it does not depend on stock, and the patched
 * index has the same documents), and whether it is a family (counted per value, as each value was
 * an entry of its own before). A rebuild carries category links and stored rows (carryIntoRebuild).
 */
type Rule = { acrossStockPatch: boolean; family: boolean };

export const MEMO_RULES: { [K in keyof Memo]: Rule } = {
  scratch: { acrossStockPatch: false, family: false },
  work: { acrossStockPatch: false, family: false },
  discountSets: { acrossStockPatch: true, family: true },
  dimColumns: { acrossStockPatch: true, family: true },
  baseCounts: { acrossStockPatch: false, family: true },
  facetCounts: { acrossStockPatch: false, family: false },
  shown: { acrossStockPatch: false, family: false },
  sorted: { acrossStockPatch: false, family: false },
  located: { acrossStockPatch: false, family: false },
  orders: { acrossStockPatch: true, family: true },
  walks: { acrossStockPatch: true, family: true },
  unfiltered: { acrossStockPatch: false, family: true },
  locationBases: { acrossStockPatch: false, family: true },
  search: { acrossStockPatch: true, family: false },
  searchIndex: { acrossStockPatch: true, family: false },
  searchWanted: { acrossStockPatch: true, family: false },
  searchScratch: { acrossStockPatch: false, family: false },
  links: { acrossStockPatch: true, family: true },
  storedProducts: { acrossStockPatch: true, family: false },
  facetOrders: { acrossStockPatch: true, family: false },
  labelJson: { acrossStockPatch: true, family: false },
  plainLabelDims: { acrossStockPatch: true, family: false },
  categoryHeads: { acrossStockPatch: true, family: false },
  brandHeads: { acrossStockPatch: true, family: false }, // brand pictures are the build's
  facetBlocks: { acrossStockPatch: false, family: false },
  collectionAnswers: { acrossStockPatch: false, family: false },
};

const ENTRIES = Object.keys(MEMO_RULES) as (keyof Memo)[];

function carry<K extends keyof Memo>(from: Memo, to: Memo, key: K): void {
  // A family is copied (the patched index adds to its own), its values shared.
  if (MEMO_RULES[key].family) {
    const family = to[key] as unknown as Map<unknown, unknown>;
    for (const [k, v] of from[key] as unknown as Map<unknown, unknown>) family.set(k, v);
  } else to[key] = from[key];
}

/** The memo of an index whose stock bits were patched: what does not depend on stock. */
export function memoAfterStockPatch(memo: Memo): Memo {
  const next = new Memo();
  for (const key of ENTRIES) if (MEMO_RULES[key].acrossStockPatch) carry(memo, next, key);
  return next;
}

/** Each value kept, a family's one by one (what the memory accounting walks). */
export function* memoValues(memo: Memo): Generator<unknown> {
  for (const key of ENTRIES) {
    const value = memo[key];
    if (MEMO_RULES[key].family && value instanceof Map) yield* value.values();
    else if (value !== undefined) yield value;
  }
}

/** A rough figure for the bytes the memo holds (the memory budget counts it with the index). */
export function memoBytes(memo: Memo): number {
  let bytes = 0;
  for (const value of memoValues(memo)) bytes += keptBytes(value, 3);
  return bytes;
}

/**
 * A text as UTF-8 to keep in the memo: in a buffer of its own (a small one would otherwise hold a
 * slice of Node's shared 8 KB pool, which the memory budget does not see).
 */
export function keptUtf8(text: string): Uint8Array<ArrayBuffer> {
  const bytes = Buffer.from(text);
  return bytes.byteLength === bytes.buffer.byteLength ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** A rough figure for the bytes of a kept value, walked `depth` levels down. */
export function keptBytes(value: unknown, depth: number): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value === 'string') return value.length * 2;
  if (depth === 0 || value === null || typeof value !== 'object' || value instanceof Promise) return 0;
  // Something kept that knows its size better than a walk over it would.
  const sized = value as { estimatedBytes?: () => number };
  if (typeof sized.estimatedBytes === 'function') return sized.estimatedBytes();
  if (Array.isArray(value)) return value.length * 16; // rough: a slot and a small value each
  let bytes = 0;
  if (value instanceof Map) for (const item of value.values()) bytes += keptBytes(item, depth - 1);
  // for…in, not Object.values: the budget walks every kept object each second or so, and an array
  // made per object was ~7 % of what the soak's serving thread allocated.
  else for (const key in value) bytes += keptBytes((value as Record<string, unknown>)[key], depth - 1);
  return bytes;
}
