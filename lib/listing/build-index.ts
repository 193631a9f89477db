import type { Sql } from 'postgres';
import { add, emptySet, type Bitset } from './bitset';
import { FloatList, IntList } from './int-list';

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

export type CategoryNode = { id: string; name: string; parent: string | null; url: string | null; alias: string | null; path: string[]; depth: number; known: boolean };
export type LocationNode = { id: string; name: string; type: string | null; path: string[] };

export type ShopIndex = {
  shopId: string;
  version: number;
  treeFingerprint: string;
  buildMs: number;
  n: number;
  ids: string[];
  docById: Map<string, number>;
  // A document's place in the code-unit order of ids: ties in every order break on it.
  idRank: Int32Array;
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
  available: Bitset;
  // Facet values.
  dims: Dimension[];
  dimByKey: Map<string, number>;
  valueDim: Int32Array;
  valueKey: string[];
  valueLabel: string[];
  valueNumber: Float64Array; // NaN when not a number
  // Per document its values, laid out in groupOrder (the order counting visits documents in):
  // the values of the document at rank r are postings[postOffsets[r] .. postOffsets[r + 1]).
  postOffsets: Int32Array;
  postings: Int32Array;
  invOffsets: Int32Array; // value → range of invDocs
  invDocs: Int32Array;
  brandPicture: Map<number, string>;
  // Merchants filter only (no facet).
  merchants: Map<string, Int32Array>;
  // Location offers, per document (sorted by location id); documents without any are in stock everywhere.
  withoutOffers: Bitset;
  offerOffsets: Int32Array;
  offerLocation: Int32Array;
  offerDoc: Int32Array;
  // Offers by location: location number → range of locationOffers (offer numbers).
  locationOfferOffsets: Int32Array;
  locationOffers: Int32Array;
  offerPrice: Float64Array;
  offerOldprice: Float64Array;
  offerDiscount: Float64Array;
  locations: LocationNode[]; // by location number; ids of unknown locations come last
  locationByKey: Map<string, number>;
  locationDescendants: Int32Array[]; // number → itself and every location below it
  locationAncestors: Int32Array[]; // number → itself and every location above it
  knownLocations: number;
  categories: Map<string, CategoryNode>;
  // Filled on first use and kept with this version.
  cache: Map<string, unknown>;
};

type Row = {
  id: string;
  group_id: string | null;
  price: number;
  oldprice: number | null;
  discount_percent: number;
  brand: string | null;
  brand_picture: string | null;
  merchants: string[] | null;
  categories: string[];
  rating: number | null;
  price_margin: number | null;
  sales_rate: number;
  date: number;
  available: boolean;
  params: { name?: unknown; value?: unknown; priority?: unknown; searchable?: unknown }[] | null;
  fashion: { sizes?: unknown; colors?: unknown } | null;
  offer_locations: string[] | null;
  offer_prices: number[] | null;
  offer_oldprices: (number | null)[] | null;
  offer_discounts: number[] | null;
};

const NUMERIC_TEXT = /^-?\d+(\.\d+)?$/;

/** How a param or feature value is keyed: JSON Booleans match "true"/"false" (CONTRACT §3). */
export function valueKeyOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

