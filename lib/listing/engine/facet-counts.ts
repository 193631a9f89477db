import { type Bitset, FIRST_PARAM_DIM, type ShopIndex, cardinality, intersectInto } from '../indexing';
import { type ListingQuery } from '../query';
import { type CountTask, PLANES, countRanks, presenceFromExcess } from './count-kernel';
import { countInParallel, sharedFor } from './parallel-count';
import { type DimColumn, FacetCounts } from './types';
import { keep, multiFor, nextMark, recall, workOf } from './work';

// Facet counts: every value's products (groups) over a set, each selected dimension counted with
// every filter but its own; large sets on two threads (parallel-count.ts).

/**
 * Over `set`, one per product (group) when collapsing: writes to `out` (all zero) the products with
 * each value, and at `out[valueCount + dim]` those with any value of each param dimension. The hot
 * loop of the engine.
 *
 * Documents are visited in group order (through their ranks), which is also how their postings
 * are laid out, so the reads go front to back. A value appears once in a document's postings, so
 * a product alone in the set is counted with plain increments, and one loop counts values and
 * excess markers alike, with no branch per value. Only a group with several documents in the set
 * needs stamps, so each value counts once for the group (and its excess is counted apart). The
 * excess then becomes presence (`presenceFromExcess`).
 */
export function countPass(index: ShopIndex, set: Bitset, collapse: boolean, out: Int32Array | null, pick: Pick | null = null): void {
  const { postOffsets, postings, groupRank, groupOfRank, groupOrder } = index;
  const work = workOf(index);
  const ranks = work.ranks; // all clear; cleared again as it is read
  const documents = markRanks(set, groupRank, ranks);
  const byDims = out !== null && collapse && work.paramDims && index.paramDims !== null;
  const task: CountTask = {
    ranks,
    fromWord: 0,
    toWord: ranks.length,
    postOffsets,
    postings,
    groupOfRank,
    groupOrder,
    collapse,
    out,
    stamp: out && collapse ? work.buffers.int32('stamp', out.length).fill(-1) : null,
    valueDim: index.valueDim,
    multi: byDims ? multiFor(work, index.valueDim.length) : null,
    planes: byDims ? work.buffers.int32('planes', PLANES).fill(0) : null,
    paramDims: byDims ? index.paramDims : null,
    firstParamDim: FIRST_PARAM_DIM,
    pick: pick !== null && collapse,
    positionOfRank: pick?.positionOfRank ?? null,
    values: pick?.values ?? null,
    valuesByRank: pick?.valuesByRank ?? null,
    sign: pick?.sign ?? 1,
    idRank: pick?.idRank ?? null,
    reps: pick?.reps ?? null,
    positions: pick?.positions ?? null,
  };
  const parallel = documents >= work.parallelFrom ? countInParallel(task, (work.shared ??= sharedFor(index, ranks, FIRST_PARAM_DIM))) : null;
  const picked = parallel ?? countRanks(task);
  if (out) presenceFromExcess(out, index.dimValues, FIRST_PARAM_DIM);
  if (pick) {
    pick.count += picked;
    pick.done = true;
  }
}

/** Sets in `ranks` the rank of each document of `set` (the order counting visits them in); returns how many. */
function markRanks(set: Bitset, groupRank: Int32Array, ranks: Uint32Array): number {
  let documents = 0;
  for (let w = 0; w < set.length; w++) {
    let bits = set[w];
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const rank = groupRank[(w << 5) + 31 - Math.clz32(low)];
      ranks[rank >>> 5] |= 1 << (rank & 31);
      documents++;
    }
  }
  return documents;
}

/**
 * Each group's representative in a query's order (its best-ranked variant in the set), picked
 * by a pass that visits the set group by group: a bitset of them and their number.
 */
