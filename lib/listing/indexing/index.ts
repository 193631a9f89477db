// The listing index of a shop (shop-index.ts) and how it is built: read from PostgreSQL
// (index-source.ts), collected and laid out (index-builder.ts, document-order.ts, offer-layout.ts,
// the layout thread), and sized for the memory budget (index-bytes.ts); the memo each version
// carries (memo.ts). The rest of lib/listing
// and its callers import this surface only (eslint.config.mjs).
export * from './shop-index';
export { buildIndex, rebuildIndex } from './build-index';
export { catalogState, drain, loadTree, PRODUCT_FIELD_COUNT, productsCopy } from './index-source';
export { IndexBuilder } from './index-builder';
export { heldBufferBytes, indexBytes } from './index-bytes';
export { BinaryCopyReader } from './binary-copy';
export * from './bitset';
export { cheaper, cheapestOffers, type OfferLists } from './cheapest-offers';
export { sortInTurns } from './sort-in-turns';
export { FloatList, IntList } from './int-list';
export { Memo, MEMO_RULES, keptBytes, keptUtf8, memoAfterStockPatch, memoBytes, memoValues, type FacetBlocks, type FacetOrders, type LabelOrder, type MemoTypeName, type MemoTypes } from './memo';
