// node --import tsx bin/bench/measure-builder.ts --data-dir DIR [--runs N] [--digest]
// The index builder's own time, without PostgreSQL: reads the largest shop's rows in DIR (a
// database kept by `npm run bench:listing -- --data-dir DIR`) once, as a full build reads them,
// keeps the COPY messages in memory, then builds the index from them N times (default 3) and prints
// where each build's time went. With --digest: a digest of every field of the index instead, to
// check that a change to the builder leaves the index the same, byte for byte.
import { createHash } from 'node:crypto';
import { BinaryCopyReader, IndexBuilder, loadTree, PRODUCT_FIELD_COUNT, productsCopy, type ShopIndex } from '@/lib/listing/indexing';
import { numberArg, readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION, largestShop } from './kept-database';

const USAGE = 'bin/bench/measure-builder.ts --data-dir DIR [--runs N] [--digest]';
const args = readArgs(USAGE, { ...DATA_DIR_OPTION, runs: { type: 'string', default: '3' }, digest: { type: 'boolean', default: false } });
const runs = numberArg(args.runs, 'runs');
const runtime = await bootKeptDatabase(args['data-dir'], USAGE);
const sql = runtime.ctx.sql;
const shop = await largestShop(sql);
const tree = await loadTree(sql, shop.id);
const dictionary = (await sql<{ token: string }[]>`select token from facet_tokens where shop_id = ${shop.id} order by number`).map((row) => row.token);
const out = await sql<{ id: string }[]>`select product_id as id from product_state where shop_id = ${shop.id} and not available`;
/** The COPY's messages as postgres.js hands them over. */
async function messages(statement: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  const stream = await sql.unsafe(statement).readable();
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    stream.once('error', reject);
    stream.once('end', resolve);
  });
  return chunks;
}
const productRows = await messages(productsCopy(shop.id, true, null));
await runtime.shutdown();
console.log(`shop ${shop.id}: ${shop.count} products, ${out.length} out of stock, ${productRows.length} COPY messages kept`);

async function build(): Promise<{ index: ShopIndex; steps: string }> {
  const started = performance.now();
  const builder = new IndexBuilder(shop.id, tree.categoryRows, tree.locationRows, dictionary);
  builder.otherwise(out.map((row) => row.id), false);
  const reader = new BinaryCopyReader(PRODUCT_FIELD_COUNT, (row) => builder.add(row));
  for (const chunk of productRows) reader.push(chunk);
  reader.finish();
  const productsRead = performance.now();
  const index = await builder.finish(0, '');
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const now = performance.now();
  return { index, steps: `${seconds(now - started)} (products ${seconds(productsRead - started)}, then ${seconds(now - productsRead)}: ${index.buildSteps})` };
}

if (args.digest) {
  const { index } = await build();
  const bytes = (array: ArrayBufferView) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const plain = (value: unknown): unknown => JSON.stringify(value, (_, v) => (v instanceof Map ? [...v] : ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v));
  for (const [key, value] of Object.entries(index)) {
    if (key === 'buildMs' || key === 'buildSteps' || key === 'cache') continue;
    const hash = createHash('sha256');
    if (ArrayBuffer.isView(value)) hash.update(bytes(value));
    else if (key === 'replay' && index.replay) {
      hash.update(bytes(index.replay.tokenOffsets)).update(bytes(index.replay.tokenNumbers));
      hash.update(String(plain([...index.replay.groups.entries()]))).update(String(index.replay.groupCount));
    } else hash.update(String(plain(value)));
    console.log(`${key.padEnd(22)} ${hash.digest('hex').slice(0, 16)}`);
  }
} else {
  for (let run = 0; run < runs; run++) console.log(`build ${(await build()).steps}`);
}
