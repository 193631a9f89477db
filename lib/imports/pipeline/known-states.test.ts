import { afterEach, describe, expect, it } from 'vitest';
import { expectCommit, forgetStates, knownStatesAt, noteCommitted, notCommitted, setMaxKnownStates, startKnowing } from './known-states';


afterEach(() => {
  setMaxKnownStates(2_000_000);
  for (const shop of ['s1', 's2', 's3']) forgetStates(shop);
});

describe('known states', () => {
  it('are given only as of the version they are at', () => {
    startKnowing('s1', 4, true).states.set('a', null, true);
    expect(knownStatesAt('s1', 5)).toBeUndefined();
    // Asked at another version, they are forgotten.
    expect(knownStatesAt('s1', 4)).toBeUndefined();
  });

  it('take an import’s changes when it commits at the next version', () => {
    startKnowing('s1', 4, true).states.set('a', null, true);
    expectCommit('s1', 5, (states) => states.set('b', null, false));
    noteCommitted('s1', 5);
    const { states } = knownStatesAt('s1', 5)!;
    expect([states.size, states.find('a'), states.find('b')]).toEqual([2, 0, 1]);
  });

  it('move to the version of an import that announced no changes (categories, locations)', () => {
    startKnowing('s1', 4, true);
    noteCommitted('s1', 5);
    expect(knownStatesAt('s1', 5)).toBeDefined();
  });

  it('are forgotten when the version jumped, when told to, or when changes were for another version', () => {
    startKnowing('s1', 4, true);
    noteCommitted('s1', 6);
    expect(knownStatesAt('s1', 6)).toBeUndefined();
    startKnowing('s2', 4, true);
    expectCommit('s2', 5, null);
    noteCommitted('s2', 5);
    expect(knownStatesAt('s2', 5)).toBeUndefined();
    startKnowing('s3', 4, true);
    expectCommit('s3', 6, () => {});
    noteCommitted('s3', 5);
    expect(knownStatesAt('s3', 5)).toBeUndefined();
  });

  it('drop what an import that did not commit announced', () => {
    startKnowing('s1', 4, true);
    expectCommit('s1', 5, (states) => states.set('b', null, true));
    notCommitted('s1');
    // A categories import commits next: it announced nothing.
    noteCommitted('s1', 5);
    expect(knownStatesAt('s1', 5)?.states.size).toBe(0);
  });

  it('forget the shops used least recently past the limit, and a shop alone past it', () => {
    setMaxKnownStates(3);
    for (const shop of ['s1', 's2', 's3']) startKnowing(shop, 1, true).states.set('a', null, true);
    knownStatesAt('s1', 1); // s2 is now the least recently used
    expectCommit('s3', 2, (states) => states.set('b', null, true));
    noteCommitted('s3', 2);
    expect(knownStatesAt('s2', 1)).toBeUndefined();
    expect(knownStatesAt('s1', 1)).toBeDefined();
    expect(knownStatesAt('s3', 2)?.states.size).toBe(2);
    expectCommit('s3', 3, (states) => ['c', 'd'].forEach((id) => states.set(id, null, true)));
    noteCommitted('s3', 3);
    expect(knownStatesAt('s3', 3)).toBeUndefined();
  });
});
