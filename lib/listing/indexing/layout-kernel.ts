// The index build's posting pass and inverted lists (build-index.ts `finish`). A layout worker
// (layout-worker.ts) runs them while the build's own thread lays out offers and columns; without
// the worker the build runs them itself. Both make them from the one source text below, as the
// counting kernel is made (count-kernel.ts): a build step can then never make the two differ. It
// is plain JavaScript, so the compiler does not check it: the rebuild and engine properties do.

/** A token number's role (`LayoutTask.numberRole`). */
export const ROLE_BRAND = 1;
export const ROLE_PICTURE = 2;

/** What the posting pass reads. Arrays by load number unless said otherwise. */
export type LayoutTask = {
  n: number;
  perm: Int32Array; // document → load number
  groupOrder: Int32Array; // rank → document
  loadFrom: Int32Array; // each load's tokens: loadNumbers[loadFrom[load] .. loadTo[load])
  loadTo: Int32Array;
  loadNumbers: Int32Array | Uint16Array;
  loadPrice: Float64Array;
  loadIdRank: Int32Array; // the load's id's place in code-unit order
  // Per token number: its values (renumbered), numberValues[numberFrom[k] .. numberFrom[k + 1]); its label
  // variant (-1: none); whether it is a brand or a brand's picture (ROLE_*, else 0).
  numberFrom: Int32Array;
  numberValues: Int32Array;
  numberVariant: Int32Array;
  numberRole: Uint8Array;
  variantCount: number;
  perToken: number; // at most two entries per value of a token (a value and its marker)
  valueDim: Int32Array;
  valueCount: number;
  dimCount: number;
  firstParamDim: number; // dimensions from here on get excess markers (ShopIndex.postings)
  narrow: boolean; // postings in 16 bits
  postOffsets: Int32Array; // rank → its postings (shared, n + 1), filled
};

/** What it gives back. */
export type LayoutResult = {
  postings: Uint16Array | Int32Array; // shared, exact size
  paramDims: Uint32Array | null; // shared, two words a rank (ShopIndex.paramDims); null past 64 param dimensions
  invOffsets: Int32Array; // value → range of invDocs
  invDocs: Int32Array; // per value its documents, in group order
  tokenOffsets: Int32Array; // rank → its tokens in tokenNumbers (what the next build replays)
  tokenNumbers: Int32Array | Uint16Array;
  // Per label variant its cheapest product's load (then lowest id; -1: none).
  variantLoad: Int32Array;
  // Per brand value the picture token of its cheapest product with one (-1: none), and that product's load.
  pictureNumber: Int32Array;
  pictureLoad: Int32Array;
};

/**
 * `layOut(task)`: each document's values in group order (the order counting reads them in), its
 * tokens' values once each, a param dimension's second and later values each followed by that
 * dimension's excess marker (see ShopIndex.postings), and which param dimensions it has; written
 * front to back (scattering them value by value missed the cache on every write, ~2 s at
 * 1,000,000). In the same pass: the tokens in that order, how many documents each value has, and
 * per label variant and brand picture the cheapest product (then the lowest id). Then per value
 * its documents, read off the postings front to back.
 */
