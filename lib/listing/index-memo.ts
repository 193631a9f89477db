import type { CategoryLink } from './category-links';
import type { DimColumn, FacetCounts, Located, LocationBase, Scratch, Shown, Walk, Work } from './engine';
import type { Memo, MemoTypeName, MemoTypes } from './indexing';
import type { SearchIndex, SearchScratch } from './search';
import type { KeptProducts } from './stored-products';

// The memo each index version carries (lib/listing/indexing/memo.ts: its entries, what a swap
// carries of them, how they count in the budget) holds what the layers above the index make: their
// types are registered here, above both, so the index's own layer imports none of them.

// The augmentation names the module that declares MemoTypes (inside the indexing folder, past its
// surface): declaration merging needs the declaring module's own path.
declare module './indexing/memo' {
  interface MemoTypes {
    Scratch: Scratch;
    Work: Work;
    DimColumn: DimColumn;
    FacetCounts: FacetCounts;
    Shown: Shown;
    Located: Located;
    Walk: Walk;
    LocationBase: LocationBase;
    SearchIndex: SearchIndex;
    SearchScratch: SearchScratch;
    CategoryLink: CategoryLink;
    KeptProducts: KeptProducts;
  }
}

// Every name registered: this fails to compile when one is missing or misspelt above.
const everyTypeRegistered: [Exclude<MemoTypeName, keyof MemoTypes>] extends [never] ? true : never = true;
void everyTypeRegistered;

export { Memo, MEMO_RULES, keptBytes, keptUtf8, memoAfterStockPatch, memoBytes, memoValues, type FacetBlocks, type FacetOrders, type LabelOrder } from './indexing';

/**
 * What a new version of a shop's index keeps of its previous one's memo: the stored rows of the
 * products not changed since (all but `reread`), and the category links when the tree is the same.
 * The facet orders of dimensions it numbers the same are carried by carryFacetOrders, which
 * compares the indexes.
 */
export function carryIntoRebuild(previous: Memo, next: Memo, reread: ReadonlySet<string>, sameTree: boolean): void {
  if (sameTree) for (const [key, links] of previous.links) if (!next.links.has(key)) next.links.set(key, links);
  if (previous.storedProducts && !next.storedProducts) next.storedProducts = previous.storedProducts.without(reread);
}
