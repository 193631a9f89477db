// Where the pipeline meets storage: an import of products or availability is stored
// (lib/catalog/apply-products.ts) with what the pipeline has for it — the states this process
// knows of the shop, the rows prepared ahead or on the preparing thread — and what storing it
// tells of the states is noted for when it commits.

import type { TransactionSql } from 'postgres';
import { applyAvailability, applyProducts } from '@/lib/catalog/apply-products';
import type { ImportOutcome } from '@/lib/catalog/import-outcome';
import type { ListedIds } from '@/lib/catalog/listed-ids';
import type { SentItems } from '@/lib/catalog/sent-items';
import { Phases } from '@/lib/runtime/phases';
import { expectStates, knownStates } from './known-states';
import { prepareOnThread, type PreparedAhead } from './prepare-ahead';

/** A PUT or load of products (`ahead`: its items prepared ahead, when it was read ahead). */
export async function storeProducts(tx: TransactionSql, shopId: string, mode: 'put' | 'load', items: SentItems | unknown[], phases = new Phases(), ahead?: Pick<PreparedAhead, 'take'>): Promise<ImportOutcome> {
  const outcome = await applyProducts(tx, shopId, mode, items, phases, { known: knownStates(shopId), takePrepared: ahead?.take, prepareNow: prepareOnThread });
  expectStates(shopId, outcome);
  return outcome;
}

/** A PATCH or DELETE of products' availability. */
export async function storeAvailability(tx: TransactionSql, shopId: string, mode: 'patch' | 'delete', listed: ListedIds | unknown[], phases = new Phases()): Promise<ImportOutcome> {
  // A PATCH makes the states forgotten: it needs none (applyAvailability).
  const outcome = await applyAvailability(tx, shopId, mode, listed, phases, { known: mode === 'delete' ? knownStates(shopId) : undefined });
  expectStates(shopId, outcome);
  return outcome;
}
