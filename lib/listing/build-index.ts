import type { Sql } from 'postgres';
import { storedOffers } from '@/lib/catalog/stored-offers';
import { yieldToEventLoop } from '@/lib/runtime/turns';
import { add, emptySet, has, remove, type Bitset } from './bitset';
import { BinaryCopyReader, bool, epochMs, float8, float8OrNaN, isNull, text, textOrNull, type BinaryRow } from './binary-copy';
import { BytesTable } from './bytes-table';
import { cheapestOffers, type OfferLists } from './cheapest-offers';
import type { CategoryNode } from '@/lib/catalog/tree';
import { facetTokenList, foldCase, parseParamToken, TOKEN_SEPARATOR } from '@/lib/catalog/facet-tokens';

import { FloatList, IntList } from './int-list';
import { keptBytes, Memo, memoBytes, memoValues } from './index-memo';
import { ROLE_BRAND, ROLE_PICTURE, type LayoutTask } from './layout-kernel';
import { layOutAside } from './layout-worker';
import { mergeSortedInTurns, sortByKeyInTurns, sortInTurns } from './sort-in-turns';
import { StringTable } from './string-table';

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
  // What queries make once and keep with this version (index-memo.ts).
  memo: Memo;
  // The same for the answer's shaping (listing.ts), by key.
  cache: Map<string, unknown>;
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

// The product columns the builder reads, in this order (binary COPY, read by position).
const PRODUCT_FIELDS = [
  'p.id',
  'p.group_id',
  'p.price',
  'p.oldprice',
  'p.discount_percent',
  'to_json(p.merchants)::text',
  'p.rating',
  'p.price_margin',
  'p.sales_rate',
  // As sent (microseconds since 2000): `extract(epoch …)` computes in numeric, ~0.5 s of
  // PostgreSQL's time per 1,000,000 rows. `epochMs` gives the same double.
  'coalesce(p.creation_date, p.first_added_at)',
  // Replaced by a constant in a full build (which reads the exceptions apart).
  'st.available',
  'p.facet_values',
  // Read only for rows without `facet_values`:
  'case when p.facet_values is null then p.facets end',
  // Read only for rows without either:
  'case when p.facet_values is null and p.facets is null then to_json(p.categories)::text end',
  'case when p.facet_values is null and p.facets is null then p.brand end',
  "case when p.facet_values is null and p.facets is null then p.data::jsonb->>'brand_picture' end",
  "case when p.facet_values is null and p.facets is null then (p.data::jsonb->'params')::text end",
  "case when p.facet_values is null and p.facets is null then (p.data::jsonb->'fashion')::text end",
  'p.offers',
];
/** How many fields a row of productsCopy has. */
export const PRODUCT_FIELD_COUNT = PRODUCT_FIELDS.length;
const F_ID = 0, F_GROUP = 1, F_PRICE = 2, F_OLDPRICE = 3, F_DISCOUNT = 4, F_MERCHANTS = 5, F_RATING = 6, F_MARGIN = 7, F_SALES = 8, F_DATE = 9;
const F_AVAILABLE = 10, F_VALUES = 11, F_TOKENS = 12, F_CATEGORIES = 13, F_BRAND = 14, F_PICTURE = 15, F_PARAMS = 16, F_FASHION = 17, F_OFFERS = 18;

// A decimal numeral, or a number as JSON gives it back (1e-7, 1e+21): a number's value key is its text.
const NUMERIC_TEXT = /^-?\d+(\.\d+)?(e[+-]\d+)?$/;

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

export async function loadTree(sql: Sql, shopId: string) {
  const categoryRows = await sql<{ id: string; name: string; parent: string | null; url: string | null; alias: string | null; path: string[]; depth: number }[]>`
    select id, name, parent, url, alias, path, depth from categories where shop_id = ${shopId}`;
  const locationRows = await sql<LocationNode[]>`
    select id, name, type, path from locations where shop_id = ${shopId} order by id`;
  return { categoryRows, locationRows };
}

/** The version the shop's catalog is at and a fingerprint of its trees: what an index was built from. */
export async function catalogState(sql: Sql, shopId: string): Promise<{ version: number; treeFingerprint: string } | null> {
  const [row] = await sql<{ version: number; tree: string }[]>`
    select catalog_version as version,
           concat_ws('/', (select count(*) from categories where shop_id = ${shopId}), (select max(updated_at) from categories where shop_id = ${shopId}),
                          (select count(*) from locations where shop_id = ${shopId}), (select max(updated_at) from locations where shop_id = ${shopId})) as tree
      from shops where id = ${shopId}`;
  return row ? { version: Number(row.version), treeFingerprint: row.tree } : null;
}

/** A text value as an SQL literal, for COPY (which takes no parameters). standard_conforming_strings is on. */
function literal(value: string): string {
  if (value.includes('\0')) throw new Error('an SQL literal cannot hold a NUL');
  return `'${value.replaceAll("'", "''")}'`;
}

// A turn of handling chunks lasts about SLICE_MS, and longer while more than QUEUE_HIGH_BYTES
// wait (the stream is never paused: postgres.js's COPY stream can stall for good once its socket
// is paused, and did here, leaving a build's snapshot open).
const QUEUE_HIGH_BYTES = 16 << 20;
const SLICE_MS = 8;

/**
 * Hands each chunk of a COPY TO stream to `take`, in order, in turns of a few milliseconds
 * between which the event loop runs. (Handed over as they arrived, the chunks libuv reads in one
 * go, up to 32 of 64 KB, held the loop ~0.2 s.) An error from `take` ends the read once the
 * stream is drained (the connection stays usable).
 */
export function drain(stream: NodeJS.ReadableStream, take: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: unknown = null;
    const queue: Buffer[] = [];
    let next = 0;
    let queued = 0;
    let ended = false;
    let scheduled = false;
    const finish = () => (failure !== null ? reject(failure) : resolve());
    const handle = () => {
      scheduled = false;
      const until = performance.now() + SLICE_MS;
      while (next < queue.length && (queued > QUEUE_HIGH_BYTES || performance.now() < until)) {
        const chunk = queue[next++];
        queued -= chunk.length;
        if (failure !== null) continue;
        try {
          take(chunk);
        } catch (error) {
          failure = error;
        }
      }
      if (next === queue.length) {
        queue.length = 0;
        next = 0;
      }
      if (queue.length > 0) schedule();
      else if (ended) finish();
    };
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(handle);
    };
    stream.on('data', (chunk: Buffer) => {
      queue.push(chunk);
      queued += chunk.length;
      schedule();
    });
    stream.once('error', reject);
    stream.once('end', () => {
      ended = true;
      resumeConnection(stream);
      if (queue.length === 0 && !scheduled) finish();
    });
  });
}