/** Brands, merchants, colours and sizes compare case-insensitively. */
export function foldCase(value: string): string {
  return value.trim().toLowerCase();
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function loadTree(sql: Sql, shopId: string) {
  const categoryRows = await sql<{ id: string; name: string; parent: string | null; url: string | null; alias: string | null; path: string[]; depth: number }[]>`
    select id, name, parent, url, alias, path, depth from categories where shop_id = ${shopId}`;
  const locationRows = await sql<{ id: string; name: string; type: string | null; path: string[] }[]>`
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

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads a shop's catalog in one snapshot and builds its index. Rows arrive in batches and the
 * event loop gets a turn between them, so queries on the previous index keep being answered.
 */
export async function buildIndex(sql: Sql, shopId: string): Promise<ShopIndex> {
  const started = performance.now();
  return sql.begin('isolation level repeatable read read only', async (tx) => {
    const state = await catalogState(tx as unknown as Sql, shopId);
    const tree = await loadTree(tx as unknown as Sql, shopId);
    const builder = new IndexBuilder(shopId, tree.categoryRows, tree.locationRows);
    const cursor = tx<Row[]>`
      select p.id, p.group_id, p.price, p.oldprice, p.discount_percent, p.brand, p.data->>'brand_picture' as brand_picture,
             p.merchants, p.categories, p.rating, p.price_margin, p.sales_rate,
             (extract(epoch from coalesce(p.creation_date, p.first_added_at)) * 1000)::float8 as date,
             st.available, p.data->'params' as params, p.data->'fashion' as fashion,
             o.locations as offer_locations, o.prices as offer_prices, o.oldprices as offer_oldprices, o.discounts as offer_discounts
        from products p
        join product_state st on st.shop_id = p.shop_id and st.product_id = p.id
        left join (select product_id, array_agg(location_id order by location_id collate "C") as locations,
                          array_agg(price order by location_id collate "C") as prices,
                          array_agg(oldprice order by location_id collate "C") as oldprices,
                          array_agg(discount_percent order by location_id collate "C") as discounts
                     from product_offers where shop_id = ${shopId} group by product_id) o on o.product_id = p.id
       where p.shop_id = ${shopId}
       order by p.price, p.id collate "C"`.cursor(5000);
    for await (const rows of cursor) {
      for (const row of rows) builder.add(row);
      await yieldToEventLoop();
    }
    const index = await builder.finish(state?.version ?? 0, state?.treeFingerprint ?? '');
    await yieldToEventLoop();
    index.idRank = await idRanks(tx as unknown as Sql, index);
    index.buildMs = performance.now() - started;
    return index;
  });
}

/**
 * Ranks of the ids in code-unit order. PostgreSQL sorts them (collation "C": code points, the same
 * order except between astral characters and U+E000–U+FFFF), this checks each neighbour pair and
 * sorts in JavaScript only when that check fails.
 */
async function idRanks(sql: Sql, index: ShopIndex): Promise<Int32Array> {
  const ranks = new Int32Array(index.n);
  let rank = 0;
  let previous: string | null = null;
  let ordered = true;
  for await (const rows of sql<{ id: string }[]>`select id from products where shop_id = ${index.shopId} order by id collate "C"`.cursor(20_000)) {
    for (const { id } of rows) {
      if (previous !== null && !(previous < id)) ordered = false;
      previous = id;
      ranks[index.docById.get(id)!] = rank++;
    }
    await yieldToEventLoop();
  }
  if (ordered && rank === index.n) return ranks;
  const order = Array.from(index.ids.keys()).sort((a, b) => compareIds(index.ids[a], index.ids[b]));
  order.forEach((doc, i) => (ranks[doc] = i));
  return ranks;
}

class IndexBuilder {
  private ids: string[] = [];
  private docById = new Map<string, number>();
  private price = new FloatList();
  private oldprice = new FloatList();
  private discount = new FloatList();
  private salesRate = new FloatList();
  private date = new FloatList();
  private priceMargin = new FloatList();
  private rating = new FloatList();
  private groups: number[] = [];
  private groupIds = new Map<string, number>();
  private groupCount = 0;
  private availableDocs = new IntList();
  private dims: Dimension[] = [];
  private dimByKey = new Map<string, number>();
  private valueDim: number[] = [];
  private valueKey: string[] = [];
  private valueLabel: string[] = [];
  private valueNumber: number[] = [];
  private valueStamp: number[] = [];
  private postOffsets = new IntList();
  private postings = new IntList(1 << 16);
  private brandPicture = new Map<number, string>();
  private merchantDocs = new Map<string, number[]>();
  private offerOffsets = new IntList();
  private offerLocation = new IntList();
  private offerPrice = new FloatList();
  private offerOldprice = new FloatList();
  private offerDiscount = new FloatList();
  private withoutOffers = new IntList();
  private categories = new Map<string, CategoryNode>();
  private locations: LocationNode[] = [];
  private locationByKey = new Map<string, number>();
  private knownLocations: number;

  constructor(
    private shopId: string,
    categoryRows: Omit<CategoryNode, 'known'>[],
    locationRows: LocationNode[],
  ) {
    for (const row of categoryRows) this.categories.set(row.id, { ...row, known: true });
    for (const row of locationRows) {
      this.locationByKey.set(row.id, this.locations.length);
      this.locations.push(row);
    }
    this.knownLocations = this.locations.length;
    for (const key of ['category', 'brand', 'color', 'size']) this.dimension(key, false);
    this.postOffsets.push(0);
    this.offerOffsets.push(0);
  }

  private dimension(key: string, param: boolean): number {
    const mapKey = param ? `param:${key}` : key;
    let dim = this.dimByKey.get(mapKey);
    if (dim === undefined) {
      dim = this.dims.length;
      this.dims.push({ key, param, values: new Map(), priority: 0, numeric: param });
      this.dimByKey.set(mapKey, dim);
    }
    return dim;
  }

  private post(doc: number, dim: number, key: string, label: string): number {
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
      this.valueStamp.push(-1);
      if (dimension.param && Number.isNaN(asNumber)) dimension.numeric = false;
    }
    if (this.valueStamp[value] !== doc) {
      this.valueStamp[value] = doc;
      this.postings.push(value);
    }
    return value;
  }

  add(row: Row): void {
    const doc = this.ids.length;
    this.ids.push(row.id);
    this.docById.set(row.id, doc);
    this.price.push(row.price);
    this.oldprice.push(row.oldprice ?? NaN);
    this.discount.push(row.discount_percent);
    this.salesRate.push(row.sales_rate);
    this.date.push(row.date);
    this.priceMargin.push(row.price_margin ?? NaN);
    this.rating.push(row.rating ?? NaN);
    if (row.available) this.availableDocs.push(doc);

    let group: number;
    if (row.group_id === null) group = this.groupCount++;
    else {
      const known = this.groupIds.get(row.group_id);
      group = known ?? this.groupCount++;
      if (known === undefined) this.groupIds.set(row.group_id, group);
    }
    this.groups.push(group);

    for (const id of row.categories) {
      const node = this.categories.get(id);
      if (node) for (const ancestor of node.path) this.post(doc, DIM_CATEGORY, ancestor, ancestor);
      else this.post(doc, DIM_CATEGORY, id, id);
    }
    if (row.brand && row.brand.trim() !== '') {
      const value = this.post(doc, DIM_BRAND, foldCase(row.brand), row.brand.trim());
      if (row.brand_picture && !this.brandPicture.has(value)) this.brandPicture.set(value, row.brand_picture);
    }
    const fashion = row.fashion;
    if (fashion && typeof fashion === 'object') {
      if (Array.isArray(fashion.colors)) {
        for (const entry of fashion.colors) {
          const color = entry && typeof entry === 'object' ? (entry as { color?: unknown }).color : undefined;
          if (typeof color === 'string' && color.trim() !== '') this.post(doc, DIM_COLOR, foldCase(color), color.trim());
        }
      }
      if (Array.isArray(fashion.sizes)) {
        for (const size of fashion.sizes) {
          const key = valueKeyOf(size);
          if (key !== null && key.trim() !== '') this.post(doc, DIM_SIZE, foldCase(key), key.trim());
        }
      }
    }
    for (const param of row.params ?? []) {
      // searchable:false params stay on the product but are neither filters nor facets.
      if (param.searchable === false || typeof param.name !== 'string' || param.name === '') continue;
      const dim = this.dimension(param.name, true);
      if (typeof param.priority === 'number' && param.priority > this.dims[dim].priority) this.dims[dim].priority = param.priority;
      const values = Array.isArray(param.value) ? param.value : [param.value];
      for (const raw of values) {
        const key = valueKeyOf(raw);
        if (key !== null) this.post(doc, dim, key, key);
      }
    }
    this.postOffsets.push(this.postings.length);

    for (const merchant of row.merchants ?? []) {
      const key = foldCase(merchant);
      const list = this.merchantDocs.get(key);
      if (list) {
        if (list[list.length - 1] !== doc) list.push(doc);
      } else this.merchantDocs.set(key, [doc]);
    }

    const offerLocations = row.offer_locations ?? [];
    if (offerLocations.length === 0) this.withoutOffers.push(doc);
    for (let i = 0; i < offerLocations.length; i++) {
      let location = this.locationByKey.get(offerLocations[i]);
      if (location === undefined) {
        location = this.locations.length;
        this.locationByKey.set(offerLocations[i], location);
        this.locations.push({ id: offerLocations[i], name: offerLocations[i], type: null, path: [offerLocations[i]] });
      }
      this.offerLocation.push(location);
      this.offerPrice.push(row.offer_prices![i]);
      this.offerOldprice.push(row.offer_oldprices![i] ?? NaN);
      this.offerDiscount.push(row.offer_discounts![i]);
    }
    this.offerOffsets.push(this.offerLocation.length);
  }

  /** The index; gives the event loop a turn between its steps (queries go on meanwhile). */
  async finish(version: number, treeFingerprint: string): Promise<ShopIndex> {
    const n = this.ids.length;
    const groupOf = Int32Array.from(this.groups);
    // Counting sort of documents by group.
    const groupStart = new Int32Array(this.groupCount + 1);
    for (let doc = 0; doc < n; doc++) groupStart[groupOf[doc] + 1]++;
    for (let g = 0; g < this.groupCount; g++) groupStart[g + 1] += groupStart[g];
    const groupOrder = new Int32Array(n);
    const groupRank = new Int32Array(n);
    const fill = groupStart.slice(0, this.groupCount);
    for (let doc = 0; doc < n; doc++) {
      const rank = fill[groupOf[doc]]++;
      groupOrder[rank] = doc;
      groupRank[doc] = rank;
    }
    await yieldToEventLoop();

    const postOffsets = this.postOffsets.toArray();
    const postings = this.postings.toArray();
    const valueCount = this.valueKey.length;
    const invOffsets = new Int32Array(valueCount + 1);
    for (let p = 0; p < postings.length; p++) invOffsets[postings[p] + 1]++;
    for (let v = 0; v < valueCount; v++) invOffsets[v + 1] += invOffsets[v];
    const invDocs = new Int32Array(postings.length);
    const cursor = invOffsets.slice(0, valueCount);
    for (let doc = 0; doc < n; doc++) {
      for (let p = postOffsets[doc]; p < postOffsets[doc + 1]; p++) invDocs[cursor[postings[p]]++] = doc;
      if ((doc & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
    }
    await yieldToEventLoop();

    // Re-lay the values in group order, so counting reads them front to back.
    const rankOffsets = new Int32Array(n + 1);
    for (let rank = 0; rank < n; rank++) {
      const doc = groupOrder[rank];
      rankOffsets[rank + 1] = rankOffsets[rank] + postOffsets[doc + 1] - postOffsets[doc];
    }
    const rankPostings = new Int32Array(postings.length);
    for (let rank = 0; rank < n; rank++) {
      const doc = groupOrder[rank];
      rankPostings.set(postings.subarray(postOffsets[doc], postOffsets[doc + 1]), rankOffsets[rank]);
    }
    await yieldToEventLoop();

    const available = emptySet(n);
    const availableDocs = this.availableDocs.toArray();
    for (let i = 0; i < availableDocs.length; i++) add(available, availableDocs[i]);
    const withoutOffers = emptySet(n);
    const withoutDocs = this.withoutOffers.toArray();
    for (let i = 0; i < withoutDocs.length; i++) add(withoutOffers, withoutDocs[i]);

    const offerOffsets = this.offerOffsets.toArray();
    const offerLocation = this.offerLocation.toArray();
    const offerDoc = new Int32Array(offerLocation.length);
    for (let doc = 0; doc < n; doc++) offerDoc.fill(doc, offerOffsets[doc], offerOffsets[doc + 1]);
    const locationOfferOffsets = new Int32Array(this.locations.length + 1);
    for (let o = 0; o < offerLocation.length; o++) locationOfferOffsets[offerLocation[o] + 1]++;
    for (let l = 0; l < this.locations.length; l++) locationOfferOffsets[l + 1] += locationOfferOffsets[l];
    const locationOffers = new Int32Array(offerLocation.length);
    const next = locationOfferOffsets.slice(0, this.locations.length);
    for (let o = 0; o < offerLocation.length; o++) locationOffers[next[offerLocation[o]]++] = o;

    const locationDescendants = this.locations.map((_, number) => {
      const id = this.locations[number].id;
      const below: number[] = [];
      this.locations.forEach((other, otherNumber) => {
        if (other.path.includes(id)) below.push(otherNumber);
      });
      return Int32Array.from(below);
    });
    const locationAncestors = this.locations.map((node) =>
      Int32Array.from(node.path.map((id) => this.locationByKey.get(id)).filter((number): number is number => number !== undefined)),
    );

    const salesRate = this.salesRate.toArray();
    let maxSalesRate = 0;
    for (let doc = 0; doc < n; doc++) if (salesRate[doc] > maxSalesRate) maxSalesRate = salesRate[doc];

    return {
      shopId: this.shopId,
      version,
      treeFingerprint,
      buildMs: 0,
      n,
      ids: this.ids,
      docById: this.docById,
      idRank: new Int32Array(n), // filled by idRanks()
      price: this.price.toArray(),
      oldprice: this.oldprice.toArray(),
      discount: this.discount.toArray(),
      salesRate,
      date: this.date.toArray(),
      priceMargin: this.priceMargin.toArray(),
      rating: this.rating.toArray(),
      maxSalesRate,
      groupOf,
      groupOrder,
      groupRank,
      available,
      dims: this.dims,
      dimByKey: this.dimByKey,
      valueDim: Int32Array.from(this.valueDim),
      valueKey: this.valueKey,
      valueLabel: this.valueLabel,
      valueNumber: Float64Array.from(this.valueNumber),
      postOffsets: rankOffsets,
      postings: rankPostings,
      invOffsets,
      invDocs,
      brandPicture: this.brandPicture,
      merchants: new Map([...this.merchantDocs].map(([key, docs]) => [key, Int32Array.from(docs)])),
      withoutOffers,
      offerOffsets,
      offerLocation,
      offerDoc,
      locationOfferOffsets,
      locationOffers,
      offerPrice: this.offerPrice.toArray(),
      offerOldprice: this.offerOldprice.toArray(),
      offerDiscount: this.offerDiscount.toArray(),
      locations: this.locations,
      locationByKey: this.locationByKey,
      locationDescendants,
      locationAncestors,
      knownLocations: this.knownLocations,
      categories: this.categories,
      cache: new Map(),
    };
  }
}

/** Bytes the index holds in typed arrays plus a rough figure for its strings and maps. */
export function indexBytes(index: ShopIndex): number {
  let bytes = 0;
  for (const value of Object.values(index)) {
    if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  }
  // ids (string + map entry), value dictionary, merchants.
  bytes += index.n * 120 + index.valueKey.length * 160;
  for (const docs of index.merchants.values()) bytes += docs.byteLength;
  return bytes;
}
