import type { TransactionSql } from 'postgres';
import { ImportOutcome, rejectedIdOf } from '@/lib/catalog/import-outcome';
import { Phases } from '@/lib/runtime/phases';
import { TimeSlice, yieldToEventLoop } from '@/lib/runtime/turns';
import { type BinaryType, BinaryRows, copyBinary, copyRows, copyTextBytes, type CopyValue } from './copy-rows';
import { type FacetEncoder, openFacetDictionary } from './facet-dictionary';
import { PRODUCT_COLUMNS } from './prepared-items';
import { type BatchEntry, PreparedBatch } from './prepared-batch';
import { listedIds, type ListedIds } from './listed-ids';
import { DIGEST_VERSION, listedItems, type SentItems } from './sent-items';
import { type KnownStates, StateTable, type StatesTold } from './state-table';
import { bumpCatalogVersion } from './version';

/**
 * What the import pipeline (lib/imports/pipeline) gives storing products besides the items.
 * Without it every id this import names is looked up, and every item to write is prepared here
 * as it is reached.
 */
export type StoreAids = {
  /** The shop's product states as this process knows them, as of whichever version: used when as of the one before this import's. */
  known?: KnownStates;
  /** The rows of items prepared ahead of this import, given once: taken when its ids are looked up, which stops preparing ahead. */
  takePrepared?: () => Promise<PreparedBatch | undefined>;
  /** Prepares the rows of `positions` now, on another thread; undefined when it cannot. */
  prepareNow?: (items: SentItems, positions: number[]) => Promise<PreparedBatch | undefined> | undefined;
};

const UPDATED = PRODUCT_COLUMNS.filter((c) => c !== 'id');

async function knownIds(tx: TransactionSql, table: 'categories' | 'locations', shopId: string): Promise<Set<string>> {
  const rows = await tx<{ id: string }[]>`select id from ${tx(table)} where shop_id = ${shopId}`;
  return new Set(rows.map((row) => row.id));
}

type Known = { categories: Set<string>; locations: Set<string> };

/** The warnings an accepted item earns: empty or unknown categories, unknown locations. */
function warnAbout(outcome: ImportOutcome, known: Known, id: string, position: number, categories: readonly string[], offerLocations: readonly string[]): void {
  if (categories.length === 0) outcome.warn({ item_id: id, position, message: 'categories is empty; the product is in no category' });
  for (const category of categories) {
    if (!known.categories.has(category)) outcome.warn({ item_id: id, position, message: `category ${category} is unknown; the product counts in it once it arrives` });
  }
  for (const location of offerLocations) {
    if (!known.locations.has(location)) outcome.warn({ item_id: id, position, message: `location ${location} is unknown` });
  }
}

/** A product's stored digest and availability, as the import's look-up gives them. */
type Stored = { source_digest: string | null; available: boolean | null };

/**
 * What is stored of each product the request names once: its digest and availability. An id
 * looked up and not found is new (nothing of it is stored, so its rows go straight into the
 * tables); an item whose digest matches was stored from these exact bytes and needs no
 * validation and no write. (For a state this process knows, the digest is the item's when the
 * stored one is the same, else null: all that is asked of it.)
 */
type LookedUp = { lookedUp: Set<string>; stored: Map<string, Stored> };

/**
 * Looks the request's ids up: in `known` (the shop's states this process knows as of the version
 * before this import), then in PostgreSQL for those it does not have (none when it knows every
 * product). What PostgreSQL answers is added to `known`: it is what was stored at that version.
 */