export type Pick = {
  values: Float64Array;
  valuesByRank: Float64Array | null; // the same keys by rank, when kept so (location prices)
  sign: number;
  idRank: Int32Array;
  // With a kept order: each rank's position in it (compared instead of the keys), and the
  // representatives' positions (the page is then the first of them).
  positionOfRank: Int32Array | null;
  positions: Bitset;
  reps: Bitset;
  count: number;
  done: boolean;
};

/** What reading a dimension's column costs per document of a set, against an entry of its inverted lists. */
const COLUMN_READ_COST = 4;

/**
 * The counts of dimension `dim`'s values alone over `set`, written into `counts` (a selected
 * dimension's, counted with every filter but its own). When no document has several values of it
 * (brands, most params), from its column: one read per document of the set. Otherwise from the
 * inverted lists (each of the dimension's values tests its documents against the set) when they
 * are shorter than the set's postings, else by a counting pass. At a million products a brand's
 * counts over a category of 50,000 took a pass over their ~1,000,000 postings, or over the
 * brands' million inverted entries.
 */
export function countDimension(index: ShopIndex, set: Bitset, dim: number, collapse: boolean, counts: Int32Array): void {
  const from = index.dimValues[dim];
  const to = index.dimValues[dim + 1];
  const { invOffsets, invDocs, groupOf } = index;
  const size = cardinality(set);
  const span = invOffsets[to] - invOffsets[from];
  // The column reads one place at random per document of the set, the lists one after another.
  const column = size * COLUMN_READ_COST < span ? columnOf(index, dim) : null;
  if (column) {
    countColumn(index, set, column, from, to, collapse, counts);
    return;
  }
  const postingsOfSet = (size * index.postings.length) / Math.max(1, index.n);
  if (span > postingsOfSet) {
    const all = new Int32Array(index.valueKey.length + index.dims.length);
    countPass(index, set, collapse, all);
    counts.set(all.subarray(from, to), from);
    return;
  }
  const work = workOf(index);
  for (let value = from; value < to; value++) {
    let count = 0;
    const mark = collapse ? nextMark(work) : 0;
    const taken = work.groupStamp;
    for (let p = invOffsets[value]; p < invOffsets[value + 1]; p++) {
      const doc = invDocs[p];
      if ((set[doc >>> 5] & (1 << (doc & 31))) === 0) continue;
      if (collapse) {
        const group = groupOf[doc];
        if (taken[group] === mark) continue;
        taken[group] = mark;
      }
      count++;
    }
    counts[value] = count;
  }
}

/**
 * Dimension `dim`'s column (DimColumn) by rank (documents in group order, as counting visits them),
 * made from its inverted lists when first asked for; null when a document has several of its values.
 */
export function columnOf(index: ShopIndex, dim: number): DimColumn | null {
  const kept = index.memo.dimColumns;
  let column = kept.get(dim);
  if (column === undefined) {
    const from = index.dimValues[dim];
    const to = index.dimValues[dim + 1];
    const { invOffsets, invDocs, groupRank } = index;
    let made: DimColumn | null = to - from < 0xffff ? new Uint16Array(index.n) : new Int32Array(index.n);
    fill: for (let value = from; value < to; value++) {
      for (let p = invOffsets[value]; p < invOffsets[value + 1]; p++) {
        const rank = groupRank[invDocs[p]];
        if (made[rank] !== 0) {
          made = null;
          break fill;
        }
        made[rank] = value - from + 1;
      }
    }
    column = made;
    kept.set(dim, column);
  }
  return column;
}

/**
 * countDimension from a column: the set's documents by rank (one read each), then the column and
 * the groups front to back. Collapsing, a group counts once per value: its first document's value
 * is noted; another value in the same group (variants of several colours) is counted when first
 * seen in the group.
 */
