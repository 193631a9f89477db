import { randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import { bodyIds } from '@/lib/catalog/listed-ids';
import { applyTree } from '@/lib/catalog/apply-tree';
import { bodyItems, makeDigests, type SentItems } from '@/lib/catalog/sent-items';
import type { AppContext } from '@/lib/runtime/context';
import { SHOP_APPLY_TX_LOCK, SHOP_IMPORT_LOCK } from './apply-locks';
import { finishImport, logFinished, type Finished } from './finish-import';
import { importBody, noteCommitted, notCommitted, ReadingAhead, startPreparing, storeAvailability, storeProducts, type HandedBody, type ReadAhead } from './pipeline';
import { Phases } from '@/lib/runtime/phases';
import { operations, type Operation } from './operations';
import { ImportOutcome } from '@/lib/catalog/import-outcome';
import { log } from '@/lib/runtime/log';


type Pending = { id: number; operation: Operation };

async function nextPending(ctx: AppContext, shopId: string, after = 0): Promise<Pending | undefined> {
  const [row] = await ctx.sql<Pending[]>`
    select id, operation from imports
     where shop_id = ${shopId} and status in ('queued', 'running') and id > ${after}
     order by id limit 1`;
  return row;
}

/**
 * Applies the shop's pending imports one by one, in arrival order, while holding the shop's
 * advisory lock: one applier per shop across every process, others proceed in parallel. The
 * lock dies with its connection, so a crashed applier's import is picked up again.
 */
export async function runPendingImports(ctx: AppContext, shopId: string): Promise<void> {
  for (;;) {
    const conn = await ctx.sql.reserve();
    try {
      const [{ locked }] = await conn<{ locked: boolean }[]>`select pg_try_advisory_lock(${SHOP_IMPORT_LOCK}, hashtext(${shopId})) as locked`;
      // The holder looks for more work after it lets go, so nothing waits on us.
      if (!locked) return;
      try {
        // The next imports are read (their items prepared) while each is applied.
        const reading = new ReadingAhead<Pending>(ctx, shopId, { after: (importId) => nextPending(ctx, shopId, importId), itemsOf: (pending, body) => productItems(pending.operation, body) });
        for (let next = await nextPending(ctx, shopId); next; next = await nextPending(ctx, shopId)) {
          const ahead = reading.before(next.id);
          try {
            await applyImport(ctx, shopId, next, ahead);
          } finally {
            reading.after();
          }
          await reading.caughtUp();
        }
      } finally {
        await conn`select pg_advisory_unlock(${SHOP_IMPORT_LOCK}, hashtext(${shopId}))`;
      }
    } finally {
      conn.release();
    }
    // An import that arrived while we held the lock woke a job that found it taken.
    if (!(await nextPending(ctx, shopId))) return;
  }
}

/** Drops raw bodies of imports finished more than `days` ago (0: keep for ever). */
export async function pruneImportBodies(ctx: AppContext, days: number): Promise<number> {
  if (days <= 0) return 0;
  const result = await ctx.sql`
    delete from import_bodies b using imports i
     where i.shop_id = b.shop_id and i.id = b.import_id
       and i.status in ('done', 'failed') and i.finished_at < now() - make_interval(days => ${days})`;
  return result.count;
}

/** Imports accepted and not finished, of every shop (the partial index `imports_pending`). */
export async function countPendingImports(ctx: Pick<AppContext, 'sql'>): Promise<number> {
  const [row] = await ctx.sql<{ count: number }[]>`select count(*)::int as count from imports where status in ('queued', 'running')`;
  return row.count;
}

/** Shops with imports waiting: after a restart, or when a wake-up job was lost. */
export async function shopsWithPendingImports(ctx: AppContext): Promise<string[]> {
  const rows = await ctx.sql<{ shop_id: string }[]>`
    select distinct shop_id from imports where status in ('queued', 'running')`;
  return rows.map((row) => row.shop_id);
}

/** The items of a products PUT or load (undefined for other operations). */
function productItems(operation: Operation, { raw, members }: HandedBody): SentItems | undefined {
  const verb = operation.split('.')[1];
  if (verb !== 'put' && verb !== 'load') return undefined;
  // Intake made sure it is there and an array.
  const member = members.get(operations[operation].field)!;
  return bodyItems(raw, member.elements!, member.elementMembers);
}

async function applyOperation(tx: TransactionSql, shopId: string, operation: Operation, body: HandedBody, phases: Phases, ahead?: ReadAhead): Promise<ImportOutcome> {
  const { raw, members } = body;
  const { resource, field } = operations[operation];
  // Intake made sure it is there and an array.
  const member = members.get(field)!;
  const verb = operation.split('.')[1];
  if (verb === 'put' || verb === 'load') {
    const items = ahead?.items ?? productItems(operation, body)!;
    // The thread that prepares items, started by the first import of products (it takes ~0.4 s
    // to load): the imports after it are prepared there, read ahead or not (storeProducts).
    void startPreparing();
    await makeDigests(items);
    phases.mark('digests');
    return storeProducts(tx, shopId, verb, items, phases, ahead?.prepared);
  }
  if (resource === 'categories' || resource === 'locations') {
    const list = JSON.parse(raw.toString('utf8', member.start, member.end)) as unknown[];
    return applyTree(tx, shopId, resource, verb as 'replace' | 'upsert' | 'delete', list);
  }
  return storeAvailability(tx, shopId, verb as 'patch' | 'delete', bodyIds(raw, member.elements!), phases);
}

// Failures that say nothing about the import itself (the database went away, a serialization
// conflict): the import stays pending and is applied again, rather than failed.
const TRANSIENT_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']);

function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return TRANSIENT_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || code === '40001' || code === '40P01' || code === '53300';
}