/**
 * postgres.js pauses a connection's socket when a COPY chunk finds the stream's buffer full, and
 * resumes it when the stream asks for more. A COPY whose last chunk and end arrive in one read
 * (a small one: a refresh's few changed rows) ends with the buffer full and the socket paused, and
 * an ended stream never asks again: the answers to the connection's next statements (the build's
 * COMMIT) are never read, and the pool loses the connection for good (porsager/postgres#499, the
 * fix proposed in #1016 is not released). Its `read` resumes the socket: asked once the stream ended.
 */
function resumeConnection(stream: NodeJS.ReadableStream): void {
  (stream as unknown as { _read?: (size: number) => void })._read?.(0);
}

/**
 * Reads a shop's catalog in one snapshot and builds its index. Rows are read in the table's order
 * as PostgreSQL sends them (no sort of wide rows there); documents are numbered by price here.
 * Rows are handled as each network chunk arrives, so queries on the previous index keep being
 * answered between chunks.
 */
export async function buildIndex(sql: Sql, shopId: string): Promise<ShopIndex> {
  return (await build(sql, shopId, null))!;
}

/**
 * The index after `previous` from what changed since it: the documents of unchanged products are
 * replayed from `previous`, only changed products are read. Null when a full
 * build is needed: the trees changed, `previous` cannot be replayed, or most products changed.
 */
export async function rebuildIndex(sql: Sql, previous: ShopIndex): Promise<ShopIndex | null> {
  return previous.replay ? build(sql, previous.shopId, previous) : null;
}

/**
 * The COPY a build reads a shop's products with (binary: numbers arrive as IEEE doubles and facet
 * numbers are parsed from the bytes): with their stock joined from product_state, or every one
 * taken to have `stock`; only those changed after version `since`, when not null.
 */
export function productsCopy(shopId: string, stock: boolean | null, since: number | null): string {
  const fields = stock === null ? PRODUCT_FIELDS : PRODUCT_FIELDS.map((field, at) => (at === F_AVAILABLE ? String(stock) : field));
  // Which products changed is in product_state (data_version; products has no index on its version).
  const join = stock === null || since !== null ? 'join product_state st on st.shop_id = p.shop_id and st.product_id = p.id' : '';
  const changed = since === null ? '' : `and st.data_version > ${Number(since)}`;
  return `copy (select ${fields.join(', ')} from products p ${join} where p.shop_id = ${literal(shopId)} ${changed}) to stdout (format binary)`;
}

async function build(sql: Sql, shopId: string, previous: ShopIndex | null): Promise<ShopIndex | null> {
  const started = performance.now();
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    // One PostgreSQL process: parallel workers would take the core this process decodes on. A
    // rebuild's join with product_state hashes the shop's states: in memory (the default work_mem
    // spilled a whole catalog's to disk in two batches, ~1 s at 1,000,000 products).
    await tx`set local max_parallel_workers_per_gather = 0`;
    await tx`set local work_mem = '256MB'`;
    const state = await catalogState(tx as unknown as Sql, shopId);
    let changed: { id: string }[] = [];
    let stock: { id: string; available: boolean }[] = [];
    if (previous) {
      if (!state || state.treeFingerprint !== previous.treeFingerprint) return null;
      // The states whose product or availability changed since, in one pass over the shop's.
      const states = await tx<{ id: string; available: boolean; changed: boolean; flipped: boolean }[]>`
        select product_id as id, available, data_version > ${previous.version} as changed, version > ${previous.version} as flipped
          from product_state where shop_id = ${shopId} and (version > ${previous.version} or data_version > ${previous.version})`;
      changed = states.filter((row) => row.changed);
      // Most of a large catalog changed: reading it all is as cheap as replaying.
      if (changed.length > Math.max(1000, previous.n / 2)) return null;
      stock = states.filter((row) => row.flipped);
    }
    const tree = await loadTree(tx as unknown as Sql, shopId);
    const dictionary = await tx<{ token: string }[]>`select token from facet_tokens where shop_id = ${shopId} order by number`;
    const builder = new IndexBuilder(shopId, tree.categoryRows, tree.locationRows, dictionary.map((row) => row.token));
    const reread = previous ? new Set(changed.map((row) => row.id)) : null;
    if (previous) await builder.replay(previous, previous.replay!, reread!, new Map(stock.map((row) => [row.id, row.available])));
    // A full build takes every product to be as most are and lists the others: joining the
    // states kept the first row back while PostgreSQL hashed all of them (~1 s of a
    // 1,000,000-product build), and the join took ~1.5 s of its time. (Every product has a state:
    // imports write both in one transaction.)
    let assumed: boolean | null = null;
    if (!previous) {
      const [counts] = await tx<{ out: number; total: number }[]>`
        select count(*) filter (where not available)::int as out, count(*)::int as total from product_state where shop_id = ${shopId}`;
      const listed = counts.out > counts.total / 2;
      const rows = await tx<{ id: string }[]>`select product_id as id from product_state where shop_id = ${shopId} and available = ${listed}`;
      builder.otherwise(rows.map((row) => row.id), listed);
      assumed = !listed;
    }
    const replayed = performance.now();
    const since = previous ? previous.version : null;
    const reader = new BinaryCopyReader(PRODUCT_FIELD_COUNT, (row) => builder.add(row));
    await drain(await tx.unsafe(productsCopy(shopId, assumed, since)).readable(), (chunk) => reader.push(chunk));
    reader.finish();
    const productsRead = performance.now();
    const index = await builder.finish(state?.version ?? 0, state?.treeFingerprint ?? '');
    index.reread = reread;
    index.buildMs = performance.now() - started;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const replay = previous ? `${changed.length} changed products read, the rest replayed in ${seconds(replayed - started)}, ` : '';
    index.buildSteps = `${replay}products ${seconds(productsRead - replayed)}, then ${seconds(performance.now() - productsRead)}: ${index.buildSteps}`;
    return index;
  });
}

const KIND_CATEGORY = 99; // 'c'
const KIND_BRAND = 98; // 'b'
const KIND_PICTURE = 114; // 'r'

/** What one token posts: its values, the label variant it shows (folded dimensions), a brand picture. */
type TokenInfo = { kind: number; values: number[]; variant: number; picture: string | null };

/**
 * Collects rows in the order they arrive (load numbers), then numbers documents by (price, id) and
 * lays every column out in that order.
 */