async function lookUp(tx: TransactionSql, shopId: string, items: SentItems, probeProducts: boolean, known?: KnownStates): Promise<LookedUp> {
  // Each id's position, or -1 when it is named twice.
  const positions = new Map<string, number>();
  for (let position = 0; position < items.count; position++) {
    const id = items.id(position);
    if (id !== undefined) positions.set(id, positions.has(id) ? -1 : position);
  }
  // An id named twice goes through staging: the last occurrence must win over an earlier one.
  // So does one no product can have (PostgreSQL could not even compare it).
  const once: string[] = [];
  positions.forEach((position, id) => {
    if (position >= 0 && id.length <= 64 && !id.includes('\0') && id.isWellFormed()) once.push(id);
  });
  const stored = new Map<string, Stored>();
  const asked: string[] = [];
  for (const id of once) {
    const entry = known ? known.states.find(id) : -1;
    if (entry >= 0) {
      // A digest known here is compared where it is kept, not made into a string (what
      // unchangedId compares): the item's own when it is the one stored, else none.
      const digest = items.digest(positions.get(id)!);
      stored.set(id, { source_digest: known!.states.sameDigest(entry, digest) ? digest : null, available: known!.states.available(entry) });
    } else if (!known?.complete) asked.push(id);
  }
  // Sorted, the probes walk the indexes in order: 34-51 ms for 5,000 ids in a 100,000-product
  // shop, against 107-174 ms in the order sent.
  asked.sort();
  if (asked.length > 0) {
    // Index probes, whatever the planner's statistics say after a bulk load: into the narrow
    // product_state (41 ms for 5,000 ids at 1,000,000 products, against 91 when the wide
    // products table was probed too). Every product has its row there, so an id without one is
    // new, and its row goes straight into products. With `probeProducts`, an id without one is
    // looked for in products too: a product stored without it (a row removed by hand) then
    // counts as stored. (Probing products for 5,000 new ids took 34 ms against 13–18 without,
    // at 1,000,000 products.)
    const rows = await tx.unsafe<(Stored & { id: string })[]>(
      probeProducts
        ? `select wanted.id, st.source_digest, st.available
             from unnest($2::text[]) as wanted (id)
             left join lateral (select source_digest, available from product_state where shop_id = $1 and product_id = wanted.id limit 1) st on true
             left join lateral (select true as found from products where st.available is null and shop_id = $1 and id = wanted.id limit 1) p on true
            where st.available is not null or p.found`
        : `select wanted.id, st.source_digest, st.available
             from unnest($2::text[]) as wanted (id)
             join lateral (select source_digest, available from product_state where shop_id = $1 and product_id = wanted.id limit 1) st on true`,
      [shopId, asked],
    );
    for (const { id, source_digest, available } of rows) {
      stored.set(id, { source_digest, available });
      // A product without its state row is not known: the next import asks again.
      if (available !== null) known?.states.set(id, source_digest, available);
    }
  }
  return { lookedUp: new Set(once), stored };
}

/** The shop's states as of the version before this import's: those known, or new ones to fill. */
async function statesBefore(tx: TransactionSql, shopId: string, version: number, known: KnownStates | undefined): Promise<KnownStates> {
  if (known?.version === version - 1) return known;
  const [{ empty }] = await tx<{ empty: boolean }[]>`select not exists (select from product_state where shop_id = ${shopId}) as empty`;
  return { shopId, version: version - 1, complete: empty, states: new StateTable(DIGEST_VERSION) };
}

/** The id of the item at `position` when its bytes are the ones its stored row was made from. */
function unchangedId(items: SentItems, stored: Map<string, Stored>, position: number): string | undefined {
  const digest = items.digest(position);
  const id = digest === null ? undefined : items.id(position);
  return id !== undefined && stored.get(id)?.source_digest === digest ? id : undefined;
}

/** What going through the items leaves besides the rows streamed to PostgreSQL. */
type Sorted = {
  // Accepted items whose availability may need writing (all of them for a load): position, id,
  // availability, and whether the item is new.
  seen: CopyValue[][];
  // Rows of the kind not being streamed (new or staged), for a second COPY; new products'
  // states. In COPY's binary format.
  held: BinaryRows;
  newStates: BinaryRows;
  ids: Set<string>;
  // The ids of rejected items that name one: listed, so a load does not mark them out of stock.
  rejectedIds: string[];
  valid: number;
  fresh: number;
  // Rows for staging (stored products validated again).
  staged: number;
};

type Plan = {
  shopId: string;
  mode: 'put' | 'load';
  version: number;
  lookedUp: Set<string>;
  stored: Map<string, Stored>;
  known: Known;
  streamNew: boolean;
  facets: FacetEncoder;
  // Per position, the id of an item sent unchanged (unchangedId), else undefined.
  unchanged: (string | undefined)[];
  // The items prepared, ahead (prepareAhead) or as they are reached; the shop's number for each
  // of the batch's token numbers met so far.
  batch: PreparedBatch;
  shopNumbers: number[];
};

