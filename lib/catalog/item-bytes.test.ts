import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogShape, SHAPE_NAMES } from '@/lib/bench/catalog-shapes';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from '@/lib/bench/synthetic-catalog';
import { facetTokenList } from '@/lib/catalog/facet-tokens';
import { generatedItem } from '@/lib/testing/item-arbitraries';
import { BinaryRows } from './copy-rows';
import { TokenNumbers } from './facet-dictionary';
import { checkItem } from './item-rules';
import { readItem } from './item-bytes';
import { PreparedBatch } from './prepared-batch';
import { FIELD_COLUMNS, validateAndPrepare, writeFields } from './prepared-items';

const leaves = leafCategories(syntheticCategories());
const locations = syntheticLocations();

/** The item's text inside a body (not at its start), as an import's items are read. */
function bodyOf(text: string): { body: Buffer; start: number; end: number } {
  const body = Buffer.from(`{"items":[${text}]}`);
  return { body, start: 10, end: body.length - 2 };
}

const DATA = FIELD_COLUMNS.indexOf('data');

/**
 * Fields written in COPY's binary format, each as hex (null for NULL), `data` as the JSON value
 * its text holds: the reader keeps the text as sent, with what the checks respell edited in and
 * tabs and line breaks between tokens left out, where parsing writes JSON.stringify's spelling.
 */
function decodedFields(written: Buffer) {
  const fields: unknown[] = [];
  for (let at = 0; at < written.length; ) {
    const length = written.readInt32BE(at);
    at += 4;
    if (length < 0) fields.push(null);
    else {
      const bytes = written.subarray(at, at + length);
      fields.push(fields.length === DATA ? JSON.parse(bytes.toString()) : bytes.toString('hex'));
      at += length;
    }
  }
  return fields;
}

/** What parsing and checking the text gives (the path the reader stands in for). */
function parsed(text: string) {
  const raw = JSON.parse(text) as unknown;
  const valid = validateAndPrepare(raw, 0, () => text);
  if (!valid.ok) return { problem: valid.problem };
  const fields = new BinaryRows(64);
  writeFields(fields, valid.prepared.fields);
  return {
    id: valid.item.id,
    available: valid.prepared.available,
    categories: valid.item.categories,
    offerLocations: (valid.item.locations ?? []).map((offer) => offer.location),
    fields: decodedFields(fields.take()),
    tokens: facetTokenList(valid.prepared.facets),
  };
}

/** What the reader gives for the text, or undefined when it declines it. */
function read(text: string) {
  const { body, start, end } = bodyOf(text);
  const rows = new BinaryRows(64);
  const tokens = new TokenNumbers();
  const texts: string[] = [];
  tokens.onAdded = (token) => texts.push(token);
  const item = readItem(body, start, end, rows, tokens);
  if (item === undefined) {
    expect(rows.length, 'a declined item wrote fields').toBe(0);
    expect(texts, 'a declined item numbered tokens').toEqual([]);
    return undefined;
  }
  const { facets, ...rest } = item;
  return { ...rest, fields: decodedFields(rows.take()), tokens: facets?.map((number) => texts[number]) ?? null };
}

/** JSON.parse reads these the same as the value; the reader declines some of them. */
type Spelling = { spaces: boolean; numbers: boolean; slashes: boolean; tabs: boolean };

function spelled(value: unknown, spelling: Spelling): string {
  if (spelling.tabs) return JSON.stringify(value, null, '\t');
  const write = (v: unknown): string => {
    if (typeof v === 'number') {
      if (!spelling.numbers || !Number.isFinite(v)) return JSON.stringify(v);
      return Number.isInteger(v) && Math.abs(v) < 1e15 ? `${v}.0` : v.toExponential();
    }
    if (typeof v === 'string') return spelling.slashes ? JSON.stringify(v).replaceAll('/', '\\/') : JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(write).join(spelling.spaces ? ', ' : ',')}]`;
    if (v && typeof v === 'object') {
      const members = Object.entries(v).filter(([, member]) => member !== undefined);
      return `{${members.map(([key, member]) => `${JSON.stringify(key)}${spelling.spaces ? ' : ' : ':'}${write(member)}`).join(spelling.spaces ? ' , ' : ',')}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return write(value);
}

// Characters past ASCII, some of which trim() removes (no-break space, line separator).
const WIDE = ['é', '€', '😀', '\u00a0', '\u2028', 'Ж'];

/** The value with some of its strings given characters past ASCII, chosen by `seed`. */
function widened(value: unknown, seed: number): unknown {
  let n = seed;
  const next = () => (n = (Math.imul(n, 1103515245) + 12345) >>> 0);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const pick = next() % 8;
      if (pick >= WIDE.length) return v;
      return next() % 2 === 0 ? WIDE[pick] + v : v + WIDE[pick];
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([key, member]) => [key, walk(member)]));
    return v;
  };
  return walk(value);
}