const MAX_ATTEMPTS = 5;

async function applyImport(ctx: AppContext, shopId: string, pending: Pending, ahead?: ReadAhead): Promise<void> {
  // The claim's commit does not wait for the WAL to reach the disk: a commit that waits flushes
  // all the WAL before it too, here the import just applied (~12 MB at 5,000 new products), and
  // the applier waited for it, 75–116 ms in most imports of a first load. The claim counts
  // attempts that end without an answer: a process that dies leaves it counted (PostgreSQL keeps
  // what it committed); only a crash of PostgreSQL itself within that moment loses it, and the
  // import's record is then as it was before the claim.
  const [claimed] = await ctx.sql.begin(async (tx) => {
    const [, rows] = await Promise.all([
      tx`select set_config('synchronous_commit', 'off', true)`,
      tx<{ attempts: number }[]>`
        update imports set status = 'running', started_at = now(), attempts = attempts + 1
         where shop_id = ${shopId} and id = ${pending.id} and status in ('queued', 'running')
     returning attempts`,
    ]);
    return rows;
  });
  // Settled meanwhile by another applier.
  if (!claimed) return;
  const { attempts } = claimed;
  if (attempts > MAX_ATTEMPTS) {
    const message = `Import could not be applied: gave up after ${MAX_ATTEMPTS} attempts that each ended without an answer`;
    logFinished(shopId, await ctx.sql.begin((tx) => finishImport(ctx, tx, shopId, pending.id, new ImportOutcome(), message)));
    return;
  }
  log('import started', { shopId, importId: pending.id, operation: pending.operation, attempt: attempts });
  // Logged after the try: nothing that goes wrong after the commit may fail a committed import.
  let committed: Finished | undefined;
  try {
    const phases = new Phases();
    const { body, how } = await importBody(ctx, shopId, pending.id, ahead);
    phases.mark(how);
    const finished = await ctx.sql.begin(async (tx) => {
      // Its commit does not wait for the WAL to reach the disk (20–50 ms an import of 5,000
      // items at 1,000,000 products): what it writes is made again from the import's body, which intake stored
      // durably. A crash of PostgreSQL within the moment before the WAL is flushed loses the
      // applied import, whose record is then pending again and applied again after the restart.
      // Both sent at once (one round trip); they run in order.
      const [, [current]] = await Promise.all([
        tx`select set_config('synchronous_commit', 'off', true), pg_advisory_xact_lock(${SHOP_APPLY_TX_LOCK}, hashtext(${shopId}))`,
        tx<{ status: string }[]>`select status from imports where shop_id = ${shopId} and id = ${pending.id} for update`,
      ]);
      // Applied meanwhile by another applier: never twice.
      if (current.status !== 'queued' && current.status !== 'running') return undefined;
      phases.mark('lock');
      const outcome = await applyOperation(tx, shopId, pending.operation, body, phases, ahead);
      const record = await finishImport(ctx, tx, shopId, pending.id, outcome);
      phases.mark('finish');
      return { version: outcome.version, record };
    });
    noteCommitted(shopId, finished?.version);
    phases.mark('commit');
    phases.report(`${pending.operation} ${pending.id}`);
    committed = finished?.record;
  } catch (error) {
    notCommitted(shopId);
    if (isTransient(error)) throw error;
    // Nothing of it was stored (its transaction rolled back): record why, and move on so the
    // shop's later imports are not held up.
    // The details only in the log, as for a 500 (CONTRACT §7): the record, webhook and email
    // carry a reference to them.
    const reference = randomUUID();
    const message = `Import could not be applied: an internal error (reference ${reference}); nothing of it was stored`;
    log('import could not be applied', { shopId, importId: pending.id, operation: pending.operation, reference, err: error }, 'error');
    committed = await ctx.sql.begin((tx) => finishImport(ctx, tx, shopId, pending.id, new ImportOutcome(), message));
  }
  if (committed) logFinished(shopId, committed);
}