export class IndexBuilder {
  // Per load number.
  private ids: string[] = [];
  private price = new FloatList();
  private oldprice = new FloatList();
  private discount = new FloatList();
  private salesRate = new FloatList();
  private date = new FloatList();
  private priceMargin = new FloatList();
  private rating = new FloatList();
  private groups = new IntList();
  private groupIds = new Map<string, number>(); // first seen in this build
  private knownGroups: StringTable | null = null; // the previous index's, when replaying it
  // When replaying: the replayed loads (the first ones, in order of price and id) in id order.
  private replayedIdOrder: Int32Array | null = null;
  private groupCount = 0;
  private availableLoads = new IntList();
  // Products whose stock is not what their rows say (see `otherwise`).
  private stockExceptions: { ids: string[]; available: boolean } | null = null;
  // Each load's tokens as numbers, tokenNumbers[tokenFrom[load] .. tokenTo[load]) (a replay writes
  // them out of load order): the shop's dictionary numbers, and after them numbers given here to
  // tokens that rows stored before the dictionary carry as text. The layout posts their values.
  private tokenFrom = new IntList();
  private tokenTo = new IntList();
  private tokenNumbers: IntList<Int32Array | Uint16Array>;
  // Whether some token is numbered here only: then the next build cannot replay this one.
  private textTokens = false;
  private merchantLoads = new Map<string, number[]>();
  // Offers as they arrive.
  // The load number of each offer's product.
  private offerLoads = new IntList();
  private offerLocation = new IntList();
  private offerPrice = new FloatList();
  private offerOldprice = new FloatList();
  private offerDiscount = new FloatList();
  // Facet values.
  private dims: Dimension[] = [];
  private dimByKey = new Map<string, number>();
  private paramDims = new Map<string, number>();
  private prioritized = new Set<number>(); // param dimensions with a priority given
  private valueDim: number[] = [];
  private valueKey: string[] = [];
  private valueLabel: string[] = [];
  private valueNumber: number[] = [];
  // Label variants of case-folded values ("Nike", "NIKE"): the one of the cheapest product (then
  // lowest id) is shown, as if documents were visited by price (the layout finds that product).
  private variantValue: number[] = [];
  private variantLabel: string[] = [];
  private categories = new Map<string, CategoryNode>();
  private locations: LocationNode[] = [];
  private locationByKey = new Map<string, number>();
  private knownLocations: number;

  // What each token number posts once learnt: the shop's facet dictionary's numbers (token text
  // by number in `dictionary`), then the text tokens', numbered as they are first met.
  private numberInfo: (TokenInfo | undefined)[] = [];

  constructor(
    private shopId: string,
    categoryRows: Omit<CategoryNode, 'known'>[],
    locationRows: LocationNode[],
    private dictionary: string[],
  ) {
    // Filled one by one: a packed array (`new Array(n)` above 100,000 would be a slow dictionary).
    for (let number = 0; number < dictionary.length; number++) this.numberInfo.push(undefined);
    this.tokenNumbers = new IntList(1 << 16, dictionary.length < 65536);
    for (const row of categoryRows) this.categories.set(row.id, { ...row, known: true });
    for (const row of locationRows) {
      this.locationByKey.set(row.id, this.locations.length);
      this.locations.push(row);
    }
    this.knownLocations = this.locations.length;
    for (const key of ['category', 'brand', 'color', 'size']) {
      this.dimByKey.set(key, this.dims.length);
      this.dims.push({ key, param: false, values: new Map(), priority: 0, numeric: false });
    }
  }

  private paramDimension(name: string): number {
    let dim = this.paramDims.get(name);
    if (dim === undefined) {
      dim = this.dims.length;
      this.dims.push({ key: name, param: true, values: new Map(), priority: 0, numeric: true });
      this.paramDims.set(name, dim);
      this.dimByKey.set(`param:${name}`, dim);
    }
    return dim;
  }

  private value(dim: number, key: string, label: string): number {
    const dimension = this.dims[dim];
    let value = dimension.values.get(key);
    if (value === undefined) {
      value = this.valueKey.length;
      dimension.values.set(key, value);
      this.valueDim.push(dim);
      this.valueKey.push(key);
      this.valueLabel.push(label);
      const asNumber = NUMERIC_TEXT.test(key) ? Number(key) : NaN;
      this.valueNumber.push(asNumber);
      if (dimension.param && Number.isNaN(asNumber)) dimension.numeric = false;
    }
    return value;
  }

  /** A token seen for the first time: the values it stands for. */
  private learn(token: string): TokenInfo {
    const kind = token.charCodeAt(0);
    const text = token.slice(1);
    const info: TokenInfo = { kind, values: [], variant: -1, picture: null };
    if (kind === KIND_CATEGORY) {
      const node = this.categories.get(text);
      if (node) for (const ancestor of node.path) info.values.push(this.value(DIM_CATEGORY, ancestor, ancestor));
      else info.values.push(this.value(DIM_CATEGORY, text, text));
    } else if (kind === KIND_PICTURE) {
      info.picture = text;
    } else if (kind === KIND_BRAND || kind === 111 /* 'o' */ || kind === 115 /* 's' */) {
      const dim = kind === KIND_BRAND ? DIM_BRAND : kind === 111 ? DIM_COLOR : DIM_SIZE;
      const value = this.value(dim, foldCase(text), text);
      info.values.push(value);
      info.variant = this.variantValue.length;
      this.variantValue.push(value);
      this.variantLabel.push(text);
    } else if (kind === 112 /* 'p' */) {
      const param = parseParamToken(token);
      const dim = this.paramDimension(param.name);
      // The highest given, even below 0 (0 stands for none given, not for a floor).
      if (param.priority !== null && (!this.prioritized.has(dim) || param.priority > this.dims[dim].priority)) {
        this.dims[dim].priority = param.priority;
        this.prioritized.add(dim);
      }
      if (param.value !== null) info.values.push(this.value(dim, param.value, param.value));
    }
    return info;
  }

  /** The products whose stock is `available` whatever their rows say (read apart from them). */
  otherwise(ids: string[], available: boolean): void {
    this.stockExceptions = { ids, available };
  }

  add(row: BinaryRow): void {
    const load = this.ids.length;
    const id = text(row, F_ID);
    const price = float8(row, F_PRICE);
    this.ids.push(id);
    this.price.push(price);
    this.oldprice.push(float8OrNaN(row, F_OLDPRICE));
    this.discount.push(float8(row, F_DISCOUNT));
    this.salesRate.push(float8(row, F_SALES));
    this.date.push(epochMs(row, F_DATE));
    this.priceMargin.push(float8OrNaN(row, F_MARGIN));
    this.rating.push(float8OrNaN(row, F_RATING));
    if (bool(row, F_AVAILABLE)) this.availableLoads.push(load);

    this.groups.push(isNull(row, F_GROUP) ? this.groupCount++ : this.groupOfRow(row));

    this.tokenFrom.push(this.tokenNumbers.length);
    if (!isNull(row, F_VALUES)) this.readNumbers(row.bytes, row.start[F_VALUES], row.start[F_VALUES] + row.length[F_VALUES]);
    else this.readWithoutNumbers(row);
    this.tokenTo.push(this.tokenNumbers.length);

    if (!isNull(row, F_OFFERS)) {
      for (const [location, price, oldprice, discount] of storedOffers(text(row, F_OFFERS))) {
        this.pushOffer(load, this.locationNumber(location), price, oldprice ?? NaN, discount);
      }
    }
    if (isNull(row, F_MERCHANTS)) return;
    for (const merchant of JSON.parse(text(row, F_MERCHANTS)) as string[]) this.addMerchant(foldCase(merchant), load);
  }