// Rows streamed to PostgreSQL are handed over in chunks of about this many bytes.
const CHUNK_BYTES = 1 << 20;
// No rows: the event loop's turn (see sortedRows).
const TURN = Buffer.alloc(0);

/** One field in COPY's binary format, to put before or after an item's own. */
function binaryField(type: BinaryType, value: CopyValue): Buffer {
  const rows = new BinaryRows(64);
  rows.field(type, value);
  return rows.take();
}

/**
 * Puts the shop's numbers for the item's facet tokens into `into` (the batch numbers its tokens
 * its own way; the shop's dictionary hands out numbers in the order its items are written, as
 * when they were encoded as they came) and says how many there are.
 */
function numberFacets(plan: Plan, item: BatchEntry & { ok: true }, into: number[]): number {
  if (item.facets === null) return 0;
  const { shopNumbers } = plan;
  for (let i = 0; i < item.facets.length; i++) {
    const own = item.facets[i];
    let number = shopNumbers[own];
    if (number === undefined) shopNumbers[own] = number = plan.facets.numberOf(plan.batch.token(own));
    into[i] = number;
  }
  return item.facets.length;
}

/**
 * Goes through the items in order. An item whose bytes match the stored digest is only noted
 * as seen, with its availability. The others are validated and prepared: a new product's row
 * goes straight to `products`, a stored one's to staging for the upsert. Rows of the kind
 * `plan.streamNew` names are yielded in chunks, so PostgreSQL ingests one while the next is
 * prepared; the other kind is held for a second COPY. Going through items sent unchanged (a
 * re-send: no rows), an empty chunk is yielded every couple of milliseconds, and the consumer
 * gives the event loop a turn at each: the next import's intake in the same process is not held
 * up for a whole import.
 */
function* sortedRows(items: SentItems, plan: Plan, outcome: ImportOutcome, sorted: Sorted) {
  const { stored, lookedUp, known } = plan;
  // An item's facet numbers in the shop's dictionary (numberFacets).
  const facetNumbers: number[] = [];
  // A new product's row: its shop, its fields, the version; a staged one's: its position first.
  const shopField = binaryField('text', plan.shopId);
  const versionField = binaryField('int8', plan.version);
  const streamed = new BinaryRows(CHUNK_BYTES + (CHUNK_BYTES >> 2));
  const slice = new TimeSlice();
  for (let position = 0; position < items.count; position++) {
    const id = plan.unchanged[position];
    if (id !== undefined) {
      // These exact bytes passed validation before: the coercions below are ItemInput's.
      const item = items.summary(position);
      const available = item.available === null || item.available === undefined ? true : typeof item.available === 'number' ? item.available > 0 : item.available === true;
      sorted.ids.add(id);
      sorted.valid++;
      // Its availability needs writing only if it differs; a load still needs every id seen.
      if (plan.mode === 'load' || stored.get(id)!.available !== available) sorted.seen.push([position, id, available, false, items.digest(position)]);
      warnAbout(outcome, known, id, position, (item.categories ?? []).map((category) => String(category).trim()), (item.locations ?? []).map((offer) => String(offer.location).trim()));
      if (slice.due()) yield TURN;
      continue;
    }
    const item = plan.batch.entry(position) ?? plan.batch.prepareFrom(items, position);
    if (!item.ok) {
      outcome.reject(item.problem);
      const rejectedId = rejectedIdOf(item.problem);
      if (rejectedId !== undefined) sorted.rejectedIds.push(rejectedId);
      continue;
    }
    if (sorted.ids.has(item.id)) outcome.warn({ item_id: item.id, position, message: `id ${item.id} appears more than once; the last one is used` });
    sorted.ids.add(item.id);
    sorted.valid++;
    warnAbout(outcome, known, item.id, position, item.categories, item.offerLocations);
    const fresh = lookedUp.has(item.id) && !stored.has(item.id);
    sorted.seen.push([position, item.id, item.available, fresh, items.digest(position)]);
    const rows = fresh === plan.streamNew ? streamed : sorted.held;
    const facetCount = numberFacets(plan, item, facetNumbers);
    if (fresh) {
      sorted.fresh++;
      sorted.newStates.row(STATE_COLUMNS.length);
      sorted.newStates.bytes(shopField);
      sorted.newStates.field('text', item.id);
      sorted.newStates.field('bool', item.available);
      sorted.newStates.bytes(versionField);
      sorted.newStates.field('text', items.digest(position));
      sorted.newStates.bytes(versionField);
      rows.row(NEW_PRODUCT_COLUMNS.length);
      rows.bytes(shopField);
      rows.bytes(plan.batch.fields(item));
      rows.spacedNumbers(item.facets && facetNumbers, facetCount);
      rows.bytes(versionField);
    } else {
      sorted.staged++;
      rows.row(STAGED_PRODUCT_COLUMNS.length);
      rows.field('int4', position);
      rows.bytes(plan.batch.fields(item));
      rows.spacedNumbers(item.facets && facetNumbers, facetCount);
    }
    // No turns between these: on a first load the applier is what limits, and intake let further
    // ahead (its bodies then read back from storage) did not pay in the runs measured.
    // One buffer for every chunk: copyBinary has handed a chunk on before it asks for the next.
    if (streamed.length >= CHUNK_BYTES) yield streamed.flush();
  }
  if (streamed.length > 0) yield streamed.take();
}

