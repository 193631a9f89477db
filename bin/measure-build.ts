// node --import tsx bin/measure-build.ts --data-dir DIR [--runs N] [--shop ID]
// Builds the listing index of the largest shop in DIR (or of shop ID) (a database kept by `npm run bench:listing
// -- --data-dir DIR`) N times (default 3) in one process and prints each build's time and where
// it went. Add `--cpu-prof --cpu-prof-dir=D` before `--import` for a profile.
import path from 'node:path';
import { buildIndex } from '@/lib/listing/build-index';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const dataDir = option('--data-dir');
if (!dataDir) throw new Error('usage: bin/measure-build.ts --data-dir DIR [--runs N]');
const runs = Number(option('--runs') ?? 3);
const runtime = await boot({ maintenance: false, settings: { ...readSettings(), dataDir: path.resolve(dataDir), databaseUrl: undefined } });
const sql = runtime.ctx.sql;
const wanted = option('--shop');
const [shop] = await sql<{ id: string; count: number }[]>`
  select shop_id as id, count(*)::int as count from products where ${wanted ?? null}::text is null or shop_id = ${wanted ?? null}
   group by shop_id order by 2 desc limit 1`;
console.log(`shop ${shop.id}: ${shop.count} products`);
for (let run = 0; run < runs; run++) {
  const index = await buildIndex(sql, shop.id);
  console.log(`build ${(index.buildMs / 1000).toFixed(2)} s (${index.buildSteps}), ${index.valueKey.length} facet values, ${index.postings.length} postings`);
}
await runtime.shutdown();