  /** A row stored before products held dictionary numbers: its tokens, or its data. */
  private readWithoutNumbers(row: BinaryRow): void {
    if (!isNull(row, F_TOKENS)) this.readTokens(text(row, F_TOKENS), false);
    else {
      const json = (field: number) => (isNull(row, field) ? null : (JSON.parse(text(row, field)) as unknown));
      const categories = (json(F_CATEGORIES) as string[] | null) ?? [];
      const tokens = facetTokenList({ categories, brand: textOrNull(row, F_BRAND), brand_picture: textOrNull(row, F_PICTURE), params: json(F_PARAMS), fashion: json(F_FASHION) });
      for (const token of tokens) this.readTokens(token, true);
    }
  }

  // Group numbers by the bytes of their ids: a row's group id is decoded only the first time.
  private groupBytes = new BytesTable();

  private groupOfRow(row: BinaryRow): number {
    const from = row.start[F_GROUP];
    const to = from + row.length[F_GROUP];
    let group = this.groupBytes.get(row.bytes, from, to);
    if (group < 0) this.groupBytes.set(row.bytes, from, to, (group = this.groupNumber(text(row, F_GROUP))));
    return group;
  }

  private groupNumber(groupId: string): number {
    const known = this.knownGroups?.get(groupId) ?? this.groupIds.get(groupId);
    if (known !== undefined) return known;
    this.groupIds.set(groupId, this.groupCount);
    return this.groupCount++;
  }

  private addMerchant(key: string, load: number): void {
    const list = this.merchantLoads.get(key);
    if (list) {
      if (list[list.length - 1] !== load) list.push(load);
    } else this.merchantLoads.set(key, [load]);
  }

  /**
   * Notes the numbers of the tokens in `text` (or of `text` as one token). Tokens are found in a
   * hash table without making a substring for one seen before.
   */
  private readTokens(text: string, whole: boolean): void {
    let start = 0;
    while (start < text.length) {
      let end = whole ? text.length : text.indexOf(TOKEN_SEPARATOR, start);
      if (end < 0) end = text.length;
      // FNV-1a over every character (tokens that differ anywhere spread over the table); the
      // table compares the whole token.
      let hash = 0x811c9dc5;
      for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
      this.pushNumber(this.tokenNumber(text, start, end, hash));
      start = end + 1;
    }
  }

  /**
   * Notes the dictionary numbers in bytes[from, to) (decimal, space-separated), learning what a
   * number posts the first time it comes (the hot loop of a build's read: ~25 numbers per product
   * in the benchmark's catalog). Their values are posted by the layout, in the order it writes
   * documents in.
   */
  private readNumbers(bytes: Buffer, from: number, to: number): void {
    const { numberInfo, tokenNumbers } = this;
    const dictionaryLength = this.dictionary.length;
    // Written straight into the list: one number per two bytes at most ("1 2 3").
    const data = tokenNumbers.reserve((to - from + 2) >> 1);
    let length = tokenNumbers.length;
    let number = -1;
    for (let i = from; i <= to; i++) {
      const c = i < to ? bytes[i] : 32;
      if (c !== 32) {
        number = number < 0 ? c - 48 : number * 10 + (c - 48);
        continue;
      }
      if (number < 0) continue; // no numbers at all
      // (Numbers past the dictionary's are text tokens' here, not a product's to name.)
      if (numberInfo[number] === undefined || number >= dictionaryLength) this.learnNumber(number);
      data[length++] = number;
      number = -1;
    }
    tokenNumbers.length = length;
  }

  private learnNumber(number: number): void {
    const token = number < this.dictionary.length ? this.dictionary[number] : undefined;
    if (token === undefined) throw new Error(`facet value ${number} is not in shop ${this.shopId}'s dictionary`);
    this.numberInfo[number] = this.learn(token);
  }

  /** Appends a number to the token list, widening it when a text token's number needs 32 bits. */
  private pushNumber(number: number): void {
    if (number > 0xffff && this.tokenNumbers.view() instanceof Uint16Array) this.tokenNumbers = IntList.from(this.tokenNumbers.view());
    this.tokenNumbers.push(number);
  }

  private slotHash = new Int32Array(1024);
  private slotToken: (string | undefined)[] = new Array(1024);
  private slotNumber = new Int32Array(1024);
  private slotsUsed = 0;

  /** A text token's number: the one it was given when first met, or a new one after the dictionary's. */
  private tokenNumber(text: string, start: number, end: number, hash: number): number {
    const length = end - start;
    let mask = this.slotHash.length - 1;
    let slot = hash & mask;
    for (;;) {
      const token = this.slotToken[slot];
      if (token === undefined) break;
      if (this.slotHash[slot] === hash && token.length === length && text.startsWith(token, start)) return this.slotNumber[slot];
      slot = (slot + 1) & mask;
    }
    const token = text.slice(start, end);
    const number = this.numberInfo.length;
    this.numberInfo.push(this.learn(token));
    this.textTokens = true;
    if (++this.slotsUsed * 2 > this.slotHash.length) {
      // Grow, then find the new token's slot again.
      const hashes = this.slotHash;
      const tokens = this.slotToken;
      const numbers = this.slotNumber;
      this.slotHash = new Int32Array(hashes.length * 2);
      this.slotToken = new Array(hashes.length * 2);
      this.slotNumber = new Int32Array(hashes.length * 2);
      mask = this.slotHash.length - 1;
      for (let old = 0; old < hashes.length; old++) {
        if (tokens[old] !== undefined) this.place(hashes[old], tokens[old]!, numbers[old], mask);
      }
    }
    this.place(hash, token, number, mask);
    return number;
  }

  private place(hash: number, token: string, number: number, mask: number): void {
    let slot = hash & mask;
    while (this.slotToken[slot] !== undefined) slot = (slot + 1) & mask;
    this.slotHash[slot] = hash;
    this.slotToken[slot] = token;
    this.slotNumber[slot] = number;
  }

  private pushOffer(load: number, location: number, price: number, oldprice: number, discount: number): void {
    this.offerLoads.push(load);
    this.offerLocation.push(location);
    this.offerPrice.push(price);
    this.offerOldprice.push(oldprice);
    this.offerDiscount.push(discount);
  }

  /** A location's number; a location not in the tree (an offer names it) is numbered after them. */
  private locationNumber(id: string): number {
    let location = this.locationByKey.get(id);
    if (location === undefined) {
      location = this.locations.length;
      this.locationByKey.set(id, location);
      this.locations.push({ id, name: id, type: null, path: [id] });
    }
    return location;
  }