function countColumn(index: ShopIndex, set: Bitset, column: DimColumn, from: number, to: number, collapse: boolean, counts: Int32Array): void {
  const { groupRank, groupOfRank } = index;
  const ranks = workOf(index).ranks; // all clear; cleared again as it is read
  markRanks(set, groupRank, ranks);
  counts.fill(0, from, to);
  // The group being read and the values counted for it (a group's documents have consecutive ranks).
  let group = -1;
  let first = 0;
  let more: number[] | null = null;
  for (let w = 0; w < ranks.length; w++) {
    let bits = ranks[w];
    if (bits === 0) continue;
    ranks[w] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const rank = (w << 5) + 31 - Math.clz32(low);
      const place = column[rank];
      if (place === 0) continue;
      if (collapse) {
        const of = groupOfRank[rank];
        if (of === group) {
          if (place === first || (more !== null && more.includes(place))) continue;
          (more ??= []).push(place);
        } else {
          group = of;
          first = place;
          more = null;
        }
      }
      counts[from + place - 1]++;
    }
  }
}

/** Counts (values, then presence markers) over the shop's whole listable catalog, kept with the index: unfiltered queries reuse them. */
export function baseCounts(index: ShopIndex, base: Bitset, collapse: boolean, available: boolean): Int32Array {
  const key = `${collapse}:${available}`;
  let counts = index.memo.baseCounts.get(key);
  if (!counts) {
    counts = new Int32Array(index.valueKey.length + index.dims.length);
    countPass(index, base, collapse, counts);
    index.memo.baseCounts.set(key, counts);
  }
  return counts;
}

export function countFacets(index: ShopIndex, query: ListingQuery, base: Bitset, narrowed: boolean, selections: Map<number, Bitset>, matched: Bitset, pick: Pick | null): FacetCounts {
  const valueCount = index.valueKey.length;
  const all = new Int32Array(valueCount + index.dims.length);
  let requests = 1;
  // Every dimension and the presence markers over the result; each selected dimension is then
  // counted again apart, with every filter but its own (disjunctive).
  if (!narrowed && selections.size === 0) all.set(baseCounts(index, base, query.collapse, query.available));
  else countPass(index, matched, query.collapse, all, pick);
  for (const [dim, selected] of selections) {
    requests++;
    if (!narrowed && selections.size === 1) {
      const cached = baseCounts(index, base, query.collapse, query.available);
      all.set(cached.subarray(index.dimValues[dim], index.dimValues[dim + 1]), index.dimValues[dim]);
      continue;
    }
    let others = base;
    if (selections.size > 1) {
      others = base.slice();
      for (const set of selections.values()) if (set !== selected) intersectInto(others, set);
    }
    countDimension(index, others, dim, query.collapse, all);
  }
  return { counts: all.subarray(0, valueCount), present: all.subarray(valueCount), requests };
}

/** What a query's facet counts depend on: its filters, not its order, page or presentation. */
export function countsKey(query: ListingQuery): string {
  return JSON.stringify([
    query.available,
    query.collapse,
    query.categories,
    query.locations,
    query.brands,
    query.excludedBrands,
    query.merchants,
    query.excludedMerchants,
    query.colors,
    query.sizes,
    query.exclude,
    [...query.filters],
    query.priceMin,
    query.priceMax,
    query.discount,
    query.searchQuery,
    query.searchQuery ? query.searchScope : null,
  ]);
}

/** Facet counts kept per filter set: at most ~16 MB of them per index, least recently used dropped. */
export const COUNTS_BUDGET_BYTES = 16 * 1024 * 1024;

export function cachedCounts(index: ShopIndex, key: string): FacetCounts | undefined {
  return recall((index.memo.facetCounts ??= new Map()), key);
}

export function keepCounts(index: ShopIndex, key: string, counts: FacetCounts): void {
  const most = Math.max(16, Math.floor(COUNTS_BUDGET_BYTES / (4 * (index.valueKey.length + index.dims.length))));
  keep((index.memo.facetCounts ??= new Map()), key, counts, most);
}

/** The counts of the whole in-stock catalog, one per group (the default): made with the index. */
export function prepareBaseCounts(index: ShopIndex): void {
  baseCounts(index, index.available, true, true);
}
