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
  out: Int32Array | null; // values and presence markers counted, one per group when collapsing
  stamp: Int32Array | null; // out's size, all -1
  // Picking each group's representative (with collapse): by each rank's position in a kept order,
  // or else by the order's keys, then the id; marked in `reps` (by document) and in `positions`.
  pick: boolean;
  positionOfRank: Int32Array | null;
  values: Float64Array | null;
  sign: number;
  idRank: Int32Array | null;
  reps: Uint32Array | null;
  positions: Uint32Array | null;
};

/**
 * `countRanks(task)` counts the task's ranks: a product alone in its group with plain increments
 * (values and markers alike, no branch per value), a group with several documents in the set with
 * stamps, so each value counts once for it. It returns the number of representatives picked.
 */
export const KERNEL_SOURCE = `
function countRanks(task) {
  const { ranks, fromWord, toWord, postOffsets, postings, groupOfRank, groupOrder, collapse, out, stamp, pick, positionOfRank } = task;
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
  let picked = 0;
  // A run: the set's documents of one group, in rank order (pending until the group changes),
  // and the best ranked of them in the query's order when picking.
  let runGroup = -1;
  let runFirst = -1;
  let runShared = false;
  let runBest = -1;
  for (let w = fromWord; w < toWord; w++) {
    let bits = ranks[w];
    ranks[w] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const rank = (w << 5) + 31 - Math.clz32(low);
      const group = groupOfRank[rank];
      if (group === runGroup) {
        if (out && stamp) {
          if (!runShared) countShared(postOffsets, postings, runFirst, group, stamp, out);
          countShared(postOffsets, postings, rank, group, stamp, out);
        }
        runShared = true;
        if (pick && (positionOfRank ? positionOfRank[rank] < positionOfRank[runBest] : rankedBefore(task, groupOrder[rank], groupOrder[runBest]))) runBest = rank;
        continue;
      }
      if (runFirst >= 0) picked += finishRun(task, runFirst, runShared, runBest);
      runGroup = group;
      runFirst = rank;
      runShared = false;
      runBest = rank;
    }
  }
  if (runFirst >= 0) picked += finishRun(task, runFirst, runShared, runBest);
  return picked;
}

// Counts a run's document when it was alone in its group, and marks the run's representative; 1 when picked.
function finishRun(task, runFirst, runShared, runBest) {
  const { out, postOffsets, postings, pick, reps, positions, positionOfRank, groupOrder } = task;
  if (out && !runShared) countAlone(postOffsets, postings, runFirst, out);
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

export const countRanks = new Function(`${KERNEL_SOURCE}\nreturn countRanks;`)() as (task: CountTask) => number;