  /**
   * Loads the documents of `previous` whose products did not change (`changed`: the ids of those
   * that did, read again afterwards) as if their rows were read again: the same columns, group,
   * dictionary numbers (so labels, brand pictures and priorities come out as a full build's),
   * merchants and offers; stock as `available` says for those whose availability changed.
   */
  async replay(previous: ShopIndex, source: ReplaySource, changed: Set<string>, available: Map<string, boolean>): Promise<void> {
    this.knownGroups = source.groups;
    this.groupCount = source.groupCount;
    // First the columns, stock, group, merchants and offers, in document order (the previous
    // index's arrays read front to back): loads are then in order of price and id.
    // Previous location number → ours, as offers name them (an unknown location no offer names
    // any more is left out, as a full build leaves it).
    const locationOf = new Int32Array(previous.locations.length).fill(-1);
    const merchantsOf: string[][] = [];
    for (const [key, docs] of previous.merchants) for (const doc of docs) (merchantsOf[doc] ??= []).push(key);
    const loadOfDoc = new Int32Array(previous.n).fill(-1);
    // Room for every replayed document and offer up front: a list that doubles as it fills
    // held the event loop up to ~0.13 s (a large typed array made and copied) at 1,000,000.
    // Each made in a turn of its own (a new array's pages cost ~1.5 µs each on first touch here).
    const offers = previous.offerLocation.length;
    for (const [list, size] of [
      ...[this.price, this.oldprice, this.discount, this.salesRate, this.date, this.priceMargin, this.rating, this.groups, this.availableLoads, this.tokenFrom, this.tokenTo].map((list) => [list, previous.n] as const),
      ...[this.offerLoads, this.offerLocation, this.offerPrice, this.offerOldprice, this.offerDiscount].map((list) => [list, offers] as const),
    ]) {
      list.reserve(size);
      await yieldToEventLoop();
    }
    for (let doc = 0; doc < previous.n; doc++) {
      if ((doc & 0xfff) === 0xfff) await yieldToEventLoop();
      const id = idOf(previous, doc);
      if (changed.has(id)) continue;
      const load = this.ids.length;
      loadOfDoc[doc] = load;
      this.ids.push(id);
      this.price.push(previous.price[doc]);
      this.oldprice.push(previous.oldprice[doc]);
      this.discount.push(previous.discount[doc]);
      this.salesRate.push(previous.salesRate[doc]);
      this.date.push(previous.date[doc]);
      this.priceMargin.push(previous.priceMargin[doc]);
      this.rating.push(previous.rating[doc]);
      if (available.get(id) ?? has(previous.available, doc)) this.availableLoads.push(load);
      this.groups.push(previous.groupOf[doc]);
      this.tokenFrom.push(0);
      this.tokenTo.push(0);
      for (const key of merchantsOf[doc] ?? []) this.addMerchant(key, load);
      const rank = previous.groupRank[doc];
      for (let o = previous.rankOfferOffsets[rank]; o < previous.rankOfferOffsets[rank + 1]; o++) {
        const location = previous.offerLocation[o];
        if (locationOf[location] < 0) locationOf[location] = this.locationNumber(previous.locations[location].id);
        this.pushOffer(load, locationOf[location], previous.offerPrice[o], previous.offerOldprice[o], previous.offerDiscount[o]);
      }
    }
    // Then the dictionary numbers, in group order (as the postings are laid out, so their layout
    // reads these front to back), copied in runs of unchanged documents; what a number posts is
    // learnt in that order. No load is added now: the views stay valid.
    const { tokenOffsets, tokenNumbers } = source;
    const { numberInfo } = this;
    const tokenFrom = this.tokenFrom.view();
    const tokenTo = this.tokenTo.view();
    let runFrom = 0;
    // Room for them all at once (growing a list of ~20 million numbers by doubling copies it
    // again each time); a long run is copied in slices, a turn of the event loop after each.
    this.tokenNumbers.reserve(tokenOffsets[previous.n]);
    await yieldToEventLoop();
    const copyRun = async (to: number) => {
      for (let from = tokenOffsets[runFrom], end = tokenOffsets[to]; from < end; from += COPY_SLICE) {
        this.tokenNumbers.append(tokenNumbers, from, Math.min(end, from + COPY_SLICE));
        if (end - from > COPY_SLICE) await yieldToEventLoop();
      }
    };
    let tokenCount = this.tokenNumbers.length;
    for (let rank = 0; rank < previous.n; rank++) {
      if ((rank & 0x3fff) === 0x3fff) await yieldToEventLoop();
      const load = loadOfDoc[previous.groupOrder[rank]];
      if (load < 0) {
        await copyRun(rank);
        runFrom = rank + 1;
        continue;
      }
      for (let t = tokenOffsets[rank]; t < tokenOffsets[rank + 1]; t++) if (numberInfo[tokenNumbers[t]] === undefined) this.learnNumber(tokenNumbers[t]);
      tokenFrom[load] = tokenCount;
      tokenCount += tokenOffsets[rank + 1] - tokenOffsets[rank];
      tokenTo[load] = tokenCount;
    }
    await copyRun(previous.n);
    // The replayed loads in id order (the previous index's); by price and id they are in load order.
    const idOrder = new Int32Array(this.ids.length);
    let k = 0;
    for (let rank = 0; rank < previous.n; rank++) if (loadOfDoc[previous.idOrder[rank]] >= 0) idOrder[k++] = loadOfDoc[previous.idOrder[rank]];
    this.replayedIdOrder = idOrder;
  }

  /** What the next build replays: each document's dictionary numbers (laid out by `post`), and the group ids in use. */
  private replaySource(tokens: { offsets: Int32Array; numbers: Int32Array | Uint16Array }, denseGroup: Int32Array | null, groupCount: number): ReplaySource | null {
    if (this.textTokens) return null;
    const inUse = function* (entries: Iterable<[string, number]>): Generator<[string, number]> {
      for (const [groupId, group] of entries) {
        if (!denseGroup) yield [groupId, group];
        else if (denseGroup[group] >= 0) yield [groupId, denseGroup[group]];
      }
    };
    // The previous table again when no group id came or was renumbered (the usual rebuild).
    const groups =
      this.knownGroups && this.groupIds.size === 0 && !denseGroup
        ? this.knownGroups
        : new StringTable([...(this.knownGroups ? inUse(this.knownGroups.entries()) : []), ...inUse(this.groupIds)]);
    return { tokenOffsets: tokens.offsets, tokenNumbers: tokens.numbers, groups, groupCount };
  }

  /** What the posting pass (layout-kernel.ts) reads: the loads' tokens, and per token number what it posts. */
  private layoutTask(perm: Int32Array, groupOrder: Int32Array, renumber: Int32Array, loadIdRank: Int32Array, valueDim: Int32Array, postOffsets: Int32Array): LayoutTask {
    const { numberInfo } = this;
    const numbers = numberInfo.length;
    const numberFrom = new Int32Array(numbers + 1);
    const numberVariant = new Int32Array(numbers).fill(-1);
    const numberRole = new Uint8Array(numbers);
    let widest = 0;
    for (let k = 0; k < numbers; k++) {
      const info = numberInfo[k];
      numberFrom[k + 1] = numberFrom[k] + (info?.values.length ?? 0);
      widest = Math.max(widest, info?.values.length ?? 0);
      numberVariant[k] = info?.variant ?? -1;
      numberRole[k] = info?.picture != null ? ROLE_PICTURE : info?.kind === KIND_BRAND ? ROLE_BRAND : 0;
    }
    const numberValues = new Int32Array(numberFrom[numbers]);
    for (let k = 0; k < numbers; k++) numberInfo[k]?.values.forEach((value, i) => (numberValues[numberFrom[k] + i] = renumber[value]));
    const valueCount = this.valueKey.length;
    return {
      n: perm.length,
      perm,
      groupOrder,
      loadFrom: this.tokenFrom.view(),
      loadTo: this.tokenTo.view(),
      loadNumbers: this.tokenNumbers.view(),
      loadPrice: this.price.view(),
      loadIdRank,
      numberFrom,
      numberValues,
      numberVariant,
      numberRole,
      variantCount: this.variantValue.length,
      perToken: 2 * widest,
      valueDim,
      valueCount,
      dimCount: this.dims.length,
      firstParamDim: FIRST_PARAM_DIM,
      narrow: valueCount + this.dims.length < 65536,
      postOffsets,
    };
  }

