import type { z } from 'zod';
import { ITEM_RULE, OFFER_RULE, PARAM_RULE } from './item-rules';

// The item's zod schemas, made from the one table of its rules (item-rules.ts), which also gives
// the plain checks and the byte reader's limits.

export const ParamInput = PARAM_RULE.zod;
export type ParamInput = z.infer<typeof ParamInput>;

export const OfferInput = OFFER_RULE.zod;
export type OfferInput = z.infer<typeof OfferInput>;

export const ItemInput = ITEM_RULE.zod;
export type ItemInput = z.infer<typeof ItemInput>;

/** Spec 2.3's rule: the given value, else floor((oldprice - price) / oldprice * 100), never negative. */
export function discountPercent(given: number | null | undefined, price: number | null | undefined, oldprice: number | null | undefined): number {
  if (given !== null && given !== undefined) return given;
  if (!price || !oldprice || oldprice <= price) return 0;
  return Math.floor(((oldprice - price) / oldprice) * 100 + 1e-9);
}