const NEW_PRODUCT_COLUMNS = ['shop_id', ...PRODUCT_COLUMNS, 'version'];
const STATE_COLUMNS = ['shop_id', 'product_id', 'available', 'version', 'source_digest', 'data_version'];
const STAGING_TABLES = `
  create temp table staging_products (
    pos int, id text, group_id text, name text, url text, picture text, price float8, oldprice float8,
    discount_percent float8, currency text, brand text, merchants text[], categories text[],
    stock_quantity int, rating float8, price_margin float8, creation_date timestamptz, data text, facet_values text,
    model text, book text, offers text
  ) on commit drop;`;
const STAGED_PRODUCT_COLUMNS = ['pos', ...PRODUCT_COLUMNS];

/**
 * PUT (and POST "load") of products in the caller's transaction. Items sent unchanged (same
 * digest) are skipped; the rest are validated item by item. New products are copied straight
 * into their tables; stored ones go through staging and an upsert that writes only rows whose
 * data changed (keeping sales_rate and first_added_at), offers included. Then
 * availability is set. `load` also marks every product of the shop that is not in the request
 * as not in stock. `sent` are the items as sent (bodyItems), or values (listedItems).
 */
export async function applyProducts(tx: TransactionSql, shopId: string, mode: 'put' | 'load', sent: SentItems | unknown[], phases = new Phases(), aids: StoreAids = {}): Promise<ImportOutcome> {
  const items = Array.isArray(sent) ? listedItems(sent) : sent;
  // The version first: it takes the shop's row lock (held until commit), and says whether the
  // states this process knows are still the stored ones.
  // The statements after it are sent with it, one round trip (they run after it, in order, so
  // the dictionary is read under the lock).
  const [version, categories, locations, facets] = await Promise.all([
    bumpCatalogVersion(tx, shopId),
    knownIds(tx, 'categories', shopId),
    knownIds(tx, 'locations', shopId),
    openFacetDictionary(tx, shopId),
  ]);
  const states = await statesBefore(tx, shopId, version, aids.known);
  const looked = await lookUp(tx, shopId, items, false, states);
  phases.mark('look up');
  const known = { categories, locations };
  if (looked.lookedUp.size === looked.stored.size) return applyLookedUp(tx, shopId, mode, version, items, known, looked, phases, aids, { before: states }, facets);
  // Some ids are new: their rows are copied straight into products, which fails on a product
  // that has no availability row (removed by hand). Then the same again, with products probed
  // (and the states known forgotten: they took that product for new).
  try {
    return await tx.savepoint((sp) => applyLookedUp(sp, shopId, mode, version, items, known, looked, phases, aids, { before: states }, facets));
  } catch (error) {
    const { code, constraint_name } = error as { code?: unknown; constraint_name?: unknown };
    if (code !== '23505' || constraint_name !== 'products_shop_id_id_pk') throw error;
    const probed = await lookUp(tx, shopId, items, true);
    phases.mark('look up in products');
    return applyLookedUp(tx, shopId, mode, version, items, known, probed, phases, aids, { forget: true });
  }
}

/**
 * applyProducts once the request's ids are looked up. `told`: what the outcome tells of the states
 * besides what it changed (the states it used, or that they are to be forgotten).
 */
