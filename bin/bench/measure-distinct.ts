// node --expose-gc --import tsx bin/bench/measure-distinct.ts --data-dir DIR [--shape NAME] [--queries N]
// Times the benchmark's distinct storefront queries (lib/bench/storefront-queries.ts, the ones
// `bench:listing` sends over HTTP) one by one in process on the largest shop of DIR (a database
// kept by `npm run bench:listing -- --data-dir DIR`): the engine alone, cold (what queries keep
// dropped before each), and the whole answer (listProducts: engine, cards, facet blocks, JSON).
// Prints the means by what a query asks for and by result size, and the slowest queries: where
// real traffic's cost is, rather than one named shape's.
import { catalogShape, isShapeName, SHAPE_NAMES } from '@/lib/bench/catalog-shapes';
import { storefrontQueries } from '@/lib/bench/storefront-queries';
import { forgetKept, runListing } from '@/lib/listing/engine';
import { indexFor, searchIndexFor } from '@/lib/listing/index-store';
import { listProducts } from '@/lib/listing/listing';
import { paramsFromSearch, parseListingQuery } from '@/lib/listing/query';
import { searchDocuments } from '@/lib/listing/search';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION, largestShop } from './kept-database';

const USAGE = 'bin/bench/measure-distinct.ts --data-dir DIR [--shape NAME (retail)] [--queries N (1500)]';
const args = readArgs(USAGE, { ...DATA_DIR_OPTION, shape: { type: 'string', default: 'retail' }, queries: { type: 'string', default: '1500' } });
if (!isShapeName(args.shape)) {
  console.error(`--shape is one of ${SHAPE_NAMES.join(', ')}\nusage: ${USAGE}`);
  process.exit(2);
}
const shapeName = args.shape;
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const shop = await largestShop(runtime.ctx.sql);
const index = await indexFor(runtime.ctx.sql, shop.id);
const words = await searchIndexFor(index);
console.log(`shop ${shop.id}: ${index.n} products`);
const queries = storefrontQueries(catalogShape(shapeName), numberArg(args.queries, 'queries'), 3);
const paramsOf = (query: string) => paramsFromSearch(new URLSearchParams(`shop_id=${shop.id}&did=bench&sid=bench&extended=true&${query}`));
// Warm: the kept orders every index makes once, and the code.
for (const query of queries.slice(0, 50)) await listProducts(runtime.ctx, { params: paramsOf(query), origin: 'http://bench' });

type Row = { query: string; total: number; engine: number; whole: number };
const rows: Row[] = [];
for (const query of queries) {
  const params = paramsOf(query);
  const parsed = parseListingQuery(params);
  forgetKept(index);
  let started = performance.now();
  const result = runListing(index, parsed, parsed.searchQuery ? searchDocuments(index, words, parsed.searchQuery, parsed.searchScope) : null);
  const engine = performance.now() - started;
  forgetKept(index);
  started = performance.now();
  await listProducts(runtime.ctx, { params, origin: 'http://bench' });
  rows.push({ query, total: result.total, engine, whole: performance.now() - started });
}

const mean = (of: Row[], pick: (row: Row) => number) => (of.length ? of.reduce((sum, row) => sum + pick(row), 0) / of.length : NaN);
const engineTime = rows.reduce((sum, row) => sum + row.engine, 0);
const line = (label: string, of: Row[]) =>
  console.log(`${label.padEnd(26)} ${String(of.length).padStart(5)}  engine ${mean(of, (row) => row.engine).toFixed(2).padStart(6)} ms  whole ${mean(of, (row) => row.whole).toFixed(2).padStart(6)} ms  ${((100 * of.reduce((sum, row) => sum + row.engine, 0)) / engineTime).toFixed(0).padStart(3)} % of the engine's time`);
line('every query', rows);
for (const part of ['categories=', 'brands=', 'filters=', 'price_min', 'locations=', 'search_query', 'sort_by=', 'page=']) line(`with ${part.replace('=', '')}`, rows.filter((row) => row.query.includes(part)));
const sizes = [0, 100, 1_000, 10_000, 50_000, 200_000, Infinity];
for (let i = 0; i + 1 < sizes.length; i++) line(`${sizes[i]}–${sizes[i + 1]} products`, rows.filter((row) => row.total >= sizes[i] && row.total < sizes[i + 1]));
console.log('slowest (engine ms, whole ms, products, query):');
for (const row of [...rows].sort((a, b) => b.engine - a.engine).slice(0, 12)) console.log(`  ${row.engine.toFixed(1).padStart(6)} ${row.whole.toFixed(1).padStart(6)} ${String(row.total).padStart(8)}  ${decodeURIComponent(row.query)}`);
await runtime.shutdown();
