// node --expose-gc --import tsx bin/bench/measure-options.ts --data-dir DIR [--runs N] [--shapes 'discount,top category'] [--variants JSON]
// Engine options side by side in one process: builds the listing index of the largest shop in DIR
// (a database kept by `npm run bench:listing -- --data-dir DIR`) once, then runs each shape cold
// (what queries keep dropped before each run) under each variant in turn, query by query. One
// process and one index for all: no difference of memory layout or of this machine's spell
// between the variants (runs of separate processes of the same code differ by up to 2–3× here).
// --variants: [[name, runListing options], …]; by default groups counted by their param
// dimensions against value by value, on two threads.
import { LISTING_SHAPES, shapeQuery } from '@/lib/bench/listing-shapes';
import { forgetKept, runListing } from '@/lib/listing/engine';
import { indexFor } from '@/lib/listing/index-store';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION, largestShop } from './kept-database';

const USAGE = 'bin/bench/measure-options.ts --data-dir DIR [--runs N] [--shapes a,b] [--variants JSON]';
const args = readArgs(USAGE, {
  ...DATA_DIR_OPTION,
  runs: { type: 'string', default: '100' },
  shapes: { type: 'string', default: 'discount,top category,price range' },
  variants: { type: 'string', default: '[["by dimensions",{"paramDims":true}],["by value",{"paramDims":false}]]' },
});
const runs = numberArg(args.runs, 'runs');
const wanted = args.shapes.split(',');
const variants = JSON.parse(args.variants) as [string, Parameters<typeof runListing>[3]][];
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const shop = await largestShop(runtime.ctx.sql);
const index = await indexFor(runtime.ctx.sql, shop.id);
console.log(`shop ${shop.id}: ${index.n} products; ${runs} cold runs of each variant, alternating`);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
for (const name of wanted) {
  const shape = LISTING_SHAPES.find(([shapeName]) => shapeName === name);
  if (!shape) throw new Error(`no shape "${name}" (${LISTING_SHAPES.map(([n]) => n).join(', ')})`);
  if (shape[1].includes('search_query')) throw new Error('search shapes need the word index: use bin/bench/measure-queries.ts');
  const query = shapeQuery(shop.id, shape[1]);
  const times = variants.map(() => [] as number[]);
  for (const [, options] of variants) runListing(index, query, null, options); // warm
  global.gc?.();
  for (let i = 0; i < runs; i++) {
    variants.forEach(([, options], v) => {
      forgetKept(index);
      const started = performance.now();
      runListing(index, query, null, options);
      times[v].push(performance.now() - started);
    });
  }
  const figures = variants.map(([variant], v) => {
    const sorted = times[v].sort((a, b) => a - b);
    return `${variant} ${[50, 95, 99].map((p) => percentile(sorted, p).toFixed(2)).join(' / ')}`;
  });
  console.log(`${name.padEnd(18)} cold p50 / p95 / p99 ms: ${figures.join('  |  ')}`);
}
await runtime.shutdown();
