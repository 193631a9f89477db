import { cardinality, intersectInto, subtractInto, type Bitset, DIM_BRAND, DIM_CATEGORY, foldCase, type ShopIndex } from '@/lib/listing/indexing';
import {
  comparator,
  discountFilter,
  docsSet,
  forEachDocument,
  idDocs,
  locationFilter,
  locationMask,
  priceFilter,
  SORT_DIRECTLY_BELOW,
  sortedDocuments,
  union,
  type Effective,
} from '@/lib/listing/engine';
import type { CollectionRules } from './schemas';

// A collection's products from the shop's listing index (CONTRACT §6): in stock (in the location,
// when given), matching any group, each product in the first group it matches, each group's limit
// respected, ordered by group then sales rate (ties by id).

export const MAX_COLLECTION_PRODUCTS = 1000;

export type CollectionPick = { doc: number; group: number; price: number; oldprice: number; discount: number };

export function selectCollection(index: ShopIndex, rules: CollectionRules, location: string | null): CollectionPick[] {
  const base = index.available.slice();
  let effective: Effective = { price: index.price, oldprice: index.oldprice, discount: index.discount, offerLocation: null };
  if (location) {
    const located = locationFilter(index, locationMask(index, [location]));
    effective = located.effective;
    intersectInto(base, located.set);
  }
  const taken = base.slice().fill(0); // documents already in an earlier group
  const byRate = comparator(index, index.salesRate, 'desc');
  const picks: CollectionPick[] = [];
  rules.groups.forEach((group, number) => {
    const set: Bitset = base.slice();
    if (group.categories) intersectInto(set, union(index, group.categories.map((id) => index.dims[DIM_CATEGORY].values.get(id))));
    if (group.brands) intersectInto(set, union(index, group.brands.map((brand) => index.dims[DIM_BRAND].values.get(foldCase(brand)))));
    if (group.price_min !== undefined || group.price_max !== undefined) intersectInto(set, priceFilter(index, effective, group.price_min ?? null, group.price_max ?? null));
    for (const [name, values] of Object.entries(group.params ?? {})) {
      const dim = index.dimByKey.get(`param:${name}`);
      intersectInto(set, union(index, dim === undefined ? [] : values.map((value) => index.dims[dim].values.get(value))));
    }
    const docsOf = (ids: string[]) => docsSet(index.n, ids.map((id) => idDocs(index, id)));
    if (group.ids) intersectInto(set, docsOf(group.ids));
    if (group.exclude_ids) subtractInto(set, docsOf(group.exclude_ids));
    if (group.discount !== undefined) intersectInto(set, discountFilter(index, effective, group.discount));
    subtractInto(set, taken);
    for (let w = 0; w < set.length; w++) taken[w] |= set[w];

    const limit = Math.min(group.limit ?? MAX_COLLECTION_PRODUCTS, MAX_COLLECTION_PRODUCTS - picks.length);
    if (limit <= 0) return;
    const size = cardinality(set);
    const ordered: number[] = [];
    if (size <= SORT_DIRECTLY_BELOW) {
      forEachDocument(set, (doc) => ordered.push(doc));
      ordered.sort(byRate);
      ordered.length = Math.min(ordered.length, limit);
    } else {
      const all = sortedDocuments(index, 'sales_rate', 'desc');
      for (let k = 0; k < all.length && ordered.length < limit; k++) {
        const doc = all[k];
        if (set[doc >>> 5] & (1 << (doc & 31))) ordered.push(doc);
      }
    }
    for (const doc of ordered) {
      picks.push({ doc, group: number, price: effective.price[doc], oldprice: effective.oldprice[doc], discount: effective.discount[doc] });
    }
  });
  return picks;
}