/** The value with its strings' quotes and backslashes made apostrophes (escapes are declined). */
function unquoted(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/["\\]/g, "'");
  if (Array.isArray(value)) return value.map(unquoted);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, unquoted(member)]));
  return value;
}

describe('readItem', () => {
  it('reads every item of every benchmark shape from its bytes, as parsing and checking it gives', () => {
    for (const name of SHAPE_NAMES) {
      const shape = catalogShape(name);
      for (let n = 0; n < 600; n++) {
        const text = shape.stringify(shape.item(n));
        const got = read(text);
        expect(got, `${name} item ${n} was declined`).toBeDefined();
        expect(got, `${name} item ${n}`).toEqual(parsed(text));
      }
    }
  });

  it('reads what the checks respell, storing their spelling: numbers for ids and codes, stock counts, one merchant, colour names, sections, tabs and line breaks', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'] };
    const stored = (text: string) => read(text)?.fields[DATA];
    for (const [sent, as] of [
      [{ ...base, id: 7 }, { ...base, id: '7' }],
      [{ ...base, id: 1e21 }, undefined],
      [{ ...base, categories: [3, '4', 5.5] }, { ...base, categories: ['3', '4', '5.5'] }],
      [{ ...base, group_id: 12, vendor_code: 5, barcode: 4006381000003 }, { ...base, group_id: '12', vendor_code: '5', barcode: '4006381000003' }],
      [{ ...base, available: 3 }, { ...base, available: true }],
      [{ ...base, available: 0 }, { ...base, available: false }],
      [{ ...base, merchant: 'm' }, { ...base, merchant: ['m'] }],
      [{ ...base, locations: [{ location: 's', merchant: 'm', delivery_types: { store: 2 } }] }, { ...base, locations: [{ location: 's', merchant: ['m'], delivery_types: { store: 2 } }] }],
      [{ ...base, fashion: { colors: ['red', { color: 'blue' }] } }, { ...base, fashion: { colors: [{ color: 'red' }, { color: 'blue' }] } }],
      [{ ...base, params: [{ name: 'x', value: 'y' }, { name: 'z', value: 4 }] }, { ...base, params: [{ name: 'x', value: ['y'] }, { name: 'z', value: [4] }] }],
      [{ ...base, book: { year: 1999, isbn: '978-3' } }, { ...base, book: { year: 1999, isbn: ['978-3'] } }],
      [{ ...base, cosmetic: { skin: { type: [1, 'dry'] } }, auto: { compatibility: [{ brand: 'VW' }] } }, { ...base, cosmetic: { skin: { type: ['1', 'dry'] } }, auto: { compatibility: [{ brand: 'VW' }] } }],
    ] as const) {
      const text = JSON.stringify(sent);
      expect(stored(text), text).toEqual(as);
      if (as) expect(read(text)).toEqual(parsed(text));
    }
    for (const text of [JSON.stringify({ ...base, params: [{ name: 'x', value: ['y'] }], fashion: { sizes: [42] } }, null, '\t'), JSON.stringify({ ...base, id: 9, name: 'a\tb' }, null, 2).replaceAll('\n', '\r\n')]) {
      expect(read(text), text).toEqual(parsed(text));
      expect(read(text)!.fields[DATA]).toEqual(JSON.parse(text.replace('"id": 9', '"id": "9"')));
    }
  });

  it('gives what parsing gives for generated items in several spellings, or declines them', () => {
    let taken = 0;
    let declined = 0;
    const rarely = fc.constantFrom(false, false, false, true);
    const spelling = fc.record({ spaces: fc.boolean(), numbers: fc.boolean(), slashes: rarely, tabs: rarely });
    fc.assert(
      fc.property(generatedItem, fc.constantFrom(true, true, true, false), spelling, fc.option(fc.nat(), { freq: 2 }), fc.subarray(['book', 'fashion', 'date', 'creation_date']), (input, accepted, how, seed, dropped) => {
        // Most generated items are changed by the checks (a number made a string…), which the
        // reader declines: most are sent as the checks give them, and some without sections
        // zod checks and dates that are not ISO.
        const kept = Object.fromEntries(Object.entries(input).filter(([key]) => !dropped.includes(key)));
        const checked = accepted ? checkItem(JSON.parse(JSON.stringify(unquoted(kept))))?.item : undefined;
        // Params with an empty name are dropped from what is stored: such an item is not stored as sent.
        const sent = checked ? { ...checked, params: checked.params?.filter((param) => param.name !== '') } : kept;
        const text = spelled(seed === null ? sent : widened(sent, seed), how);
        const got = read(text);
        if (got === undefined) return void declined++;
        taken++;
        expect(got).toEqual(parsed(text));
      }),
      { numRuns: 20_000 },
    );
    // Both ways must be reached often enough for the comparison to mean something (about 800
    // of the 20,000 are taken: most generated items break a rule on purpose).
    expect(taken).toBeGreaterThan(300);
    expect(declined).toBeGreaterThan(2000);
  }, 120_000);

  it('reads strings with escapes as JSON.parse does, and stores the text as sent', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'] };
    const texts = [
      JSON.stringify({ ...base, name: 'say "hi"', url: 'https://s.example/a?b=c\\d', brand: 'A\u00e9', params: [{ name: 'Size "EU"', value: ['4\\2', 'x'] }] }),
      JSON.stringify({ ...base, url: 'https://s.example/p/1', picture: 'https://s.example/1.jpg', categories: ['c/1'], locations: [{ location: 's/1', price: 2 }] }).replaceAll('/', '\\/'),
      '{"id":"\\u0061b","name":"caf\\u00e9 \\ud83d\\ude00","url":"u","picture":"p","price":1,"categories":["\\u0031"],"description":"line\\nbreak\\ttab"}',
      JSON.stringify({ ...base, model: 'M\\1', merchant: ['m"1', 'm2'], group_id: 'g\\', creation_date: '2026-06-21' }),
    ];
    for (const text of texts) {
      const got = read(text);
      expect(got, text).toBeDefined();
      expect(got).toEqual(parsed(text));
    }
    // A name that is not trimmed once its escapes are undone, an escaped key, a NUL, text jsonb refuses: left to parsing.
    for (const other of [
      '{"id":"a","name":"\\u0020n","url":"u","picture":"p","price":1,"categories":["1"]}',
      '{"id":"a","n\\u0061me":"n","url":"u","picture":"p","price":1,"categories":["1"]}',
      '{"id":"a","name":"n\\u0000","url":"u","picture":"p","price":1,"categories":["1"]}',
      '{"id":"a","name":"n\\ud800","url":"u","picture":"p","price":1,"categories":["1"]}',
      '{"id":"a","name":"n","url":"u","picture":"p","price":1,"categories":["1"],"note":"\\\\u0000"}',
    ]) {
      expect(read(other), other).toBeUndefined();
    }
  });

  it('declines what it must leave to JSON.parse: repeated keys, trimmed text, blank param names, sections the checks refuse, bytes that are not UTF-8', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'] };
    const text = JSON.stringify(base);
    expect(read(text)).toEqual(parsed(text));
    for (const other of [
      text.replace('}', ',"price":2}'),
      text.replace('}', ',"params":[{"name":"x","value":["y"],"value":["z"]}]}'),
      JSON.stringify({ ...base, name: ' n' }),
      JSON.stringify({ ...base, params: [{ name: '', value: ['y'] }] }),
      JSON.stringify({ ...base, book: { year: 1700 } }),
      JSON.stringify({ ...base, child: { age: { min: '3' } } }),
      JSON.stringify({ ...base, locations: [{ location: 's', delivery_types: { store: 1.5 } }] }),
      JSON.stringify({ ...base, name: undefined }),
      text.replace('}', ',"__proto__":{}}'),
    ]) {
      expect(read(other), other).toBeUndefined();
    }
    // A byte that is not UTF-8 inside a string: JSON.parse reads U+FFFD, which the batch then stores.
    const { body, start, end } = bodyOf(JSON.stringify({ ...base, name: 'n\u00ff' }));
    const broken = Buffer.from(body);
    broken[broken.indexOf(0xc3)] = 0xff;
    expect(readItem(broken, start, end, new BinaryRows(64), new TokenNumbers())).toBeUndefined();
    const batch = new PreparedBatch();
    const entry = batch.prepareSent(0, broken, start, end);
    expect(entry.ok && decodedFields(batch.fields(entry))).toEqual(parsed(broken.toString('utf8', start, end)).fields);
  });

  // A param is read once and found by its bytes after that: its escapes must count for the
  // item the second time too. (An unpaired surrogate passed, and was stored where jsonb refuses it.)
  it('reads an item whose param was met before as it reads it the first time', () => {
    const base = { name: 'n', url: 'https://s.example/a', picture: 'https://s.example/a.jpg', price: 10, categories: ['1'] };
    // Values as they are spelled in the JSON text, and whether the reader leaves the item to the parsing path.
    const cases: [string, boolean][] = [
      ['\\ud800', true],
      ['\\u0000', true],
      ['line\\nbreak', false],
      ['caf\\u00e9', false],
    ];
    for (const [value, declined] of cases) {
      const text = (id: string) => JSON.stringify({ id, ...base }).replace(/}$/, `,"params":[{"name":"p","value":["${value}"]}]}`);
      expect(read(text('a')) === undefined, value).toBe(declined);
      const again = read(text('b'));
      if (declined) expect(again, value).toBeUndefined();
      else expect(again, value).toEqual(parsed(text('b')));
    }
  });

  // The params read are kept up to a bound, and the cache is emptied between items once full:
  // the third item fills it part way through.
  it('reads params past the number it keeps, within an item and in the items after', () => {
    const base = { name: 'n', url: 'https://s.example/a', picture: 'https://s.example/a.jpg', price: 10, categories: ['1'] };
    const paramsFrom = (from: number, count: number) => Array.from({ length: count }, (_, n) => ({ name: `many_${from + n}`, value: [`v${from + n}`, from + n] }));
    for (let k = 0; k < 3; k++) {
      const text = JSON.stringify({ id: `m${k}`, ...base, params: paramsFrom(7000 * k, 7000) });
      expect(read(text), `item ${k}`).toEqual(parsed(text));
    }
    const again = JSON.stringify({ id: 'm3', ...base, params: [...paramsFrom(0, 5), ...paramsFrom(20990, 20), ...paramsFrom(30000, 5), ...paramsFrom(0, 2)] });
    expect(read(again)).toEqual(parsed(again));
  });

  it('keeps the last offer of a location listed twice, in the place of the first, with many offers too', () => {
    for (const count of [3, 40]) {
      const offers = Array.from({ length: count }, (_, n) => ({ location: `l${n % (count - 1)}`, price: n + 1, stock_quantity: n }));
      const text = JSON.stringify({ id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, oldprice: 5, categories: ['1'], locations: offers });
      const got = read(text);
      expect(got).toEqual(parsed(text));
      expect(got!.offerLocations).toHaveLength(count);
    }
  });
});

