import path from 'node:path';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';
const runtime = await boot({ maintenance: false, settings: { ...readSettings(), dataDir: path.resolve('/work/bench-data/listing'), databaseUrl: undefined } });
const sql = runtime.ctx.sql;
await sql.begin('isolation level repeatable read read only', async (tx) => {
  const stream = await tx.unsafe(`copy (select id from products limit 100000) to stdout (format binary)`).readable();
  let bytes = 0, chunks = 0;
  console.log('got stream');
  for await (const chunk of stream) { bytes += chunk.length; chunks++; const t = performance.now(); while (performance.now() - t < 3); }
  console.log('done', bytes, chunks);
});
await runtime.shutdown();
