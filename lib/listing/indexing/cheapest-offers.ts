import type { Bitset } from './bitset';

/** What finding locations' offers reads of an index (ShopIndex's arrays of those names). */
export type OfferLists = {
  offerRank: Int32Array;
  offerPrice: Float64Array;
  locationOfferOffsets: Int32Array;
  locationOffers: Int32Array;
};

/**
 * Whether offer a prices a document before offer b: the cheaper, then the lower offer number (a
 * document's offers are numbered in the order of their locations' ids, so the lower location id).
 */
export function cheaper(offerPrice: Float64Array, a: number, b: number): boolean {
  return offerPrice[a] < offerPrice[b] || (offerPrice[a] === offerPrice[b] && a < b);
}

/**
 * Per document with an offer in some of `locations` (numbers), the offer pricing it there (the
 * `cheaper` of them). By rank, ascending. Each location's list is read
 * once; `best` (by rank, all -1) and `found` (rank bits, all clear) are left as they were given.
 */
export function cheapestOffers(index: OfferLists, locations: Iterable<number>, best: Int32Array, found: Bitset): Int32Array {
  const { offerRank, offerPrice, locationOfferOffsets, locationOffers } = index;
  let count = 0;
  for (const location of locations) {
    for (let i = locationOfferOffsets[location]; i < locationOfferOffsets[location + 1]; i++) {
      const offer = locationOffers[i];
      const rank = offerRank[offer];
      const current = best[rank];
      if (current < 0) {
        found[rank >>> 5] |= 1 << (rank & 31);
        count++;
      }
      if (current < 0 || cheaper(offerPrice, offer, current)) best[rank] = offer;
    }
  }
  const offers = new Int32Array(count);
  let at = 0;
  for (let w = 0; w < found.length; w++) {
    let bits = found[w];
    found[w] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const rank = (w << 5) + 31 - Math.clz32(low);
      offers[at++] = best[rank];
      best[rank] = -1;
    }
  }
  return offers;
}
