import { ROLE_BRAND, ROLE_PICTURE } from './layout-kernel';

// Facet tokens as the builder learns them: what each token number posts, and the tables the layout
// (layout-kernel.ts) reads it from.

export const KIND_CATEGORY = 99; // 'c'
export const KIND_BRAND = 98; // 'b'
export const KIND_PICTURE = 114; // 'r'

/** What one token posts: its values, the label variant it shows (folded dimensions), a brand picture. */
export type TokenInfo = { kind: number; values: number[]; variant: number; picture: string | null };

/** Per token number the range of its values (renumbered), its label variant and its role, for the layout. */
export function numberTables(numberInfo: (TokenInfo | undefined)[], renumber: Int32Array) {
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
  return { numberFrom, numberValues, numberVariant, numberRole, widest };
}

/**
 * Each case-folded value's spelling shown (value → variant): its cheapest product's, then the
 * lowest id's; one product with two spellings: the first in code-unit order, whatever order rows
 * came in. `variantLoad`: the load of each variant's cheapest product (the layout found it), -1: none.
 */
export function bestSpellings(variantValue: number[], variantLabel: string[], variantLoad: Int32Array, loadPrice: Float64Array, loadIds: string[]): Map<number, number> {
  const variantPrice = Array.from(variantLoad, (load) => (load < 0 ? Infinity : loadPrice[load]));
  const variantId = Array.from(variantLoad, (load) => (load < 0 ? '' : loadIds[load]));
  const bestVariant = new Map<number, number>();
  for (let v = 0; v < variantValue.length; v++) {
    const value = variantValue[v];
    const best = bestVariant.get(value);
    if (
      best === undefined ||
      variantPrice[v] < variantPrice[best] ||
      (variantPrice[v] === variantPrice[best] && (variantId[v] < variantId[best] || (variantId[v] === variantId[best] && variantLabel[v] < variantLabel[best])))
    ) {
      bestVariant.set(value, v);
    }
  }
  return bestVariant;
}
