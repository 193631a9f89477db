// node --import tsx bin/bench/measure-build.ts --data-dir DIR [--runs N] [--shop ID] [--rebuild]
// Builds the listing index of the largest shop in DIR (or of shop ID) (a database kept by `npm run
// bench:listing -- --data-dir DIR`) N times (default 3) in one process and prints each build's time,
// where it went and the longest the event loop (every query of a server) waited meanwhile. With
// --rebuild: one full build, then N times one product changed through the import path and the
// index rebuilt from the previous one. Add `--cpu-prof --cpu-prof-dir=D` before `--import` for a
// profile. Prefix GLIBC_TUNABLES=glibc.malloc.hugetlb=1 to build as `npm start`'s server does.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { applyProducts } from '@/lib/catalog/apply-products';
import { buildIndex, rebuildIndex, type ShopIndex } from '@/lib/listing/indexing';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION, largestShop } from './kept-database';

const USAGE = 'bin/bench/measure-build.ts --data-dir DIR [--runs N] [--shop ID] [--rebuild]';
const args = readArgs(USAGE, { ...DATA_DIR_OPTION, runs: { type: 'string', default: '3' }, shop: { type: 'string' }, rebuild: { type: 'boolean', default: false } });
const runs = numberArg(args.runs, 'runs');
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const sql = runtime.ctx.sql;
const wanted = args.shop;
const shop = await largestShop(sql, wanted);
console.log(`shop ${shop.id}: ${shop.count} products; GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ?? '(unset)'}`);

async function measured(label: string, build: () => Promise<ShopIndex | null>): Promise<ShopIndex> {
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  const before = process.resourceUsage();
  const index = await build();
  const after = process.resourceUsage();
  stalls.disable();
  if (!index) throw new Error('a full build was needed');
  const longest = (stalls.max / 1e6).toFixed(0);
  console.log(`${label} ${(index.buildMs / 1000).toFixed(2)} s (${index.buildSteps}), ${index.valueKey.length} facet values, ${index.postings.length} postings, longest event-loop stall ${longest} ms`);
  const cpu = (field: 'userCPUTime' | 'systemCPUTime') => ((after[field] - before[field]) / 1e6).toFixed(2);
  console.log(`  this process: user ${cpu('userCPUTime')} s, system ${cpu('systemCPUTime')} s, ${after.minorPageFault - before.minorPageFault} page faults`);
  return index;
}

if (args.rebuild) {
  let index = await measured('build', () => buildIndex(sql, shop.id));
  const [product] = await sql<{ data: Record<string, unknown> }[]>`select data::jsonb as data from products where shop_id = ${shop.id} order by id limit 1`;
  for (let run = 0; run < runs; run++) {
    await sql.begin((tx) => applyProducts(tx, shop.id, 'put', [{ ...product.data, price: 100 + run }]));
    const previous = index;
    index = await measured('rebuild', () => rebuildIndex(sql, previous));
  }
} else {
  for (let run = 0; run < runs; run++) await measured('build', () => buildIndex(sql, shop.id));
}
await runtime.shutdown();
