import { yieldToEventLoop } from '@/lib/runtime/turns';
import { add, emptySet } from './bitset';
import { cheapestOffers, type OfferLists } from './cheapest-offers';
import { compareIds, type LocationNode } from './shop-index';

/** The offers as rows brought them (per offer: its product's load number, location, prices). */
export type ArrivingOffers = { loads: Int32Array; location: Int32Array; price: Float64Array; oldprice: Float64Array; discount: Float64Array };

/** Where the documents are: the locations, each load's document, and the documents' group order. */
export type OfferPlaces = { locations: LocationNode[]; locationByKey: Map<string, number>; docOfLoad: Int32Array; groupRank: Int32Array; groupOrder: Int32Array };

/**
 * The index's offers (see ShopIndex): numbered in group order, each document's sorted by location
 * id (ties in prices go to the lowest), listed per location, and per location the offers pricing
 * each document of its subtree. `step` notes the time taken, for the build's log.
 */
export async function layOutOffers(n: number, arriving: ArrivingOffers, { locations, locationByKey, docOfLoad, groupRank, groupOrder }: OfferPlaces, step: (name: string) => void) {
  const offerLoad = arriving.loads;
  const offerCount = offerLoad.length;
  // Locations compared by their ids' order, as numbers.
  const locationRank = new Int32Array(locations.length);
  Array.from(locations.keys())
    .sort((a, b) => compareIds(locations[a].id, locations[b].id))
    .forEach((location, rank) => (locationRank[location] = rank));

  // Offers per document in group order, each document's sorted by location id (ties in prices go
  // to the lowest).
  const offerRankOfArrival = new Int32Array(offerCount);
  for (let o = 0; o < offerCount; o++) offerRankOfArrival[o] = groupRank[docOfLoad[offerLoad[o]]];
  await yieldToEventLoop();
  const rankOfferOffsets = new Int32Array(n + 1);
  for (let o = 0; o < offerCount; o++) rankOfferOffsets[offerRankOfArrival[o] + 1]++;
  for (let rank = 0; rank < n; rank++) rankOfferOffsets[rank + 1] += rankOfferOffsets[rank];
  const placed = new Int32Array(offerCount); // position → arriving offer
  const next = rankOfferOffsets.slice(0, n);
  await yieldToEventLoop();
  for (let o = 0; o < offerCount; o++) {
    placed[next[offerRankOfArrival[o]]++] = o;
    if ((o & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
  }
  const arrivingLocation = arriving.location;
  await yieldToEventLoop();
  for (let rank = 0; rank < n; rank++) {
    if ((rank & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
    const from = rankOfferOffsets[rank];
    const to = rankOfferOffsets[rank + 1];
    // Insertion sort: a product has a handful of offers.
    for (let i = from + 1; i < to; i++) {
      const offer = placed[i];
      const rank = locationRank[arrivingLocation[offer]];
      let j = i - 1;
      while (j >= from && locationRank[arrivingLocation[placed[j]]] > rank) {
        placed[j + 1] = placed[j];
        j--;
      }
      placed[j + 1] = offer;
    }
  }
  const arrivingPrice = arriving.price;
  const arrivingOldprice = arriving.oldprice;
  const arrivingDiscount = arriving.discount;
  const offerLocation = new Int32Array(offerCount);
  const offerPrice = new Float64Array(offerCount);
  const offerOldprice = new Float64Array(offerCount);
  const offerDiscount = new Float64Array(offerCount);
  const offerRank = new Int32Array(offerCount);
  for (let i = 0; i < offerCount; i++) {
    const o = placed[i];
    offerLocation[i] = arrivingLocation[o];
    offerPrice[i] = arrivingPrice[o];
    offerOldprice[i] = arrivingOldprice[o];
    offerDiscount[i] = arrivingDiscount[o];
    if ((i & 0x3ffff) === 0x3ffff) await yieldToEventLoop();
  }
  await yieldToEventLoop();
  for (let rank = 0; rank < n; rank++) offerRank.fill(rank, rankOfferOffsets[rank], rankOfferOffsets[rank + 1]);
  await yieldToEventLoop();
  const withoutOffers = emptySet(n);
  for (let rank = 0; rank < n; rank++) if (rankOfferOffsets[rank] === rankOfferOffsets[rank + 1]) add(withoutOffers, groupOrder[rank]);
  await yieldToEventLoop();
  const locationOfferOffsets = new Int32Array(locations.length + 1);
  for (let o = 0; o < offerCount; o++) locationOfferOffsets[offerLocation[o] + 1]++;
  for (let l = 0; l < locations.length; l++) locationOfferOffsets[l + 1] += locationOfferOffsets[l];
  const locationOffers = new Int32Array(offerCount);
  const nextOffer = locationOfferOffsets.slice(0, locations.length);
  for (let o = 0; o < offerCount; o++) locationOffers[nextOffer[offerLocation[o]]++] = o;
  step('offers');
  await yieldToEventLoop();
  const locationDescendants = locations.map((_, number) => {
    const id = locations[number].id;
    const below: number[] = [];
    locations.forEach((other, otherNumber) => {
      if (other.path.includes(id)) below.push(otherNumber);
    });
    return Int32Array.from(below);
  });
  const subtreeOffers = await offersBySubtree(n, locationDescendants, { offerRank, offerPrice, locationOfferOffsets, locationOffers });
  const locationAncestors = locations.map((node) =>
    Int32Array.from(node.path.map((id) => locationByKey.get(id)).filter((number): number is number => number !== undefined)),
  );
  return { rankOfferOffsets, offerLocation, offerPrice, offerOldprice, offerDiscount, offerRank, withoutOffers, locationOfferOffsets, locationOffers, locationDescendants, subtreeOffers, locationAncestors };
}

/**
 * Per location, the offers pricing each document in stock somewhere in its subtree, by rank (see
 * ShopIndex.subtreeOffers); null where at most one location of the subtree has offers.
 */
async function offersBySubtree(n: number, descendants: Int32Array[], lists: OfferLists): Promise<(Int32Array | null)[]> {
  const best = new Int32Array(n).fill(-1);
  const found = emptySet(n);
  const subtrees: (Int32Array | null)[] = [];
  for (const below of descendants) {
    const withOffers = Array.from(below).filter((location) => lists.locationOfferOffsets[location + 1] > lists.locationOfferOffsets[location]);
    subtrees.push(withOffers.length < 2 ? null : cheapestOffers(lists, withOffers, best, found));
    // A subtree near the root holds most offers (~0.2 s for all of them at 1,000,000 products).
    await yieldToEventLoop();
  }
  return subtrees;
}
