// node --import tsx bin/bench/measure-prepare.ts [--shape retail] [--items 100000] [--rounds 4] [--escaped]
// What the preparing thread's loop costs an item (lib/imports/pipeline/prepare-worker.ts): a catalog shape's items
// (lib/bench/catalog-shapes.ts) in bodies of 5,000, each body prepared into a PreparedBatch and
// its parts made, two ways alternating: parsed (JSON.parse, the checks, prepareItem, writeFields)
// and from the bytes as imports do. `--escaped` sends every slash as `\/` (PHP's json_encode).
import { catalogShape, isShapeName } from '@/lib/bench/catalog-shapes';
import { readItem } from '@/lib/catalog/item-bytes';
import { PreparedBatch } from '@/lib/catalog/prepared-batch';
import { BinaryRows } from '@/lib/catalog/copy-rows';
import { TokenNumbers } from '@/lib/catalog/facet-dictionary';
import { readArgs } from './args';

const options = readArgs('bin/bench/measure-prepare.ts [--shape retail] [--items 100000] [--rounds 4] [--escaped]', {
  shape: { type: 'string', default: 'synthetic' },
  items: { type: 'string', default: '100000' },
  rounds: { type: 'string', default: '4' },
  escaped: { type: 'boolean', default: false },
});
if (!isShapeName(options.shape)) throw new Error(`unknown shape ${options.shape}`);
const shape = catalogShape(options.shape);
const ITEMS_PER_BODY = 5000;
const bodyCount = Math.max(1, Math.round(Number(options.items) / ITEMS_PER_BODY));

const bodies = Array.from({ length: bodyCount }, (_, k) => {
  const texts = Array.from({ length: ITEMS_PER_BODY }, (_, n) => {
    const text = shape.stringify(shape.item(k * ITEMS_PER_BODY + n));
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

// How many items the byte reader declines (the rest of the run times both paths as imports take them).
let declined = 0;
const encoder = new TokenNumbers();
for (const { body, spans } of bodies.slice(0, 1)) {
  for (let position = 0; position < ITEMS_PER_BODY; position++) {
    if (readItem(body, spans[2 * position], spans[2 * position + 1], new BinaryRows(), encoder) === undefined) declined++;
  }
}

/** CPU µs an item to prepare every body one way (CPU time: what else runs on the machine stretches wall time). */
function run(read: boolean): number {
  const started = process.cpuUsage();
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
  const used = process.cpuUsage(started);
  return (used.user + used.system) / (bodyCount * ITEMS_PER_BODY);
}

const bytes = bodies.reduce((sum, { body }) => sum + body.length, 0);
console.log(`${shape.name}: ${bodyCount * ITEMS_PER_BODY} items of ${Math.round(bytes / (bodyCount * ITEMS_PER_BODY))} bytes${options.escaped ? ', slashes escaped' : ''}; the byte reader declines ${declined} of the first ${ITEMS_PER_BODY}; CPU µs an item`);
for (let round = 1; round <= Number(options.rounds); round++) console.log(`round ${round}: parsed ${run(false).toFixed(2)}, read from bytes ${run(true).toFixed(2)}`);
