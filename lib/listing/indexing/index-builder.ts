import { storedOffers } from '@/lib/catalog/stored-offers';
import { yieldToEventLoop } from '@/lib/runtime/turns';
import { add, emptySet, has, remove } from './bitset';
import { bool, epochMs, float8, float8OrNaN, isNull, text, textOrNull, type BinaryRow } from './binary-copy';
import { BytesTable } from './bytes-table';
import type { CategoryNode } from '@/lib/catalog/tree';
import { facetTokenList, foldCase, parseParamToken, TOKEN_SEPARATOR } from '@/lib/catalog/facet-tokens';
import { Memo } from './memo';
import { loadOfId, orderByGroup, orderDocuments } from './document-order';
import { F_AVAILABLE, F_CATEGORIES, F_DATE, F_DISCOUNT, F_FASHION, F_GROUP, F_ID, F_MARGIN, F_MERCHANTS, F_OFFERS, F_OLDPRICE, F_PARAMS, F_PICTURE, F_PRICE, F_RATING, F_SALES, F_TOKENS, F_VALUES, F_BRAND } from './index-source';
import { FloatList, IntList } from './int-list';
import type { LayoutTask } from './layout-kernel';
import { layOutAside } from './layout-worker';
import { layOutOffers } from './offer-layout';
import { DIM_BRAND, DIM_CATEGORY, DIM_COLOR, DIM_SIZE, FIRST_PARAM_DIM, idOf, type Dimension, type LocationNode, type ReplaySource, type ShopIndex } from './shop-index';
import { replaySource } from './replay-source';
import type { StringTable } from './string-table';
import { bestSpellings, KIND_BRAND, KIND_CATEGORY, KIND_PICTURE, numberTables, type TokenInfo } from './token-info';

// The index builder: collects a shop's rows as they are read (or replayed from the previous
// index), then numbers documents and lays out the index (shop-index.ts).

// A decimal numeral, or a number as JSON gives it back (1e-7, 1e+21): a number's value key is its text.
const NUMERIC_TEXT = /^-?\d+(\.\d+)?(e[+-]\d+)?$/;

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


  /** What the posting pass (layout-kernel.ts) reads: the loads' tokens, and per token number what it posts. */
  private layoutTask(perm: Int32Array, groupOrder: Int32Array, renumber: Int32Array, loadIdRank: Int32Array, valueDim: Int32Array, postOffsets: Int32Array): LayoutTask {
    const { numberFrom, numberValues, numberVariant, numberRole, widest } = numberTables(this.numberInfo, renumber);
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
    const loadPrice = this.price.view();
    const { byId, loadIdRank, perm, docOfLoad } = await orderDocuments(loadIds, loadPrice, this.replayedIdOrder);
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
    const { groupOrder, groupRank } = orderByGroup(groupOf, groupCount);
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

    await yieldToEventLoop();
    const available = emptySet(n);
    const availableLoads = this.availableLoads.view();
    for (let i = 0; i < availableLoads.length; i++) add(available, docOfLoad[availableLoads[i]]);
    await yieldToEventLoop();
    if (this.stockExceptions) {
      const { ids, available: stock } = this.stockExceptions;
      for (const id of ids) {
        const load = loadOfId(loadIds, byId, id);
        if (load >= 0) (stock ? add : remove)(available, docOfLoad[load]);
      }
      this.stockExceptions = null;
    }

    const { rankOfferOffsets, offerLocation, offerPrice, offerOldprice, offerDiscount, offerRank, withoutOffers, locationOfferOffsets, locationOffers, locationDescendants, subtreeOffers, locationAncestors } =
      await layOutOffers(
        n,
        { loads: this.offerLoads.view(), location: this.offerLocation.view(), price: this.offerPrice.view(), oldprice: this.offerOldprice.view(), discount: this.offerDiscount.view() },
        { locations: this.locations, locationByKey: this.locationByKey, docOfLoad, groupRank, groupOrder },
        step,
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
    // Each case-folded value shows one spelling of it.
    for (const [value, v] of bestSpellings(this.variantValue, this.variantLabel, variantLoad, loadPrice, loadIds)) this.valueLabel[value] = this.variantLabel[v];
    await yieldToEventLoop();
    // None when some token was numbered here only (the next build reads everything).
    const replay = this.textTokens ? null : replaySource({ offsets: tokenOffsets, numbers: tokenNumbers }, { known: this.knownGroups, added: this.groupIds }, denseGroup, groupCount);

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
    };
  }
}

// Dictionary numbers a replay copies between turns of the event loop.
const COPY_SLICE = 1 << 20;
