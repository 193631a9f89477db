// What this process knows of its shops' product states (product_state: each product's digest and
// availability), so that an import re-sending stored products finds them without asking
// PostgreSQL: looking up 5,000 ids took ~20 ms of PostgreSQL's CPU, a re-send's largest cost
// there.
//
// The states are exact as of a catalog version. Every change to product_state is made by an
// import that bumps the shop's version, under the shop's apply lock: an import that finds the
// version one past the one known, after an import this process applied, knows nothing else wrote.
// An import applied elsewhere (another worker process, or one whose commit this process did not
// see) leaves the version further on, and the shop's states are forgotten. Rows changed by hand
// without a version are not seen, as the listing index does not see them either.

import type { ImportOutcome } from '@/lib/catalog/import-outcome';
import { DIGEST_VERSION } from '@/lib/catalog/sent-items';
import { type KnownStates, type StateChanges, StateTable } from '@/lib/catalog/state-table';
import { processWide } from '@/lib/process-wide';

export type { KnownStates, StateChanges };

// At ~70 bytes a product (state-table.ts), ~140 MB. The shops used least recently are forgotten first.
let maxStates = 2_000_000;

/** How many products' states may be known across shops (tests make it small). */
export function setMaxKnownStates(max: number): void {
  maxStates = max;
}

// One store per process (lib/process-wide.ts).
type Store = { shops: Map<string, KnownStates>; pending: Map<string, { version: number; changes: StateChanges }> };
const STORE = processWide<Store>('known-states');

function store(): Store {
  return STORE.getOrMake(() => ({ shops: new Map(), pending: new Map() }));
}

/**
 * The shop's states as of `version` (the version before the import that asks), or undefined
 * when this process does not know them as of it.
 */
export function knownStatesAt(shopId: string, version: number): KnownStates | undefined {
  const { shops } = store();
  const known = shops.get(shopId);
  if (known === undefined) return undefined;
  if (known.version !== version) {
    shops.delete(shopId);
    return undefined;
  }
  // Most recently used last.
  shops.delete(shopId);
  shops.set(shopId, known);
  return known;
}

/**
 * The shop's states as this process knows them, as of whichever version, now the most recently
 * used: for an import about to be stored, which uses them if they are as of the version before
 * its own (storing checks), and tells what it did with them (expectStates).
 */
export function knownStates(shopId: string): KnownStates | undefined {
  const { shops } = store();
  const known = shops.get(shopId);
  if (known === undefined) return undefined;
  shops.delete(shopId);
  shops.set(shopId, known);
  return known;
}

/**
 * The shop's states as this process knows them, as of whichever version (for guesses only: an
 * import must ask knownStatesAt).
 */
export function peekKnownStates(shopId: string): StateTable | undefined {
  return store().shops.get(shopId)?.states;
}

/**
 * Starts knowing the shop's states as of `version`, with none known yet; `complete` when the
 * shop has no product at that version.
 */
export function startKnowing(shopId: string, version: number, complete: boolean): KnownStates {
  const known: KnownStates = { shopId, version, complete, states: new StateTable(DIGEST_VERSION) };
  store().shops.set(shopId, known);
  return known;
}

/**
 * Notes what storing an import of the shop told of its states (`outcome.states`), for when it
 * commits: the states it used as of the version before (known from now on, as it added what it
 * looked up), or that they are to be forgotten; and what it changed. Nothing for an outcome that
 * tells none (trees).
 */
export function expectStates(shopId: string, { version, states }: Pick<ImportOutcome, 'version' | 'states'>): void {
  if (states === undefined || version === undefined) return;
  if (states.forget) forgetStates(shopId);
  else if (states.before) {
    const { shops } = store();
    shops.delete(shopId);
    shops.set(shopId, states.before);
  }
  expectCommit(shopId, version, states.changes);
}

/** Notes what the import that bumped the shop to `version` changes, for when it commits. */
export function expectCommit(shopId: string, version: number, changes: StateChanges): void {
  store().pending.set(shopId, { version, changes });
}

/**
 * Called once an import of the shop has committed, with the version it left (undefined if it
 * bumped none). The changes it announced are applied; an import that announced none (categories,
 * locations) changed no state, and the states move to its version.
 */
export function noteCommitted(shopId: string, version: number | undefined): void {
  const { shops, pending } = store();
  const expected = pending.get(shopId);
  pending.delete(shopId);
  const known = shops.get(shopId);
  if (known === undefined || version === undefined) return;
  if (version !== known.version + 1 || (expected !== undefined && expected.version !== version) || expected?.changes === null) {
    shops.delete(shopId);
    return;
  }
  expected?.changes(known.states);
  known.version = version;
  keepWithinLimit(known);
}

/** Forgets what the shop's import in progress announced (it did not commit). */
export function notCommitted(shopId: string): void {
  store().pending.delete(shopId);
}

/** Forgets the shop's states. */
export function forgetStates(shopId: string): void {
  store().shops.delete(shopId);
  store().pending.delete(shopId);
}

function keepWithinLimit(kept: KnownStates): void {
  const { shops } = store();
  let total = 0;
  for (const known of shops.values()) total += known.states.size;
  for (const [shopId, known] of shops) {
    if (total <= maxStates) return;
    // The one just used goes last, if it alone is too many.
    if (known === kept && shops.size > 1) continue;
    shops.delete(shopId);
    total -= known.states.size;
  }
  if (total > maxStates) shops.delete(kept.shopId);
}
