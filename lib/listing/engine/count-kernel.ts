// The counting pass's loops. Both threads that count (this one and the counting worker of
// parallel-count.ts) make them from the one source text below: a build step (the production
// bundle renames and reshapes functions) can then never make the two differ. It is plain
// JavaScript, so the compiler does not check it: the engine's property tests do, counting on one
// thread and on two.

/** One counting job over the set bits of `ranks` in words [fromWord, toWord), which it clears. */
export type CountTask = {
  ranks: Uint32Array;
  fromWord: number;
  toWord: number;
  postOffsets: Int32Array;
  postings: Uint16Array | Int32Array;
  groupOfRank: Int32Array;
  groupOrder: Int32Array;
  collapse: boolean;
  out: Int32Array | null; // values and markers counted, one per group when collapsing
  stamp: Int32Array | null; // out's size, all -1
  // Each value's dimension when the postings hold excess markers (ShopIndex.postings): a group
  // with several documents in the set skips them and counts its excess itself. Null when markers
  // mean presence, counted once per group as values are (a location query's new values).
  valueDim: Int32Array | null;
  // With valueDim, and the index's param dimensions per rank (ShopIndex.paramDims): a group with
  // several documents in the set counts its values once each into multi and adds the param
  // dimensions it has (its documents' or'ed) to the bit-sliced counters in planes (all zero,
  // PLANES words); both are added to out at the end of the call, and the counts and planes
  // cleared. multi holds per value side by side (one cache line for both) its count (all zero)
  // and the last group that counted it (all -1 at the start of a pass: clearMulti).
  // Null: such a group counts its excess value by value (countSharedExcess, slower).
  multi: Int32Array | null;
  planes: Int32Array | null;
  paramDims: Uint32Array | null;
  firstParamDim: number;
  // Picking each group's representative (with collapse): by each rank's position in a kept order,
  // or else by the order's keys, then the id; marked in `reps` (by document) and in `positions`.
  pick: boolean;
  positionOfRank: Int32Array | null;
  values: Float64Array | null;
  // The keys by rank instead (read front to back as the pass goes): `values` is then unused.
  valuesByRank: Float64Array | null;
  sign: number;
  idRank: Int32Array | null;
  reps: Uint32Array | null;
  positions: Uint32Array | null;
};

/** Words of CountTask.planes: 30 bit-sliced counters for each of the two words of param dimensions (up to 2^30 groups). */
export const PLANES = 60;

/**
 * `countRanks(task)` counts the task's ranks: a product alone in its group with plain increments
 * (values and markers alike, no branch per value), a group with several documents in the set with
 * stamps, so each value counts once for it. It returns the number of representatives picked.
 */
