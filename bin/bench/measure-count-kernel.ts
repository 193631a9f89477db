// node --import tsx bin/bench/measure-count-kernel.ts [--documents N] [--per 21]
// The counting kernel alone, on one thread, over a made-up index of N documents (groups of three,
// ~21 postings each, 3,000 values) at two densities of the counted set. Its time follows the
// postings streamed more than the documents counted: what bounds counting on a machine.
import { countRanks } from '@/lib/listing/engine';
import { numberArg, readArgs } from './args';

const args = readArgs('bin/bench/measure-count-kernel.ts [--documents N] [--per 21]', { documents: { type: 'string', default: '1000000' }, per: { type: 'string', default: '21' } });
const n = numberArg(args.documents, 'documents');
const per = numberArg(args.per, 'per');
const postOffsets = new Int32Array(n + 1);
for (let rank = 0; rank < n; rank++) postOffsets[rank + 1] = postOffsets[rank] + per - 3 + (rank % 7);
const total = postOffsets[n];
const postings = new Uint16Array(total);
let state = 1;
const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
for (let p = 0; p < total; p++) postings[p] = Math.floor(random() * 3000);
const groupOfRank = Int32Array.from({ length: n }, (_, rank) => Math.floor(rank / 3));
const groupOrder = Int32Array.from({ length: n }, (_, rank) => rank);
const words = (n + 31) >>> 5;
console.log(`${n} documents, ${total} postings (${((2 * total) / 2 ** 20).toFixed(0)} MiB)`);
for (const density of [0.27, 0.12, 0.03]) {
  const pattern = new Uint32Array(words);
  let members = 0;
  for (let rank = 0; rank < n; rank++) {
    if (random() < density) {
      pattern[rank >>> 5] |= 1 << (rank & 31);
      members++;
    }
  }
  const times: number[] = [];
  for (let round = 0; round < 8; round++) {
    const ranks = pattern.slice();
    const out = new Int32Array(3100);
    const started = performance.now();
    countRanks({ ranks, fromWord: 0, toWord: words, postOffsets, postings, groupOfRank, groupOrder, collapse: true, out, stamp: new Int32Array(3100).fill(-1), valueDim: null, multi: null, planes: null, paramDims: null, firstParamDim: 0, pick: false, positionOfRank: null, values: null, valuesByRank: null, sign: 1, idRank: null, reps: null, positions: null });
    times.push(performance.now() - started);
  }
  const best = Math.min(...times.slice(2));
  console.log(`density ${density}: ${members} documents counted in ${best.toFixed(2)} ms (best of 6 after 2 warm-ups), ${((best * 1e6) / members).toFixed(0)} ns a document`);
}