describe('a NUL in an id an item names (PostgreSQL text holds none)', () => {
  it('is refused alike by every reader: the byte reader and the plain checks leave it to zod, whose reason names the field', () => {
    const base = { id: 'a', name: 'n', url: 'u', picture: 'p', price: 1, categories: ['1'], locations: [{ location: 's', price: 2 }] };
    for (const [item, message] of [
      [{ ...base, id: 'a\0b' }, 'id must not contain NUL characters'],
      [{ ...base, id: '\0' }, 'id must not contain NUL characters'],
      [{ ...base, categories: ['1', '2\0'] }, 'categories must not contain NUL characters'],
      [{ ...base, locations: [{ location: 's\0', price: 2 }] }, 'locations[0].location must not contain NUL characters'],
    ] as const) {
      const text = JSON.stringify(item);
      expect(read(text), text).toBeUndefined();
      expect(checkItem(JSON.parse(text)), text).toBeUndefined();
      expect(parsed(text), text).toEqual({ problem: { item_id: item.id, position: 0, message } });
      const sent = new PreparedBatch(64);
      const { body, start, end } = bodyOf(text);
      expect(sent.prepareSent(0, body, start, end), text).toMatchObject({ ok: false, problem: { item_id: item.id, position: 0, message } });
    }
  });
});

