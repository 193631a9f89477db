// node --import tsx bin/measure-prepare.ts [--items 100000] [--rounds 4] [--escaped]
// What the preparing thread's loop costs an item (prepare-worker.ts): the synthetic catalog's
// items in bodies of 5,000, each body prepared into a PreparedBatch and its parts made, two ways
// alternating: parsed (JSON.parse, the checks, prepareItem, writeFields) and read from the bytes
// (item-bytes.ts, as imports do). `--escaped` sends every slash as `\/` (PHP's json_encode).
import { parseArgs } from 'node:util';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { PreparedBatch } from '@/lib/catalog/prepared-batch';

const { values: options } = parseArgs({ options: { items: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '4' }, escaped: { type: 'boolean', default: false } } });
const ITEMS_PER_BODY = 5000;
const bodyCount = Math.max(1, Math.round(Number(options.items) / ITEMS_PER_BODY));
const leaves = leafCategories(syntheticCategories());
const locations = syntheticLocations();

const bodies = Array.from({ length: bodyCount }, (_, k) => {
  const texts = Array.from({ length: ITEMS_PER_BODY }, (_, n) => {
    const text = JSON.stringify(syntheticItem(k * ITEMS_PER_BODY + n, leaves, locations));
    return options.escaped ? text.replaceAll('/', '\\/') : text;
  });
  const spans = new Int32Array(2 * ITEMS_PER_BODY);
  let at = 1;
  texts.forEach((text, i) => {
    spans[2 * i] = at;
    spans[2 * i + 1] = at += Buffer.byteLength(text);
    at++;
  });
  return { body: Buffer.from(`[${texts.join(',')}]`), spans };
});

/** µs an item to prepare every body one way. */
function run(read: boolean): number {
  const started = process.hrtime.bigint();
  for (const { body, spans } of bodies) {
    const batch = new PreparedBatch(body.length);
    for (let position = 0; position < ITEMS_PER_BODY; position++) {
      const [start, end] = [spans[2 * position], spans[2 * position + 1]];
      if (read) batch.prepareSent(position, body, start, end);
      else {
        const text = body.toString('utf8', start, end);
        batch.prepare(position, JSON.parse(text), () => text);
      }
    }
    batch.parts();
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / (bodyCount * ITEMS_PER_BODY);
}

console.log(`${bodyCount * ITEMS_PER_BODY} items${options.escaped ? ', slashes escaped' : ''}; µs an item`);
for (let round = 1; round <= Number(options.rounds); round++) console.log(`round ${round}: parsed ${run(false).toFixed(2)}, read from bytes ${run(true).toFixed(2)}`);
