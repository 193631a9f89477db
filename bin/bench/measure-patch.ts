// IMPORT_TIMINGS=1 node --import tsx bin/bench/measure-patch.ts --data-dir DIR [--runs N] [--listed 0.9] [--delete]
// Applies a PATCH (with --delete: a DELETE) listing a share (default 90 %) of the largest shop's products in DIR (a database
// kept by `npm run bench:listing -- --data-dir DIR`) N times (default 3), each in a transaction
// that is rolled back, so the database is left as it was. Prints each run's time; with
// IMPORT_TIMINGS=1, its steps. The ids are listed in a shuffled order, as a shop's feed would, in
// a request body applied as the server applies it (without the HTTP and the intake around it).
import { applyAvailability } from '@/lib/catalog/apply-products';
import { bodyIds } from '@/lib/catalog/listed-ids';
import { scanJson } from '@/lib/http/json-scan';
import { Phases } from '@/lib/runtime/phases';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION } from './kept-database';

const USAGE = 'bin/bench/measure-patch.ts --data-dir DIR [--runs N] [--listed SHARE] [--delete]';
const args = readArgs(USAGE, { ...DATA_DIR_OPTION, runs: { type: 'string', default: '3' }, listed: { type: 'string', default: '0.9' }, delete: { type: 'boolean', default: false } });
const runs = numberArg(args.runs, 'runs');
const share = numberArg(args.listed, 'listed');
const mode = args.delete ? 'delete' : 'patch';
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const sql = runtime.ctx.sql;
const [shop] = await sql<{ id: string; count: number }[]>`
  select shop_id as id, count(*)::int as count from product_state group by shop_id order by 2 desc limit 1`;
const ids = (await sql<{ id: string }[]>`select product_id as id from product_state where shop_id = ${shop.id}`).map((row) => row.id);
// A deterministic shuffle (xorshift), then the listed share.
let seed = 0x9e3779b9;
for (let i = ids.length - 1; i > 0; i--) {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  const j = (seed >>> 0) % (i + 1);
  [ids[i], ids[j]] = [ids[j], ids[i]];
}
const listed = ids.slice(0, Math.round(ids.length * share));
console.log(`shop ${shop.id}: ${shop.count} products, ${mode.toUpperCase()} listing ${listed.length}`);
// As the server has it: the body's bytes, scanned (timed apart: intake scans before it stores).
const body = Buffer.from(JSON.stringify({ shop_id: shop.id, items: listed }));
const scanStarted = performance.now();
const items = scanJson(body)!.get('items')!;
console.log(`body ${(body.length / 1048576).toFixed(1)} MiB, scanned in ${(performance.now() - scanStarted).toFixed(0)} ms`);

class Rollback extends Error {}
for (let run = 1; run <= runs; run++) {
  const phases = new Phases();
  const started = performance.now();
  let line = '';
  await sql
    .begin(async (tx) => {
      const outcome = await applyAvailability(tx, shop.id, mode, bodyIds(body, items.elements!), phases);
      line = `run ${run}: ${(performance.now() - started).toFixed(0)} ms, ${outcome.warnings.length} warnings, changed ${outcome.changed}`;
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  console.log(line);
  phases.report(`run ${run}`);
}
await runtime.shutdown();