describe('PreparedBatch.prepareSent', () => {
  it('holds what prepare holds, for items read from bytes and items it declines alike', () => {
    const texts = [
      JSON.stringify(syntheticItem(1, leaves, locations)),
      JSON.stringify({ id: 7, name: 'n', url: 'u', picture: 'p', price: 1, categories: [2] }),
      JSON.stringify({ id: 'bad', price: 'x' }),
      JSON.stringify(syntheticItem(2, leaves, locations)),
    ];
    const body = Buffer.from(`[${texts.join(',')}]`);
    const sent = new PreparedBatch(64);
    const made = new PreparedBatch(64);
    let from = 1;
    texts.forEach((text, position) => {
      const to = from + Buffer.byteLength(text);
      sent.prepareSent(position, body, from, to);
      made.prepare(position, JSON.parse(text), () => text);
      from = to + 1;
    });
    const entries = (batch: PreparedBatch) =>
      texts.map((_, position) => {
        const entry = batch.entry(position)!;
        return entry.ok ? { ...entry, fields: batch.fields(entry).toString('hex'), facets: entry.facets?.map((number) => batch.token(number)) } : entry;
      });
    expect(entries(sent)).toEqual(entries(made));
    expect(entries(sent)[2]).toHaveProperty('problem');
  });
});