  /**
   * Renumbers the values so each dimension's are consecutive (in the order first seen), in every
   * structure that holds value numbers but the postings; returns old number → new number.
   */
  private numberValuesByDimension(): Int32Array {
    const count = this.valueKey.length;
    const order = Array.from({ length: count }, (_, value) => value).sort((a, b) => this.valueDim[a] - this.valueDim[b] || a - b);
    const renumber = new Int32Array(count);
    order.forEach((old, value) => (renumber[old] = value));
    const permute = <T>(list: T[]) => order.map((old) => list[old]);
    this.valueDim = permute(this.valueDim);
    this.valueKey = permute(this.valueKey);
    this.valueLabel = permute(this.valueLabel);
    this.valueNumber = permute(this.valueNumber);
    for (const dimension of this.dims) for (const [key, old] of dimension.values) dimension.values.set(key, renumber[old]);
    this.variantValue = this.variantValue.map((old) => renumber[old]);
    return renumber;
  }

  /** The index. Gives the event loop a turn between its steps (queries go on meanwhile). */
  async finish(version: number, treeFingerprint: string): Promise<ShopIndex> {
    const n = this.ids.length;
    const loadIds = this.ids;
    // Where the layout's time goes, for the log (`buildSteps`).
    const steps: string[] = [];
    let stepStarted = performance.now();
    const step = (name: string) => {
      const now = performance.now();
      steps.push(`${name} ${((now - stepStarted) / 1000).toFixed(1)}`);
      stepStarted = now;
    };
    // Ranks of the ids in code-unit order, then documents by (price, id). Replayed loads are known
    // in both orders (the previous index's): only the rows read are sorted, then merged in.
    const replayed = this.replayedIdOrder;
    const readLoads = replayed ? Int32Array.from({ length: n - replayed.length }, (_, i) => replayed.length + i) : null;
    const idBefore = (a: number, b: number) => loadIds[a] < loadIds[b];
    let byId: Int32Array;
    if (replayed && readLoads) {
      readLoads.sort((a, b) => compareIds(loadIds[a], loadIds[b]));
      byId = await mergeSortedInTurns(replayed, readLoads, idBefore, yieldToEventLoop);
    } else {
      byId = new Int32Array(n);
      for (let load = 0; load < n; load++) byId[load] = load;
      await sortInTurns(byId, (a, b) => compareIds(loadIds[a], loadIds[b]), yieldToEventLoop);
    }
    const loadIdRank = new Int32Array(n);
    for (let rank = 0; rank < n; rank++) loadIdRank[byId[rank]] = rank;
    await yieldToEventLoop();
    // Documents by (price, id): the loads in id order, sorted stably by price.
    const loadPrice = this.price.view();
    let perm: Int32Array; // document → load number
    if (replayed && readLoads) {
      const priceBefore = (a: number, b: number) => loadPrice[a] < loadPrice[b] || (loadPrice[a] === loadPrice[b] && loadIdRank[a] < loadIdRank[b]);
      readLoads.sort((a, b) => (priceBefore(a, b) ? -1 : priceBefore(b, a) ? 1 : 0));
      perm = await mergeSortedInTurns(Int32Array.from({ length: replayed.length }, (_, load) => load), readLoads, priceBefore, yieldToEventLoop);
    } else {
      perm = byId.slice();
      await sortByKeyInTurns(perm, loadPrice, yieldToEventLoop);
    }
    const docOfLoad = new Int32Array(n);
    for (let doc = 0; doc < n; doc++) docOfLoad[perm[doc]] = doc;
    step('ids and prices sorted');
    await yieldToEventLoop();

    const gather = (list: FloatList) => {
      const from = list.view();
      const to = new Float64Array(n);
      for (let doc = 0; doc < n; doc++) to[doc] = from[perm[doc]];
      return to;
    };
    const idOffsets = new Int32Array(n + 1);
    const idParts = new Array<string>(n);
    const idRank = new Int32Array(new SharedArrayBuffer(4 * n)); // shared: the counting worker orders ties by it
    const groupOf = new Int32Array(n);
    const loadGroups = this.groups.view();
    // Group numbers index arrays of the catalog's size: made dense again when a rebuild's (which
    // leaves those of groups its changes emptied unused) outgrew it.
    const renumberGroups = this.groupCount > n;
    const denseGroup = renumberGroups ? new Int32Array(this.groupCount).fill(-1) : null;
    let groupCount = renumberGroups ? 0 : this.groupCount;
    for (let doc = 0; doc < n; doc++) {
      const load = perm[doc];
      idParts[doc] = loadIds[load];
      idOffsets[doc + 1] = idOffsets[doc] + loadIds[load].length;
      idRank[doc] = loadIdRank[load];
      const group = loadGroups[load];
      if (denseGroup && denseGroup[group] < 0) denseGroup[group] = groupCount++;
      groupOf[doc] = denseGroup ? denseGroup[group] : group;
      if ((doc & 0xffff) === 0xffff) await yieldToEventLoop();
    }
    await yieldToEventLoop();
    // Joined in slices (a million at once held the event loop ~0.2 s).
    const idSlices: string[] = [];
    for (let from = 0; from < n; from += 1 << 16) {
      idSlices.push(idParts.slice(from, from + (1 << 16)).join(''));
      await yieldToEventLoop();
    }
    const idText = idSlices.join('');
    this.ids = [];
    const idOrder = new Int32Array(n);
    for (let rank = 0; rank < n; rank++) idOrder[rank] = docOfLoad[byId[rank]];

    await yieldToEventLoop();
    // Counting sort of documents by group.
    const groupStart = new Int32Array(groupCount + 1);
    for (let doc = 0; doc < n; doc++) groupStart[groupOf[doc] + 1]++;
    for (let g = 0; g < groupCount; g++) groupStart[g + 1] += groupStart[g];
    // What counting reads is in shared memory: the counting worker reads it without a copy.
    const groupOrder = new Int32Array(new SharedArrayBuffer(4 * n));
    const groupRank = new Int32Array(n);
    const fill = groupStart.slice(0, groupCount);
    for (let doc = 0; doc < n; doc++) {
      const rank = fill[groupOf[doc]]++;
      groupOrder[rank] = doc;
      groupRank[doc] = rank;
    }
    await yieldToEventLoop();

    step('groups');
    // Values renumbered so each dimension's are consecutive; then each document's values and
    // per value its documents are laid out aside (layout-worker.ts) while this thread lays out the
    // rest.
    const valueCount = this.valueKey.length;
    const dimCount = this.dims.length;
    const renumber = this.numberValuesByDimension();
    const valueDim = Int32Array.from(this.valueDim);
    const postOffsets = new Int32Array(new SharedArrayBuffer(4 * (n + 1)));
    const task = this.layoutTask(perm, groupOrder, renumber, loadIdRank, valueDim, postOffsets);
    // What this thread no longer reads goes over without a copy (a clone copies each view's
    // whole buffer, on the event loop); the rest (perm, prices, valueDim) is read again below.
    const handedOver = [task.loadNumbers, task.loadFrom, task.loadTo, task.loadIdRank, task.numberFrom, task.numberValues, task.numberVariant, task.numberRole];
    const laidOut = layOutAside(task, handedOver.map((array) => array.buffer as ArrayBuffer));
    laidOut.catch(() => undefined); // awaited below; this keeps an early failure here from going unhandled
    await yieldToEventLoop();
    const groupOfRank = new Int32Array(new SharedArrayBuffer(4 * n));
    for (let rank = 0; rank < n; rank++) groupOfRank[rank] = groupOf[groupOrder[rank]];
    const dimValues = new Int32Array(dimCount + 1);
    for (let value = 0; value < valueCount; value++) dimValues[valueDim[value] + 1]++;
    for (let dim = 0; dim < dimCount; dim++) dimValues[dim + 1] += dimValues[dim];

    // A product's load number by binary search over the sorted ids (a map of every id took ~1 s
    // of a 1,000,000-product build in a profile); -1 when it is not in the snapshot.
    const loadOfId = (id: string) => {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (loadIds[byId[mid]] < id) lo = mid + 1;
        else hi = mid;
      }
      return lo < n && loadIds[byId[lo]] === id ? byId[lo] : -1;
    };
    await yieldToEventLoop();
    const available = emptySet(n);
    const availableLoads = this.availableLoads.view();
    for (let i = 0; i < availableLoads.length; i++) add(available, docOfLoad[availableLoads[i]]);
    await yieldToEventLoop();
    if (this.stockExceptions) {
      const { ids, available: stock } = this.stockExceptions;
      for (const id of ids) {
        const load = loadOfId(id);
        if (load >= 0) (stock ? add : remove)(available, docOfLoad[load]);
      }
      this.stockExceptions = null;
    }