async function applyLookedUp(
  tx: TransactionSql,
  shopId: string,
  mode: 'put' | 'load',
  version: number,
  items: SentItems,
  known: Known,
  { lookedUp, stored }: LookedUp,
  phases: Phases,
  aids: StoreAids,
  told: Omit<StatesTold, 'changes'>,
  opened?: FacetEncoder,
): Promise<ImportOutcome> {
  const outcome = new ImportOutcome();
  outcome.itemsTotal = items.count;
  outcome.version = version;
  // Opened after the version (the shop's row lock is held until commit); again after going back
  // to the savepoint, whose rollback took the tokens it stored.
  const facets = opened ?? (await openFacetDictionary(tx, shopId));
  phases.mark('facet dictionary');

  // What needs writing: items not sent unchanged, and of those the ones that are not new.
  const unchangedIds = new Array<string | undefined>(items.count);
  const toPrepare: number[] = [];
  let unchanged = 0;
  let toStage = 0;
  for (let position = 0; position < items.count; position++) {
    unchangedIds[position] = unchangedId(items, stored, position);
    if (unchangedIds[position] !== undefined) {
      unchanged++;
      continue;
    }
    // Not prepared ahead: what prepareNow is given.
    if (!aids.takePrepared) toPrepare.push(position);
    const id = items.id(position);
    if (id === undefined || !lookedUp.has(id) || stored.has(id)) toStage++;
  }
  // Stream whichever kind most items are likely to be: new on a first load, staged after.
  const streamNew = toStage === 0 || lookedUp.size - stored.size >= items.count / 2;
  // Prepared ahead when the body was read ahead: taken here, so no preparing ahead goes on once
  // the items are gone through. Otherwise the items to write are prepared on the preparing thread
  // now (prepareNow); failing that (and for items given as values), on this one as reached.
  const ahead = aids.takePrepared ? await aids.takePrepared() : undefined;
  const preparing = aids.takePrepared ? undefined : aids.prepareNow?.(items, toPrepare);
  const batch = ahead ?? (preparing && (await preparing)) ?? new PreparedBatch();
  if (preparing && !batch.madeHere) phases.mark('prepared on its thread');
  const plan: Plan = { shopId, mode, version, lookedUp, stored, known, streamNew, facets, unchanged: unchangedIds, batch, shopNumbers: [] };
  const sorted: Sorted = { seen: [], held: new BinaryRows(), newStates: new BinaryRows(), ids: new Set(), rejectedIds: [], valid: 0, fresh: 0, staged: 0 };
  const rows = sortedRows(items, plan, outcome, sorted);
  // Staging tables are made only when something goes through them: a first load needs none.
  if (!streamNew) await tx.unsafe(STAGING_TABLES);
  phases.mark('staging tables');
  try {
    if (unchanged === items.count) {
      // Sent unchanged, every one: going through them makes no row, only notes availability and warnings.
      for (const _ of rows) await yieldToEventLoop();
    } else if (streamNew) {
      await copyBinary(tx, 'products', NEW_PRODUCT_COLUMNS, rows);
      phases.mark('copy new products');
      if (sorted.staged > 0) {
        await tx.unsafe(STAGING_TABLES);
        await copyBinary(tx, 'staging_products', STAGED_PRODUCT_COLUMNS, [sorted.held.take()]);
      }
      phases.mark('copy staged');
    } else {
      await copyBinary(tx, 'staging_products', STAGED_PRODUCT_COLUMNS, rows);
      phases.mark('copy staged');
      if (sorted.fresh > 0) await copyBinary(tx, 'products', NEW_PRODUCT_COLUMNS, [sorted.held.take()]);
      phases.mark('copy new products');
    }
  } finally {
    // Every row has its fields now (copied from the batch): its memory may be reused.
    batch.release();
  }
  if ((await facets.store(tx)) > 0) phases.mark('new facet tokens');
  if (sorted.fresh > 0) {
    outcome.changed = true;
    await copyBinary(tx, 'product_state', STATE_COLUMNS, [sorted.newStates.take()]);
    phases.mark('copy new states');
  }
  // Availability to write for stored products, and every id a load lists.
  const seenNeeded = mode === 'load' || sorted.seen.length > sorted.fresh;
  if (seenNeeded) {
    await tx.unsafe(`create temp table staging_seen (pos int, id text, available bool, fresh bool, digest text) on commit drop`);
    await copyRows(tx, 'staging_seen', ['pos', 'id', 'available', 'fresh', 'digest'], sorted.seen);
  }
  phases.mark('copy seen');
  outcome.applied = sorted.ids.size;
  // The last occurrence of an id in the request wins. Without repeats (the usual case) every
  // staged row wins, and sorting wide rows is skipped.
  const repeated = sorted.valid > sorted.ids.size;
  const winners = repeated ? `(select distinct on (id) * from staging_products order by id, pos desc)` : 'staging_products';
  const seen = repeated ? `(select distinct on (id) * from staging_seen order by id, pos desc)` : 'staging_seen';

  // A row whose data is the same JSON spelled otherwise (other spacing or key order) only takes
  // the new text: its version stays, so readers see no change. (`data` is text: the same JSON
  // spelled differently is told apart as jsonb.) Its new digest goes with its availability.
  const dataChanged = 'p.data is distinct from excluded.data and p.data::jsonb is distinct from excluded.data::jsonb';
  const [{ changed }] = sorted.staged === 0 ? [{ changed: 0 }] : await tx.unsafe<{ changed: number }[]>(
    `with written as (
       insert into products as p (shop_id, ${PRODUCT_COLUMNS.join(', ')}, version, first_added_at, updated_at)
       select $1, ${PRODUCT_COLUMNS.map((c) => `s.${c}`).join(', ')}, $2, now(), now() from ${winners} s
       on conflict (shop_id, id) do update
          set ${UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}, facets = null,
              version = case when ${dataChanged} then excluded.version else p.version end,
              updated_at = case when ${dataChanged} then now() else p.updated_at end
        where p.data is distinct from excluded.data
       returning p.version)
     select count(*) filter (where version = $2)::int as changed from written`,
    [shopId, version],
  );
  phases.mark('upsert');
  // Availability, and the digest of what was stored from the item: the version moves only with
  // availability (or for a product that had none); data_version with the product's row, which
  // readers find changes by (the upsert above moved its version). A product whose row changed
  // was sent with other bytes than its stored digest, so its state row is written here anyway;
  // with no digest (items given as values), its row is looked at.
  const rowChanged = sorted.staged === 0 ? 'false' : '(select p.version from products p where p.shop_id = $1 and p.id = excluded.product_id) = $2';
  const [states] =
    sorted.seen.length === sorted.fresh
      ? [{ flipped: 0 }]
      : await tx.unsafe<{ flipped: number }[]>(
          `with written as (
             insert into product_state as st (shop_id, product_id, available, version, source_digest, data_version)
             select $1, s.id, s.available, $2, s.digest, $2 from ${seen} s where not s.fresh
             on conflict (shop_id, product_id) do update
                set available = excluded.available, source_digest = excluded.source_digest,
                    version = case when st.available is distinct from excluded.available then excluded.version else st.version end,
                    data_version = case when ${rowChanged} then excluded.data_version else st.data_version end
              where st.available is distinct from excluded.available or st.source_digest is distinct from excluded.source_digest
                 or (excluded.source_digest is null and ${rowChanged})
             returning st.version)
           select count(*) filter (where version = $2)::int as flipped from written`,
          [shopId, version],
        );
  if (states.flipped > 0 || changed > 0) outcome.changed = true;
  phases.mark('states');
  // CONTRACT §3: a load marks every product it does not list out of stock. A rejected item is
  // listed too (skipped, not applied): its product, if stored, keeps its availability.
  const { rejectedIds } = sorted;
  if (mode === 'load') {
    const disabled = await tx`
      update product_state st set available = false, version = ${version}
       where st.shop_id = ${shopId} and st.available
         and not exists (select 1 from staging_seen s where s.id = st.product_id)
         and not (st.product_id = any(${rejectedIds}::text[]))`;
    if (disabled.count > 0) outcome.changed = true;
  }
  // The states written, for when this commits: the last occurrence of an id is the one stored. A
  // load that kept rejected items' products as they were makes the states forgotten (rare).
  const written = sorted.seen;
  outcome.states = {
    ...told,
    changes:
      mode === 'load' && rejectedIds.length > 0
        ? null
        : (states) => {
            // A load lists every accepted item in `written`: the others are now out of stock.
            if (mode === 'load') states.setNoneAvailable();
            for (const [, id, available, , digest] of written) states.set(id as string, digest as string | null, available as boolean);
          },
  };
  return outcome;
}

