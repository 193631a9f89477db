import type { FacetOrders, LabelOrder } from './index-memo';
import type { ShopIndex } from './indexing';

// The orders an answer's facets are written in, per dimension and index version: values by label
// (lists of values) and by number (numeric params' ranges). Each is a sort of the dimension's
// values, ~10 ms for a 20,000-product retail catalog's; while a shop imports, every few seconds
// brings a new index version, so a rebuild carries each dimension's orders whose values it
// numbers the same (carryFacetOrders). Orders hold places within the dimension (value − its
// first value), which a rebuild keeps when the dimensions before it gained values.

function ordersOf(index: ShopIndex): FacetOrders {
  return (index.memo.facetOrders ??= { byLabel: [], byNumber: [] });
}

/** The dimension's values by label: `byRank[rank]` a value's place in the dimension, `rankOf[place]` its rank. */
export function labelOrder(index: ShopIndex, dim: number): LabelOrder {
  const orders = ordersOf(index);
  let order = orders.byLabel[dim];
  if (!order) {
    const from = index.dimValues[dim];
    const labels = index.valueLabel;
    const byRank = Int32Array.from({ length: index.dimValues[dim + 1] - from }, (_, i) => i).sort((a, b) => {
      const left = labels[from + a];
      const right = labels[from + b];
      return left < right ? -1 : left > right ? 1 : a - b;
    });
    const rankOf = new Int32Array(byRank.length);
    for (let rank = 0; rank < byRank.length; rank++) rankOf[byRank[rank]] = rank;
    orders.byLabel[dim] = order = { byRank, rankOf };
  }
  return order;
}

/** A numeric param's values (places in the dimension) in ascending order of their numbers. */
export function numberOrder(index: ShopIndex, dim: number): Int32Array {
  const orders = ordersOf(index);
  let order = orders.byNumber[dim];
  if (!order) {
    const numbers = index.valueNumber;
    const from = index.dimValues[dim];
    order = Int32Array.from({ length: index.dimValues[dim + 1] - from }, (_, i) => i).sort((a, b) => numbers[from + a] - numbers[from + b]);
    orders.byNumber[dim] = order;
  }
  return order;
}

/**
 * Gives `next` the orders `previous` had made for each dimension whose values are the same labels
 * in the same places (the orders depend on those alone). Comparing is one pass over the
 * dimension's labels, mostly the same strings, against a sort.
 */
export function carryFacetOrders(previous: ShopIndex, next: ShopIndex): void {
  const made = previous.memo.facetOrders;
  if (!made) return;
  const carried = ordersOf(next);
  for (let dim = 0; dim < previous.dims.length; dim++) {
    const byLabel = made.byLabel[dim];
    const byNumber = made.byNumber[dim];
    if (!byLabel && !byNumber) continue;
    const to = next.dimByKey.get(dimKey(previous, dim));
    if (to === undefined || carried.byLabel[to] || carried.byNumber[to] || !sameValues(previous, dim, next, to)) continue;
    carried.byLabel[to] = byLabel;
    carried.byNumber[to] = byNumber;
  }
}

/** The key `dimByKey` knows a dimension by. */
function dimKey(index: ShopIndex, dim: number): string {
  const dimension = index.dims[dim];
  return dimension.param ? `param:${dimension.key}` : dimension.key;
}

function sameValues(previous: ShopIndex, dim: number, next: ShopIndex, to: number): boolean {
  const from = previous.dimValues[dim];
  const nextFrom = next.dimValues[to];
  const span = previous.dimValues[dim + 1] - from;
  if (next.dimValues[to + 1] - nextFrom !== span || previous.dims[dim].numeric !== next.dims[to].numeric) return false;
  for (let i = 0; i < span; i++) {
    if (previous.valueLabel[from + i] !== next.valueLabel[nextFrom + i] || !Object.is(previous.valueNumber[from + i], next.valueNumber[nextFrom + i])) return false;
  }
  return true;
}