    const offerLoad = this.offerLoads.view();
    const offerCount = offerLoad.length;
    // Locations compared by their ids' order, as numbers.
    const locationRank = new Int32Array(this.locations.length);
    Array.from(this.locations.keys())
      .sort((a, b) => compareIds(this.locations[a].id, this.locations[b].id))
      .forEach((location, rank) => (locationRank[location] = rank));

    // Offers per document in group order, each document's sorted by location id (ties in prices go
    // to the lowest).
    const offerRankOfArrival = new Int32Array(offerCount);
    for (let o = 0; o < offerCount; o++) offerRankOfArrival[o] = groupRank[docOfLoad[offerLoad[o]]];
    await yieldToEventLoop();
    const rankOfferOffsets = new Int32Array(n + 1);
    for (let o = 0; o < offerCount; o++) rankOfferOffsets[offerRankOfArrival[o] + 1]++;
    for (let rank = 0; rank < n; rank++) rankOfferOffsets[rank + 1] += rankOfferOffsets[rank];
    const placed = new Int32Array(offerCount); // position → arriving offer
    const next = rankOfferOffsets.slice(0, n);
    await yieldToEventLoop();
    for (let o = 0; o < offerCount; o++) {
      placed[next[offerRankOfArrival[o]]++] = o;
      if ((o & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
    }
    const arrivingLocation = this.offerLocation.view();
    await yieldToEventLoop();
    for (let rank = 0; rank < n; rank++) {
      if ((rank & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
      const from = rankOfferOffsets[rank];
      const to = rankOfferOffsets[rank + 1];
      // Insertion sort: a product has a handful of offers.
      for (let i = from + 1; i < to; i++) {
        const offer = placed[i];
        const rank = locationRank[arrivingLocation[offer]];
        let j = i - 1;
        while (j >= from && locationRank[arrivingLocation[placed[j]]] > rank) {
          placed[j + 1] = placed[j];
          j--;
        }
        placed[j + 1] = offer;
      }
    }
    const arrivingPrice = this.offerPrice.view();
    const arrivingOldprice = this.offerOldprice.view();
    const arrivingDiscount = this.offerDiscount.view();
    const offerLocation = new Int32Array(offerCount);
    const offerPrice = new Float64Array(offerCount);
    const offerOldprice = new Float64Array(offerCount);
    const offerDiscount = new Float64Array(offerCount);
    const offerRank = new Int32Array(offerCount);
    for (let i = 0; i < offerCount; i++) {
      const o = placed[i];
      offerLocation[i] = arrivingLocation[o];
      offerPrice[i] = arrivingPrice[o];
      offerOldprice[i] = arrivingOldprice[o];
      offerDiscount[i] = arrivingDiscount[o];
      if ((i & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
    }
    await yieldToEventLoop();
    for (let rank = 0; rank < n; rank++) offerRank.fill(rank, rankOfferOffsets[rank], rankOfferOffsets[rank + 1]);
    await yieldToEventLoop();
    const withoutOffers = emptySet(n);
    for (let rank = 0; rank < n; rank++) if (rankOfferOffsets[rank] === rankOfferOffsets[rank + 1]) add(withoutOffers, groupOrder[rank]);
    await yieldToEventLoop();
    const locationOfferOffsets = new Int32Array(this.locations.length + 1);
    for (let o = 0; o < offerCount; o++) locationOfferOffsets[offerLocation[o] + 1]++;
    for (let l = 0; l < this.locations.length; l++) locationOfferOffsets[l + 1] += locationOfferOffsets[l];
    const locationOffers = new Int32Array(offerCount);
    const nextOffer = locationOfferOffsets.slice(0, this.locations.length);
    for (let o = 0; o < offerCount; o++) locationOffers[nextOffer[offerLocation[o]]++] = o;
    step('offers');
    await yieldToEventLoop();
    const locationDescendants = this.locations.map((_, number) => {
      const id = this.locations[number].id;
      const below: number[] = [];
      this.locations.forEach((other, otherNumber) => {
        if (other.path.includes(id)) below.push(otherNumber);
      });
      return Int32Array.from(below);
    });
    const subtreeOffers = await offersBySubtree(n, locationDescendants, { offerRank, offerPrice, locationOfferOffsets, locationOffers });
    const locationAncestors = this.locations.map((node) =>
      Int32Array.from(node.path.map((id) => this.locationByKey.get(id)).filter((number): number is number => number !== undefined)),
    );

    await yieldToEventLoop();
    const columns: Float64Array[] = [];
    for (const list of [this.price, this.oldprice, this.discount, this.date, this.priceMargin, this.rating]) {
      columns.push(gather(list));
      await yieldToEventLoop();
    }
    const [price, oldprice, discount, date, priceMargin, rating] = columns;
    const salesRate = gather(this.salesRate);
    let maxSalesRate = 0;
    for (let doc = 0; doc < n; doc++) if (salesRate[doc] > maxSalesRate) maxSalesRate = salesRate[doc];
    await yieldToEventLoop();
    const merchants = new Map<string, Int32Array>();
    for (const [key, loads] of this.merchantLoads) merchants.set(key, Int32Array.from(loads, (load) => docOfLoad[load]).sort());
    step('columns');
    const { postings, paramDims, invOffsets, invDocs, tokenOffsets, tokenNumbers, variantLoad, pictureNumber, pictureLoad } = await laidOut;
    this.tokenNumbers = new IntList(1);
    step('postings and inverted lists (waited for)');
    await yieldToEventLoop();
    // A brand's picture: its cheapest product's that has one (the layout found it).
    const brandPicture = new Map<number, string>();
    for (let value = 0; value < valueCount; value++) if (pictureLoad[value] >= 0) brandPicture.set(value, this.numberInfo[pictureNumber[value]]!.picture!);
    // Each case-folded value shows its cheapest product's spelling (then the lowest id's; one
    // product with two spellings: the first in code-unit order, whatever order rows came in).
    const variantPrice = Array.from(variantLoad, (load) => (load < 0 ? Infinity : loadPrice[load]));
    const variantId = Array.from(variantLoad, (load) => (load < 0 ? '' : loadIds[load]));
    const { variantLabel } = this;
    const bestVariant = new Map<number, number>();
    for (let v = 0; v < this.variantValue.length; v++) {
      const value = this.variantValue[v];
      const best = bestVariant.get(value);
      if (
        best === undefined ||
        variantPrice[v] < variantPrice[best] ||
        (variantPrice[v] === variantPrice[best] && (variantId[v] < variantId[best] || (variantId[v] === variantId[best] && variantLabel[v] < variantLabel[best])))
      ) {
        bestVariant.set(value, v);
      }
    }
    for (const [value, v] of bestVariant) this.valueLabel[value] = this.variantLabel[v];
    await yieldToEventLoop();
    const replay = this.replaySource({ offsets: tokenOffsets, numbers: tokenNumbers }, denseGroup, groupCount);

    return {
      shopId: this.shopId,
      version,
      treeFingerprint,
      buildMs: 0,
      buildSteps: steps.join(', '),
      n,
      idText,
      idOffsets,
      idRank,
      idOrder,
      price,
      oldprice,
      discount,
      salesRate,
      date,
      priceMargin,
      rating,
      maxSalesRate,
      groupOf,
      groupOrder,
      groupRank,
      groupOfRank,
      available,
      dims: this.dims,
      dimByKey: this.dimByKey,
      valueDim,
      valueKey: this.valueKey,
      valueLabel: this.valueLabel,
      valueNumber: Float64Array.from(this.valueNumber),
      dimValues,
      postOffsets,
      postings,
      paramDims,
      invOffsets,
      invDocs,
      brandPicture,
      merchants,
      withoutOffers,
      rankOfferOffsets,
      offerLocation,
      offerRank,
      locationOfferOffsets,
      locationOffers,
      offerPrice,
      offerOldprice,
      offerDiscount,
      locations: this.locations,
      locationByKey: this.locationByKey,
      locationDescendants,
      subtreeOffers,
      locationAncestors,
      knownLocations: this.knownLocations,
      categories: this.categories,
      replay,
      reread: null,
      memo: new Memo(),
      cache: new Map(),
    };
  }
}

// Dictionary numbers a replay copies between turns of the event loop.
const COPY_SLICE = 1 << 20;

/**
 * Per location, the offers pricing each document in stock somewhere in its subtree, by rank (see
 * ShopIndex.subtreeOffers); null where at most one location of the subtree has offers.
 */
async function offersBySubtree(n: number, descendants: Int32Array[], lists: OfferLists): Promise<(Int32Array | null)[]> {
  const best = new Int32Array(n).fill(-1);
  const found = emptySet(n);
  const subtrees: (Int32Array | null)[] = [];
  for (const below of descendants) {
    const withOffers = Array.from(below).filter((location) => lists.locationOfferOffsets[location + 1] > lists.locationOfferOffsets[location]);
    subtrees.push(withOffers.length < 2 ? null : cheapestOffers(lists, withOffers, best, found));
    // A subtree near the root holds most offers (~0.2 s for all of them at 1,000,000 products).
    await yieldToEventLoop();
  }
  return subtrees;
}

/**
 * Bytes the index holds in typed arrays plus a rough figure for its strings and maps, and what
 * its queries have kept with it (orders, kept counts, buffers, the word index).
 */
export function indexBytes(index: ShopIndex): number {
  let bytes = 0;
  for (const [key, value] of Object.entries(index)) {
    if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    else if (key === 'cache') bytes += keptBytes(value, 4);
  }
  bytes += memoBytes(index.memo);
  // ids, value dictionary, merchants, what the next build replays.
  bytes += index.idText.length * 2 + index.valueKey.length * 160;
  for (const docs of index.merchants.values()) bytes += docs.byteLength;
  for (const offers of index.subtreeOffers) bytes += offers?.byteLength ?? 0;
  if (index.replay) {
    const { tokenOffsets, tokenNumbers, groups } = index.replay;
    bytes += tokenOffsets.byteLength + tokenNumbers.byteLength + groups.bytes;
  }
  return bytes;
}

/**
 * Bytes of every array buffer the index holds, each counted once whichever thread made it (the
 * layout worker makes the postings, inverted lists and replayed tokens: the process's count of
 * this thread's array buffers leaves them out): columns, postings, what it replays and keeps.
 */
export function heldBufferBytes(index: ShopIndex): number {
  const seen = new Set<ArrayBufferLike>();
  let bytes = 0;
  const visit = (value: unknown, depth: number) => {
    if (ArrayBuffer.isView(value)) {
      if (!seen.has(value.buffer)) {
        seen.add(value.buffer);
        bytes += value.buffer.byteLength;
      }
      return;
    }
    if (depth === 0 || value === null || typeof value !== 'object' || value instanceof Promise) return;
    // The memo's values one level down, each of a family's too (as when each was an entry of its own).
    if (value instanceof Memo) for (const item of memoValues(value)) visit(item, depth - 1);
    else for (const item of value instanceof Map ? value.values() : Array.isArray(value) ? value : Object.values(value)) visit(item, depth - 1);
  };
  visit(index, 4);
  return bytes;
}
