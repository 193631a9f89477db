import { describe, expect, it } from 'vitest';
import { resolveTree, type TreeLink } from './tree';

function treeOf(links: [id: string, parent: string | null][]): Map<string, TreeLink> {
  return new Map(links.map(([id, parent]) => [id, { id, parent }]));
}

function pathsOf(links: [string, string | null][]) {
  return Object.fromEntries(resolveTree(treeOf(links)).paths);
}

describe('resolveTree', () => {
  it('gives an empty result for no nodes', () => {
    const { paths, cycles } = resolveTree(new Map());
    expect(paths.size).toBe(0);
    expect(cycles.size).toBe(0);
  });

  it('gives each root a path of itself and each child the ids from its root down', () => {
    const { paths, cycles } = resolveTree(
      treeOf([
        ['shoes', null],
        ['boots', 'shoes'],
        ['hiking', 'boots'],
        ['sandals', 'shoes'],
        ['bags', null],
      ]),
    );
    expect(Object.fromEntries(paths)).toEqual({
      shoes: ['shoes'],
      boots: ['shoes', 'boots'],
      hiking: ['shoes', 'boots', 'hiking'],
      sandals: ['shoes', 'sandals'],
      bags: ['bags'],
    });
    expect(cycles.size).toBe(0);
  });

  // Its paths hold ~50M ancestor entries: ~3 s on a slow day here, more beside other tests.
  it('resolves a chain 10,000 deep without overflowing the stack, listed leaf first or root first', { timeout: 30_000 }, () => {
    const depth = 10_000;
    const chain: [string, string | null][] = Array.from({ length: depth }, (_, i) => [`n${i}`, i === 0 ? null : `n${i - 1}`]);
    const expectedLeafPath = chain.map(([id]) => id);
    for (const links of [[...chain].reverse(), chain]) {
      const { paths, cycles } = resolveTree(treeOf(links));
      expect(paths.size).toBe(depth);
      expect(cycles.size).toBe(0);
      expect(paths.get('n0')).toEqual(['n0']);
      expect(paths.get('n1')).toEqual(['n0', 'n1']);
      expect(paths.get('n5000')).toEqual(expectedLeafPath.slice(0, 5001));
      const leaf = paths.get(`n${depth - 1}`)!;
      expect(leaf.length).toBe(depth);
      expect(leaf).toEqual(expectedLeafPath);
    }
  });

  it('keeps a node whose parent is unknown as a root, with its descendants below it', () => {
    const { paths, cycles } = resolveTree(
      treeOf([
        ['child', 'missing'],
        ['grandchild', 'child'],
        ['other', 'also-missing'],
      ]),
    );
    expect(Object.fromEntries(paths)).toEqual({
      child: ['child'],
      grandchild: ['child', 'grandchild'],
      other: ['other'],
    });
    expect(cycles.size).toBe(0);
  });

  it('reports a node that is its own parent as a one-node cycle and gives it no path', () => {
    const { paths, cycles } = resolveTree(treeOf([['a', 'a'], ['b', null]]));
    expect(Object.fromEntries(cycles)).toEqual({ a: ['a', 'a'] });
    expect(Object.fromEntries(paths)).toEqual({ b: ['b'] });
  });

  it('reports every node of a 2-cycle with the loop as found', () => {
    const { paths, cycles } = resolveTree(treeOf([['a', 'b'], ['b', 'a']]));
    expect(Object.fromEntries(cycles)).toEqual({ a: ['a', 'b', 'a'], b: ['a', 'b', 'a'] });
    expect(paths.size).toBe(0);
  });

  it('reports every node of a 3-cycle and roots the nodes hanging below it', () => {
    const { paths, cycles } = resolveTree(
      treeOf([
        ['a', 'c'],
        ['b', 'a'],
        ['c', 'b'],
        ['below', 'b'],
        ['deeper', 'below'],
        ['free', null],
      ]),
    );
    expect(Object.fromEntries(cycles)).toEqual({ a: ['a', 'c', 'b', 'a'], b: ['a', 'c', 'b', 'a'], c: ['a', 'c', 'b', 'a'] });
    expect(Object.fromEntries(paths)).toEqual({ below: ['below'], deeper: ['below', 'deeper'], free: ['free'] });
  });

  it('finds the cycle when the walk starts below it', () => {
    const { paths, cycles } = resolveTree(treeOf([['leaf', 'x'], ['x', 'y'], ['y', 'x']]));
    expect(Object.fromEntries(cycles)).toEqual({ x: ['x', 'y', 'x'], y: ['x', 'y', 'x'] });
    expect(Object.fromEntries(paths)).toEqual({ leaf: ['leaf'] });
  });

  it('keeps two separate cycles apart', () => {
    const { cycles } = resolveTree(treeOf([['a', 'b'], ['b', 'a'], ['c', 'd'], ['d', 'c'], ['e', null]]));
    expect(Object.fromEntries(cycles)).toEqual({ a: ['a', 'b', 'a'], b: ['a', 'b', 'a'], c: ['c', 'd', 'c'], d: ['c', 'd', 'c'] });
  });

  it('gives the same paths and the same cycle members whatever the order of the nodes', () => {
    const links: [string, string | null][] = [
      ['root', null],
      ['a', 'root'],
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'a'],
      ['orphan', 'gone'],
      ['orphan-child', 'orphan'],
      ['p', 'q'],
      ['q', 'r'],
      ['r', 'p'],
      ['under-cycle', 'q'],
    ];
    const expectedPaths = {
      root: ['root'],
      a: ['root', 'a'],
      b: ['root', 'a', 'b'],
      c: ['root', 'a', 'b', 'c'],
      d: ['root', 'a', 'd'],
      orphan: ['orphan'],
      'orphan-child': ['orphan', 'orphan-child'],
      'under-cycle': ['under-cycle'],
    };
    // Every rotation and its reverse: each node gets to be the first one walked.
    for (let shift = 0; shift < links.length; shift++) {
      const rotated = [...links.slice(shift), ...links.slice(0, shift)];
      for (const order of [rotated, [...rotated].reverse()]) {
        const { paths, cycles } = resolveTree(treeOf(order));
        expect(Object.fromEntries(paths)).toEqual(expectedPaths);
        expect([...cycles.keys()].sort()).toEqual(['p', 'q', 'r']);
        for (const loop of cycles.values()) {
          expect(loop.length).toBe(4);
          expect(loop[0]).toBe(loop[3]);
          expect([...loop.slice(0, 3)].sort()).toEqual(['p', 'q', 'r']);
        }
      }
    }
  });

  it('resolves a wide tree of 100,000 nodes', () => {
    const links: [string, string | null][] = [['top', null]];
    for (let i = 0; i < 100_000 - 1; i++) links.push([`c${i}`, i < 100 ? 'top' : `c${i % 100}`]);
    const { paths } = resolveTree(treeOf(links));
    expect(paths.size).toBe(100_000);
    expect(paths.get('c5')).toEqual(['top', 'c5']);
    expect(paths.get('c99998')).toEqual(['top', 'c98', 'c99998']);
  });

  it('treats a parent equal to an id elsewhere case-sensitively (ids are exact strings)', () => {
    expect(pathsOf([['A', null], ['b', 'a']])).toEqual({ A: ['A'], b: ['b'] });
  });
});
