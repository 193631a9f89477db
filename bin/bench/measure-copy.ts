// node --import tsx bin/bench/measure-copy.ts --data-dir DIR
// What PostgreSQL spends copying 5,000 product rows into a catalog that already holds a
// shop's products (DIR: a database kept by `npm run bench:listing -- --data-dir DIR`, whose shop
// "Bench 1000000" holds 1,000,000). Each variant runs three times in one transaction that is
// rolled back (each run in a savepoint of its own), so the catalog is left as it was. The rows
// (COPY's binary format, as imports write them) are made before each timed run. A third of the
// items have 3-8 location offers (`products.offers`); the last variant leaves them out.
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { BinaryRows, copyBinary } from '@/lib/catalog/copy-rows';
import { memoryFacetEncoder } from '@/lib/catalog/facet-dictionary';
import { prepareItem, PRODUCT_COLUMNS, productValues, writeProductFields } from '@/lib/catalog/prepared-items';
import { ItemInput } from '@/lib/catalog/product-schema';
import { readArgs } from './args';
import { bootKeptDatabase, DATA_DIR_OPTION } from './kept-database';

const USAGE = 'bin/bench/measure-copy.ts --data-dir DIR';
const runtime = await bootKeptDatabase(readArgs(USAGE, DATA_DIR_OPTION)['data-dir'], USAGE);
const sql = runtime.ctx.sql;
const [shop] = await sql<{ id: string; count: number }[]>`
  select s.id, (select count(*)::int from products p where p.shop_id = s.id) as count from shops s order by 2 desc limit 1`;
console.log(`shop ${shop.id} holds ${shop.count} products`);
const leaves = leafCategories(syntheticCategories());
const facets = memoryFacetEncoder(); // numbers as an import would store them, without a shop
const locations = syntheticLocations();
const columns = ['shop_id', ...PRODUCT_COLUMNS, 'version'];
let next = 10_000_000;

type Data = 'as sent' | 'empty object' | 'one string';
/** Three COPYs of 5,000 new rows after `setup`, in one transaction rolled back (each in a savepoint). */
async function variant(label: string, setup: string, data: Data = 'as sent', offers = true) {
  const times: number[] = [];
  await sql
    .begin(async (tx) => {
      if (setup) await tx.unsafe(setup);
      for (let run = 0; run < 3; run++) {
        const rows = new BinaryRows();
        for (let n = 0; n < 5000; n++) {
          const prepared = prepareItem(ItemInput.parse(syntheticItem(next + n, leaves, locations)));
          const row = productValues(prepared, facets);
          const json = (row[16] as { json: unknown }).json;
          if (data === 'empty object') row[16] = { json: {} };
          if (data === 'one string') row[16] = { json: { text: JSON.stringify(json) } };
          if (!offers) row[PRODUCT_COLUMNS.indexOf('offers')] = null;
          rows.row(columns.length);
          rows.field('text', shop.id);
          writeProductFields(rows, row);
          rows.field('int8', 1);
        }
        const chunk = rows.take();
        next += 5000;
        await tx
          .savepoint(async (sp) => {
            const started = performance.now();
            await copyBinary(sp, 'products', columns, [chunk]);
            times.push(performance.now() - started);
            throw new Error('roll back');
          })
          .catch((error: Error) => {
            if (error.message !== 'roll back') throw error;
          });
      }
      throw new Error('roll back');
    })
    .catch((error: Error) => {
      if (error.message !== 'roll back') throw error;
    });
  console.log(`${label.padEnd(64)} ${times.map((t) => t.toFixed(0).padStart(5)).join(' ')} ms per 5,000 rows`);
}

await variant('products as they are (data text, toast_tuple_target 8160)', '');
await variant('data: an empty object', '', 'empty object');
await variant('data: the same JSON as one string value', '', 'one string');
await variant('toast_tuple_target as default (data compressed past ~2 KB rows)', 'alter table products reset (toast_tuple_target)');
// (Migration 0012's jsonb column is not measured since the rows went binary: jsonb's binary form
// differs from text's. Its figures, from the text format, are in docs/benchmarks-history.md, session 18.)
await variant('wal_compression = pglz', 'set local wal_compression = pglz');
await variant('products as they are (again)', '');
await variant('products without their offers', '', 'as sent', false);
await runtime.shutdown();
