// node --expose-gc --import tsx bin/bench/measure-queries.ts --data-dir DIR [--runs N] [--shapes 'top category,location'] [--profile FILE] [--parallel-from N] [--scan-offers-from S]
// Builds the listing index of the largest shop in DIR (a database kept by `npm run bench:listing --
// --data-dir DIR`) once, then times the benchmark's query shapes cold (what queries keep dropped
// before each run), and with --profile writes a CPU profile of those cold runs only (open it in
// Chrome's DevTools or speedscope). --parallel-from N: count sets of N documents or more on two
// threads (default the engine's; a huge N counts on one thread). --scan-offers-from S: find location
// offers by a pass over every offer when the locations hold at least that share of them (0: always,
// 2: never; default the engine's).
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import { LISTING_SHAPES, shapeQuery } from '@/lib/bench/listing-shapes';
import { forgetKept, runListing } from '@/lib/listing/engine';
import { indexFor, searchIndexFor } from '@/lib/listing/index-store';
import { searchDocuments } from '@/lib/listing/search';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION, largestShop } from './kept-database';

const USAGE = 'bin/bench/measure-queries.ts --data-dir DIR [--runs N] [--shapes a,b] [--profile FILE] [--parallel-from N] [--scan-offers-from S]';
const args = readArgs(USAGE, {
  ...DATA_DIR_OPTION,
  runs: { type: 'string', default: '40' },
  shapes: { type: 'string' },
  profile: { type: 'string' },
  'parallel-from': { type: 'string' },
  'scan-offers-from': { type: 'string' },
});
const runs = numberArg(args.runs, 'runs');
const wantedShapes = args.shapes?.split(',');
const profileFile = args.profile;
const parallelFrom = numberArg(args['parallel-from'], 'parallel-from', 'optional');
const scanOffersFrom = numberArg(args['scan-offers-from'], 'scan-offers-from', 'optional');
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const sql = runtime.ctx.sql;
const shop = await largestShop(sql);
const index = await indexFor(sql, shop.id);
console.log(`shop ${shop.id}: ${index.n} products, index built in ${(index.buildMs / 1000).toFixed(2)} s (${index.buildSteps})`);
const words = await searchIndexFor(index);
const shapes = LISTING_SHAPES.filter(([name]) => !wantedShapes || wantedShapes.includes(name));
const session = new inspector.Session();
if (profileFile) {
  session.connect();
  await session.post('Profiler.enable');
}
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
for (const [name, shape] of shapes) {
  const query = shapeQuery(shop.id, shape);
  const run = () => runListing(index, query, query.searchQuery ? searchDocuments(index, words, query.searchQuery, query.searchScope) : null, { parallelFrom, scanOffersFrom });
  const total = run().total;
  global.gc?.();
  if (profileFile) await session.post('Profiler.start');
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    forgetKept(index);
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  if (profileFile) {
    const { profile } = await session.post('Profiler.stop');
    const file = shapes.length === 1 ? profileFile : profileFile.replace(/(\.cpuprofile)?$/, `-${name.replaceAll(' ', '-')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(20)} ${String(total).padStart(8)}  cold p50 / p95 / p99 ${[50, 95, 99].map((p) => percentile(times, p).toFixed(2)).join(' / ')} ms`);
}
await runtime.shutdown();
