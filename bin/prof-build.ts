// node --cpu-prof --import tsx prof-build.ts --data-dir DIR
import path from 'node:path';
import { buildIndex } from '@/lib/listing/build-index';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';

const dirIndex = process.argv.indexOf('--data-dir');
const runtime = await boot({ maintenance: false, settings: { ...readSettings(), dataDir: path.resolve(process.argv[dirIndex + 1]), databaseUrl: undefined } });
const sql = runtime.ctx.sql;
const [shop] = await sql<{ id: string; count: number }[]>`
  select s.id, (select count(*)::int from products p where p.shop_id = s.id) as count from shops s order by 2 desc limit 1`;
console.log(`shop ${shop.id} holds ${shop.count} products`);
for (let run = 0; run < Number(process.env.RUNS ?? 2); run++) {
  const started = performance.now();
  const index = await buildIndex(sql, shop.id);
  console.log(`build ${(performance.now() - started).toFixed(0)} ms, n=${index.n}, values=${index.valueKey.length}, postings=${index.postings.length}`);
}
await runtime.shutdown();