export const KERNEL_SOURCE = `
function countRanks(task) {
  const { ranks, fromWord, toWord, postOffsets, postings, groupOfRank, groupOrder, collapse, out, stamp, valueDim, pick, positionOfRank } = task;
  if (!collapse) {
    for (let w = fromWord; w < toWord; w++) {
      let bits = ranks[w];
      ranks[w] = 0;
      while (bits !== 0 && out) {
        const low = bits & -bits;
        bits ^= low;
        countAlone(postOffsets, postings, (w << 5) + 31 - Math.clz32(low), out);
      }
    }
    return 0;
  }
  // Groups with several documents in the set counted by their param dimensions (see CountTask.multi).
  const multi = out && stamp && valueDim && task.paramDims ? task.multi : null;
  const paramDims = task.paramDims;
  let byDims = false; // some group was counted so
  let picked = 0;
  // A run: the set's documents of one group, in rank order (pending until the group changes),
  // the best ranked of them in the query's order when picking, and the dimensions they have.
  let runGroup = -1;
  let runFirst = -1;
  let runShared = false;
  let runBest = -1;
  let runLow = 0;
  let runHigh = 0;
  for (let w = fromWord; w < toWord; w++) {
    let bits = ranks[w];
    ranks[w] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const rank = (w << 5) + 31 - Math.clz32(low);
      const group = groupOfRank[rank];
      if (group === runGroup) {
        if (multi) {
          if (!runShared) {
            countValuesOnce(postOffsets, postings, runFirst, group, multi, valueDim.length);
            runLow = paramDims[2 * runFirst];
            runHigh = paramDims[2 * runFirst + 1];
          }
          countValuesOnce(postOffsets, postings, rank, group, multi, valueDim.length);
          runLow |= paramDims[2 * rank];
          runHigh |= paramDims[2 * rank + 1];
          byDims = true;
        } else if (out && stamp) {
          if (valueDim) {
            if (!runShared) countSharedExcess(postOffsets, postings, runFirst, group, stamp, out, valueDim);
            countSharedExcess(postOffsets, postings, rank, group, stamp, out, valueDim);
          } else {
            if (!runShared) countShared(postOffsets, postings, runFirst, group, stamp, out);
            countShared(postOffsets, postings, rank, group, stamp, out);
          }
        }
        runShared = true;
        if (pick && (positionOfRank ? positionOfRank[rank] < positionOfRank[runBest] : task.valuesByRank ? rankedBeforeByRank(task, rank, runBest) : rankedBefore(task, groupOrder[rank], groupOrder[runBest]))) runBest = rank;
        continue;
      }
      if (runFirst >= 0) picked += finishRun(task, runFirst, runShared, runBest, multi !== null, runLow, runHigh);
      runGroup = group;
      runFirst = rank;
      runShared = false;
      runBest = rank;
    }
  }
  if (runFirst >= 0) picked += finishRun(task, runFirst, runShared, runBest, multi !== null, runLow, runHigh);
  if (byDims) addCountedByDims(task);
  return picked;
}

// Counts each value once per group (the same stamp beside its count); excess markers are skipped.
function countValuesOnce(postOffsets, postings, rank, group, multi, valueCount) {
  const end = postOffsets[rank + 1];
  for (let p = postOffsets[rank]; p < end; p++) {
    const value = postings[p];
    if (value >= valueCount) continue;
    const at = 2 * value;
    const differs = multi[at + 1] ^ group;
    multi[at] += (differs | -differs) >>> 31; // 1 unless the group counted it already
    multi[at + 1] = group;
  }
}

// Makes multi ready for a pass: counts zero, stamps -1.
function clearMulti(multi) {
  for (let at = 0; at < multi.length; at += 2) {
    multi[at] = 0;
    multi[at + 1] = -1;
  }
}

// Adds one to the counter of each bit of word \`word\` set in \`bits\`. The counters are
// bit-sliced: planes[2 * i + word] holds their bits of weight 2^i; the carry ripples up as in a
// binary addition (two planes on average).
function addToPlanes(planes, word, bits) {
  for (let i = word; bits !== 0; i += 2) {
    const carry = planes[i] & bits;
    planes[i] ^= bits;
    bits = carry;
  }
}

// Adds to out what the groups counted by their param dimensions give, in out's terms, and
// clears multi's counts and planes: each value once per group, and to each dimension's excess
// (ShopIndex.postings: a product's values of it less one, when it has any) those groups' values
// of it less the number of them that have it.
function addCountedByDims(task) {
  const { out, multi, planes, valueDim } = task;
  const valueCount = valueDim.length;
  for (let value = 0; value < valueCount; value++) {
    const count = multi[2 * value];
    if (count === 0) continue;
    out[value] += count;
    out[valueCount + valueDim[value]] += count;
    multi[2 * value] = 0;
  }
  const first = valueCount + task.firstParamDim;
  for (let i = 0; i < planes.length; i++) {
    let bits = planes[i];
    if (bits === 0) continue;
    planes[i] = 0;
    const weight = 1 << (i >> 1);
    const base = first + ((i & 1) << 5);
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      out[base + 31 - Math.clz32(low)] -= weight;
    }
  }
}

// Counts a run's document when it was alone in its group (or the param dimensions of a run
// counted by them), and marks the run's representative; 1 when picked.
function finishRun(task, runFirst, runShared, runBest, byDims, runLow, runHigh) {
  const { out, postOffsets, postings, pick, reps, positions, positionOfRank, groupOrder } = task;
  if (out && !runShared) countAlone(postOffsets, postings, runFirst, out);
  if (runShared && byDims) {
    addToPlanes(task.planes, 0, runLow);
    addToPlanes(task.planes, 1, runHigh);
  }
  if (!pick || !reps) return 0;
  const doc = groupOrder[runBest];
  reps[doc >>> 5] |= 1 << (doc & 31);
  if (positionOfRank && positions) {
    const position = positionOfRank[runBest];
    positions[position >>> 5] |= 1 << (position & 31);
  }
  return 1;
}

function countAlone(postOffsets, postings, rank, out) {
  const end = postOffsets[rank + 1];
  for (let p = postOffsets[rank]; p < end; p++) out[postings[p]]++;
}

// Counts the values of a document whose group already counted them (same stamp) once, without a branch.
function countShared(postOffsets, postings, rank, group, stamp, out) {
  const end = postOffsets[rank + 1];
  for (let p = postOffsets[rank]; p < end; p++) {
    const value = postings[p];
    const differs = stamp[value] ^ group;
    out[value] += (differs | -differs) >>> 31; // 1 unless the group counted it already
    stamp[value] = group;
  }
}

// The same over postings with excess markers: they are skipped, and the group's excess is
// counted instead (its second and later distinct values of a dimension), with stamp[valueCount +
// dimension] marking the dimensions it has a value of. Non-param dimensions get an excess too:
// presenceFromExcess clears it.
function countSharedExcess(postOffsets, postings, rank, group, stamp, out, valueDim) {
  const valueCount = valueDim.length;
  const end = postOffsets[rank + 1];
  for (let p = postOffsets[rank]; p < end; p++) {
    const value = postings[p];
    if (value >= valueCount) continue;
    const differs = stamp[value] ^ group;
    const added = (differs | -differs) >>> 31; // 1 unless the group counted it already
    out[value] += added;
    stamp[value] = group;
    const slot = valueCount + valueDim[value];
    const hadDim = stamp[slot] ^ group;
    out[slot] += added & (1 - ((hadDim | -hadDim) >>> 31)); // a new value of a dimension it had
    stamp[slot] = group;
  }
}

// rankedBefore for the documents at ranks a and b, their keys by rank (the ids, by document, only on a tie).
function rankedBeforeByRank(task, a, b) {
  const values = task.valuesByRank;
  const x = values[a];
  const y = values[b];
  if (x !== y) {
    if (Number.isNaN(x)) return Number.isNaN(y) && task.idRank[task.groupOrder[a]] < task.idRank[task.groupOrder[b]];
    if (Number.isNaN(y)) return true;
    return task.sign > 0 ? x < y : x > y;
  }
  return task.idRank[task.groupOrder[a]] < task.idRank[task.groupOrder[b]];
}

// Whether document a comes before b in the task's order (as the engine's comparator: the key, missing last, then id).
function rankedBefore(task, a, b) {
  const values = task.values;
  const idRank = task.idRank;
  const x = values[a];
  const y = values[b];
  if (x !== y) {
    if (Number.isNaN(x)) return Number.isNaN(y) && idRank[a] < idRank[b];
    if (Number.isNaN(y)) return true;
    return task.sign > 0 ? x < y : x > y;
  }
  return idRank[a] < idRank[b];
}
`;

/** A new CountTask.multi for `valueCount` values, ready for a pass. */
export function newMulti(valueCount: number): Int32Array {
  const multi = new Int32Array(2 * valueCount);
  clearMulti(multi);
  return multi;
}

const kernel = new Function(`${KERNEL_SOURCE}\nreturn { countRanks, clearMulti };`)() as { countRanks: (task: CountTask) => number; clearMulti: (multi: Int32Array) => void };
export const { countRanks, clearMulti } = kernel;

/**
 * Turns the excess counts a pass left at `out[valueCount + dim]` into presence: per param
 * dimension, the products (groups) with any of its values are its values' counts less the excess;
 * other dimensions' presence is not counted (0).
 */
export function presenceFromExcess(out: Int32Array, dimValues: Int32Array, firstParamDim: number): void {
  const dims = dimValues.length - 1;
  const valueCount = dimValues[dims];
  for (let dim = 0; dim < dims; dim++) {
    if (dim < firstParamDim) {
      out[valueCount + dim] = 0;
      continue;
    }
    let sum = 0;
    for (let value = dimValues[dim]; value < dimValues[dim + 1]; value++) sum += out[value];
    out[valueCount + dim] = sum - out[valueCount + dim];
  }
}