export const LAYOUT_SOURCE = `
const ROLE_BRAND = ${ROLE_BRAND};
const ROLE_PICTURE = ${ROLE_PICTURE};

function layOut(task) {
  const { n, perm, groupOrder, loadFrom, loadTo, loadNumbers, loadPrice, loadIdRank } = task;
  const { numberFrom, numberValues, numberVariant, numberRole, perToken, valueDim, valueCount, dimCount, firstParamDim, narrow, postOffsets } = task;
  const tokenOffsets = new Int32Array(n + 1);
  const tokenNumbers = loadNumbers instanceof Uint16Array ? new Uint16Array(loadNumbers.length) : new Int32Array(loadNumbers.length);
  let out = narrow ? new Uint16Array(loadNumbers.length * 2 + 16) : new Int32Array(loadNumbers.length * 2 + 16);
  const documents = new Int32Array(valueCount);
  const valueSeen = new Int32Array(valueCount).fill(-1);
  const dimSeen = new Int32Array(dimCount).fill(-1);
  const variantLoad = new Int32Array(task.variantCount).fill(-1);
  const variantPrice = new Float64Array(task.variantCount).fill(Infinity);
  const pictureNumber = new Int32Array(valueCount).fill(-1);
  const pictureLoad = new Int32Array(valueCount).fill(-1);
  const picturePrice = new Float64Array(valueCount).fill(Infinity);
  const paramDims = dimCount - firstParamDim <= 64 ? new Uint32Array(new SharedArrayBuffer(8 * n)) : null;
  let at = 0;
  let t = 0;
  postOffsets[0] = 0;
  for (let rank = 0; rank < n; rank++) {
    const load = perm[groupOrder[rank]];
    const first = loadFrom[load];
    const last = loadTo[load];
    if (at + (last - first) * perToken > out.length) {
      const grown = narrow ? new Uint16Array(2 * (at + (last - first) * perToken)) : new Int32Array(2 * (at + (last - first) * perToken));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    const price = loadPrice[load];
    const idRank = loadIdRank[load];
    let brand = -1; // the brand a picture token after it belongs to
    for (let k = first; k < last; k++) {
      const number = loadNumbers[k];
      tokenNumbers[t++] = number;
      const role = numberRole[number];
      if (role === ROLE_PICTURE) {
        if (brand >= 0) {
          const best = pictureLoad[brand];
          if (best < 0 || price < picturePrice[brand] || (price === picturePrice[brand] && idRank < loadIdRank[best])) {
            pictureNumber[brand] = number;
            pictureLoad[brand] = load;
            picturePrice[brand] = price;
          }
        }
        continue;
      }
      for (let i = numberFrom[number]; i < numberFrom[number + 1]; i++) {
        const value = numberValues[i];
        if (valueSeen[value] === rank) continue;
        valueSeen[value] = rank;
        out[at++] = value;
        documents[value]++;
        const dim = valueDim[value];
        if (dimSeen[dim] !== rank) {
          dimSeen[dim] = rank;
          if (dim >= firstParamDim && paramDims) paramDims[2 * rank + ((dim - firstParamDim) >>> 5)] |= 1 << ((dim - firstParamDim) & 31);
        } else if (dim >= firstParamDim) out[at++] = valueCount + dim;
      }
      const v = numberVariant[number];
      if (v >= 0) {
        const best = variantLoad[v];
        if (best < 0 || price < variantPrice[v] || (price === variantPrice[v] && idRank < loadIdRank[best])) {
          variantLoad[v] = load;
          variantPrice[v] = price;
        }
        if (role === ROLE_BRAND) brand = numberValues[numberFrom[number]];
      }
    }
    tokenOffsets[rank + 1] = t;
    postOffsets[rank + 1] = at;
  }
  const postings = narrow ? new Uint16Array(new SharedArrayBuffer(2 * at)) : new Int32Array(new SharedArrayBuffer(4 * at));
  postings.set(out.subarray(0, at));
  out = null;
  const invOffsets = new Int32Array(valueCount + 1);
  for (let v = 0; v < valueCount; v++) invOffsets[v + 1] = invOffsets[v] + documents[v];
  const invDocs = new Int32Array(invOffsets[valueCount]);
  const cursor = invOffsets.slice(0, valueCount);
  for (let rank = 0; rank < n; rank++) {
    const doc = groupOrder[rank];
    const end = postOffsets[rank + 1];
    for (let p = postOffsets[rank]; p < end; p++) {
      const value = postings[p];
      if (value < valueCount) invDocs[cursor[value]++] = doc;
    }
  }
  return { postings, paramDims, invOffsets, invDocs, tokenOffsets, tokenNumbers, variantLoad, pictureNumber, pictureLoad };
}
`;

export const layOut = new Function(`${LAYOUT_SOURCE}\nreturn layOut;`)() as (task: LayoutTask) => LayoutResult;
