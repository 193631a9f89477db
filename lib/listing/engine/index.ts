// The listing engine: one query over one shop's index, synchronously (run-listing.ts), in stages:
// match (filters as bitsets, match.ts), order (kept orders, order.ts), page and statistics
// (page.ts), facet counts (facet-counts.ts, on two threads for large sets: parallel-count.ts), and
// the path for queries of locations alone (location-only.ts). The rest of lib/listing and its
// callers import this surface only (eslint.config.mjs).
export { runListing, forgetKept } from './run-listing';
export type { DimColumn, DimCounts, Effective, EngineResult, FacetCounts, SearchHits, Shown } from './types';
export { discountFilter, docsSet, forEachDocument, idDocs, locationFilter, locationMask, MERGE_LISTS_UP_TO, priceFilter, SCAN_OFFERS_FROM, union, type Located, type Scratch } from './match';
export { comparator, prepareLocationOnly, prepareSortedDocuments, sortedDocuments, type Walk } from './order';
export { prepareBaseCounts } from './facet-counts';
export { firstAdded, SORT_DIRECTLY_BELOW } from './page';
export { PARALLEL_FROM, type Work } from './work';
export type { LocationBase } from './location-only';
export { countRanks } from './count-kernel';