/**
 * PATCH (the listed products are in stock, every other one is not) and DELETE (the listed ones
 * are not in stock), as set-based updates. Unknown ids are warnings.
 */
export async function applyAvailability(
  tx: TransactionSql,
  shopId: string,
  mode: 'patch' | 'delete',
  listed: ListedIds | unknown[],
  phases = new Phases(),
  aids: Pick<StoreAids, 'known'> = {},
): Promise<ImportOutcome> {
  const outcome = new ImportOutcome();
  const entries = Array.isArray(listed) ? listedIds(listed) : listed;
  outcome.itemsTotal = entries.count;
  // The ids of rejected entries that name one: listed, so a PATCH leaves their products as they are.
  const rejectedIds: string[] = [];
  const ids = entries.read((problem) => {
    outcome.reject(problem);
    const rejectedId = rejectedIdOf(problem);
    if (rejectedId !== undefined) rejectedIds.push(rejectedId);
  });
  outcome.applied = ids.distinct;
  phases.mark('check ids');
  const version = await bumpCatalogVersion(tx, shopId);
  outcome.version = version;
  // No key: the ids are distinct already, and building one took ~0.5 s for a whole catalog.
  await tx.unsafe(`create temp table staging_ids (id text) on commit drop`);
  await copyTextBytes(tx, 'staging_ids', ['id'], ids.copy);
  // Without its size known, the planner hashed the shop's whole table for a DELETE of 10,000 ids
  // (0.7 s at 1,000,000 products, against 0.2 s hashing the ids).
  await tx.unsafe('analyze staging_ids');
  phases.mark('copy ids');

  // One pass over the shop's products: each listed id beside the product with it (a full join for
  // PATCH, which also reaches the unlisted ones), giving the ids no product has and the products
  // whose availability flips. Those are updated by their row address in the same statement.
  // What each product should become: listed → `listedBecome`, named by a rejected entry → as it
  // is, unlisted → `unlisted` (null: as it is).
  const listedBecome = mode === 'patch';
  const unlisted = mode === 'patch' ? false : null;
  // The products a DELETE flipped are asked for when this process knows the shop's states. A
  // PATCH makes them forgotten instead: it flips every product it does not list, and returning
  // those ids (100,000 of a whole catalog's PATCH) took ~0.4 s more.
  const known = mode === 'delete' && aids.known?.version === version - 1 ? aids.known : undefined;
  const [result] = await tx<{ unknown: string[] | null; flipped: number; flips: string[] | null }[]>`
    with joined as (
      select s.id as listed_id, st.tid, st.available, st.product_id
        from staging_ids s
        ${mode === 'patch' ? tx`full join` : tx`left join`} (select ctid as tid, product_id, available from product_state where shop_id = ${shopId}) st
          on st.product_id = s.id
    ), found as (
      select array_agg(tid) filter (where (case when listed_id is not null then ${listedBecome}::boolean
                                                 when product_id = any(${rejectedIds}::text[]) then null
                                                 else ${unlisted}::boolean end) <> available) as flips,
             array_agg(listed_id) filter (where tid is null) as unknown
        from joined
    ), flipped as (
      update product_state set available = not available, version = ${version}
       where ctid = any((select flips from found)::tid[]) and shop_id = ${shopId}
      returning ${known ? tx`product_id` : tx`1`}
    )
    select (select unknown from found) as unknown, (select count(*)::int from flipped) as flipped,
           ${known ? tx`(select array_agg(product_id) from flipped)` : tx`null::text[]`} as flips`;
  // In id order (sorting inside the aggregate sorted every row of the join, not only these).
  for (const id of (result.unknown ?? []).sort()) outcome.warn({ item_id: id, message: `product ${id} is not stored; nothing to ${mode === 'patch' ? 'mark in stock' : 'mark not in stock'}` });
  outcome.changed = result.flipped > 0;
  const flips = result.flips ?? [];
  outcome.states = {
    before: known,
    changes: known
      ? (states) =>
          flips.forEach((id) => {
            const entry = states.find(id);
            if (entry >= 0) states.setAvailable(entry, !states.available(entry));
          })
      : null,
  };
  phases.mark('availability');
  return outcome;
}
