// node --import tsx bin/bench/measure-apply.ts --data-dir DIR [--runs R] [--only new|unchanged|changed]
// What applying an import of 5,000 products costs the applier's own process: CPU per item
// (checking the body, parsing, validating, making COPY text, the driver's work), beside the
// wall time. DIR: a database kept by `npm run bench:listing -- --data-dir DIR`; its largest shop
// takes the imports, each in a transaction that is rolled back, so the catalog is left as it was.
// - new: 5,000 products the shop does not have (a first load's import);
// - unchanged: 5,000 of its products sent again as they were just stored (a re-send's import);
// - changed: the same 5,000 sent again with another price each (every stored row rewritten);
// - scan: checking a body of 5,000 new products and making their digests (scanJson, bodyItems),
//   which both kinds need first and which the two above leave out.
// Beside them, the CPU of the PostgreSQL backend that ran the import (its schedstat; the WAL
// writer's and other background processes' are not counted). Prints the median of R runs (default 9).
// `--only` runs one kind, for a profile of it (`node --cpu-prof …`).
import fs from 'node:fs';
import type { TransactionSql } from 'postgres';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { storeProducts } from '@/lib/imports/pipeline';
import { bodyItems, SUMMARY_KEYS } from '@/lib/catalog/sent-items';
import { scanJson } from '@/lib/http/json-scan';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION, largestShop } from './kept-database';

const USAGE = 'bin/bench/measure-apply.ts --data-dir DIR [--runs R] [--only new|unchanged|changed]';
const args = readArgs(USAGE, { ...DATA_DIR_OPTION, runs: { type: 'string', default: '9' }, only: { type: 'string' } });
const runs = numberArg(args.runs, 'runs');
const only = args.only;
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const sql = runtime.ctx.sql;
const shop = await largestShop(sql);
console.log(`shop ${shop.id} holds ${shop.count} products`);
const leaves = leafCategories(syntheticCategories());
const locations = syntheticLocations();
const BATCH = 5000;

/** A PUT body of products from..from + 5,000, as the import benchmark sends it (`raise` added to each price). */
function body(from: number, raise = 0): Buffer {
  const items = Array.from({ length: BATCH }, (_, n) => {
    const item = syntheticItem(from + n, leaves, locations);
    return raise === 0 ? item : { ...item, price: item.price + raise };
  });
  return Buffer.from(JSON.stringify({ shop_id: shop.id, shop_secret: 'not checked here', items }));
}

function scanned(raw: Buffer) {
  const items = scanJson(raw, SUMMARY_KEYS)!.get('items')!;
  const sent = bodyItems(raw, items.elements!, items.elementMembers);
  // The applier makes them before the import (makeDigests): not counted as applying.
  for (let position = 0; position < sent.count; position++) sent.digest(position);
  return sent;
}

const ROLL_BACK = new Error('roll back');
async function rolledBack(work: (tx: TransactionSql) => Promise<void>) {
  await sql.begin(async (tx) => {
    await work(tx);
    throw ROLL_BACK;
  }).catch((error: unknown) => {
    if (error !== ROLL_BACK) throw error;
  });
}

type Figures = { cpu: number[]; wall: number[]; backend: number[] };
const figures = (): Figures => ({ cpu: [], wall: [], backend: [] });

/** The CPU time (ns) the backend with process id `pid` has used: the first field of its schedstat. */
function backendCpu(pid: number): number {
  return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
}
const results = { scan: figures(), new: figures(), unchanged: figures(), changed: figures() };

/** Runs `work`, adding its CPU (this process, and backend `pid` if given) and wall time per item to `into`. */
async function timed<T>(into: Figures, work: () => Promise<T> | T, pid?: number): Promise<T> {
  const backend = pid === undefined ? 0 : backendCpu(pid);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  into.cpu.push((used.user + used.system) / BATCH);
  into.wall.push((wall * 1000) / BATCH);
  if (pid !== undefined) into.backend.push((backendCpu(pid) - backend) / 1000 / BATCH);
  return result;
}

async function backendPid(tx: TransactionSql): Promise<number> {
  const [{ pid }] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
  return pid;
}

const existing = Math.max(0, Math.min(shop.count - BATCH, 50_000));
for (let run = 0; run < runs + 1; run++) {
  const keep = run > 0; // the first run warms up
  const fresh = body(20_000_000 + run * BATCH);
  const stored = body(existing);
  if (only === undefined || only === 'new') await rolledBack(async (tx) => {
    const items = await timed(keep ? results.scan : figures(), () => scanned(fresh));
    const outcome = await timed(keep ? results.new : figures(), () => storeProducts(tx, shop.id, 'put', items), await backendPid(tx));
    if (outcome.applied !== BATCH) throw new Error(`new: ${outcome.applied} applied`);
  });
  if (only === undefined || only === 'unchanged') await rolledBack(async (tx) => {
    // Stored from these bytes first (their digests), then sent again.
    await storeProducts(tx, shop.id, 'put', scanned(stored));
    const again = scanned(stored);
    const outcome = await timed(keep ? results.unchanged : figures(), () => storeProducts(tx, shop.id, 'put', again), await backendPid(tx));
    if (outcome.changed) throw new Error('unchanged: the re-send changed the catalog');
  });
  if (only === undefined || only === 'changed') await rolledBack(async (tx) => {
    // The stored products sent with other prices: every row rewritten. (One import a
    // transaction: its staging tables last until the commit.)
    const edited = scanned(body(existing, 1));
    const outcome = await timed(keep ? results.changed : figures(), () => storeProducts(tx, shop.id, 'put', edited), await backendPid(tx));
    if (!outcome.changed || outcome.applied !== BATCH) throw new Error(`changed: ${outcome.applied} applied, changed ${outcome.changed}`);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`per item, median of ${runs} imports of ${BATCH} (µs): CPU of this process, wall, CPU of the PostgreSQL backend`);
for (const [label, { cpu, wall, backend }] of Object.entries(results)) {
  if (cpu.length === 0) continue;
  const backendFigure = backend.length === 0 ? '' : median(backend).toFixed(1).padStart(7);
  console.log(`${label.padEnd(10)} ${median(cpu).toFixed(1).padStart(6)} ${median(wall).toFixed(1).padStart(7)} ${backendFigure}`);
}
await runtime.shutdown();
