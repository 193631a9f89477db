import fc from 'fast-check';

// How a hostile or sloppy client spoils a request: values of the wrong type, out of range or
// hostile text in place of good ones, members missing or added, bodies cut short, nested past
// reason, with duplicate keys or invalid UTF-8, sent under the wrong content type.

/** Values that do not belong where they are put. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0.5,
    1e308,
    -1e308,
    2 ** 53 + 2,
    -(2 ** 63),
    4.9e-324,
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\ufeff',
    '\u202e\u0301',
    'NaN',
    '1e999',
    '-0',
    '<script>alert(1)</script>',
    '{{ "x" | append: y }}{% for i in (1..1000000) %}',
    '%ZZ%00%',
    '../../etc/passwd',
    'http://169.254.169.254/latest',
    'javascript:alert(1)',
    [],
    {},
    [null],
    { '': '' },
    { __proto__: { polluted: 1 } },
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom('x'.repeat(300), 'y'.repeat(70_000), '💥'.repeat(2_000)),
  fc.array(fc.integer(), { maxLength: 200 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 5 }),
);

type Mutation = { kind: 'replace' | 'delete' | 'add' | 'wrap'; path: number[]; value: unknown; key: string };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('replace', 'replace', 'delete', 'add', 'wrap'),
  path: fc.array(fc.nat({ max: 50 }), { minLength: 0, maxLength: 5 }),
  value: hostileValue,
  key: fc.oneof(fc.constantFrom('extra', '__proto__', 'constructor', '', 'items', 'shop_id'), fc.string({ maxLength: 10 })),
});

/** Applies a mutation at the node the path leads to (each step an index into the node's children). */
function mutate(value: unknown, { kind, path, value: replacement, key }: Mutation): unknown {
  const copy = structuredClone(value);
  if (path.length === 0 || copy === null || typeof copy !== 'object') {
    if (kind === 'wrap') return [copy];
    if (kind === 'add' && copy !== null && typeof copy === 'object') return { ...copy, [key]: replacement };
    return kind === 'delete' ? undefined : replacement;
  }
  let node = copy as Record<string, unknown>;
  for (let i = 0; i < path.length; i++) {
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const child = keys[path[i] % keys.length];
    const last = i === path.length - 1 || node[child] === null || typeof node[child] !== 'object';
    if (!last) {
      node = node[child] as Record<string, unknown>;
      continue;
    }
    if (kind === 'delete') {
      if (Array.isArray(node)) node.splice(Number(child), 1);
      else delete node[child];
    } else if (kind === 'add') {
      if (Array.isArray(node)) node.push(replacement);
      else Object.defineProperty(node, key, { value: replacement, enumerable: true, writable: true, configurable: true });
    } else if (kind === 'wrap') {
      node[child] = [node[child]];
    } else {
      node[child] = replacement;
    }
    break;
  }
  return copy;
}

/** Values of `valid`, left alone a third of the time, otherwise spoiled by one to three mutations. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.array(mutation, { minLength: 0, maxLength: 3 })).map(([value, mutations]) => mutations.reduce(mutate, value));
}

type RawSpoil = 'none' | 'truncate' | 'duplicate-key' | 'deep-array' | 'deep-object' | 'invalid-utf8' | 'bom' | 'trailing' | 'empty' | 'whitespace' | 'huge-number' | 'raw-nul' | 'not-json';

const rawSpoil: fc.Arbitrary<{ how: RawSpoil; at: number; depth: number }> = fc.record({
  how: fc.oneof(
    { weight: 12, arbitrary: fc.constant<RawSpoil>('none') },
    { weight: 1, arbitrary: fc.constantFrom<RawSpoil>('truncate', 'duplicate-key', 'deep-array', 'deep-object', 'invalid-utf8', 'bom', 'trailing', 'empty', 'whitespace', 'huge-number', 'raw-nul', 'not-json') },
  ),
  at: fc.nat(),
  depth: fc.constantFrom(100, 1_000, 10_000, 100_000),
});

/** A JSON text's bytes, spoiled at the byte level now and then. */
export function bodyBytes(value: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  return fc.tuple(value, rawSpoil).map(([json, { how, at, depth }]) => {
    const text = JSON.stringify(json) ?? 'undefined';
    const cut = text.length === 0 ? 0 : at % text.length;
    switch (how) {
      case 'truncate':
        return Buffer.from(text.slice(0, cut));
      case 'duplicate-key':
        return Buffer.from(text.startsWith('{') ? `{"shop_id":"0","items":1,${text.slice(1)}` : text);
      case 'deep-array':
        return Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      case 'deep-object':
        return Buffer.from(text.startsWith('{') ? `{"items":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},${text.slice(1)}` : text);
      case 'invalid-utf8':
        return Buffer.concat([Buffer.from(text.slice(0, cut)), Buffer.from([0xc3, 0x28, 0xff, 0xed, 0xa0, 0x80]), Buffer.from(text.slice(cut))]);
      case 'bom':
        return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
      case 'trailing':
        return Buffer.from(`${text} {}`);
      case 'empty':
        return Buffer.alloc(0);
      case 'whitespace':
        return Buffer.from(' \n\t ');
      case 'huge-number':
        return Buffer.from(text.startsWith('{') ? `{"import_id":1${'0'.repeat(5_000)},"price":1e999999,${text.slice(1)}` : `1${'0'.repeat(5_000)}`);
      case 'raw-nul':
        return Buffer.concat([Buffer.from(text.slice(0, cut)), Buffer.from([0]), Buffer.from(text.slice(cut))]);
      case 'not-json':
        // Through bytes: a cut through a surrogate pair is no string encodeURIComponent takes.
        return Buffer.from(`shop_id=1&items=${encodeURIComponent(Buffer.from(text.slice(0, 50)).toString())}`);
      default:
        return Buffer.from(text);
    }
  });
}

/** Content-Type headers, mostly right. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      '',
      ';;;',
    ),
  },
);

/** Extra headers a client may send, odd ones included. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.oneof(
      fc.constantFrom<[string, string]>(
        ['Accept-Version', '2'],
        ['Accept-Version', 'garbage'],
        ['Accept-Encoding', 'gzip'],
        ['Accept-Encoding', 'br;q=1, gzip;q=0'],
        ['Accept-Encoding', '*;q=0.5'],
        ['Accept-Encoding', 'gzip;q=nope'],
        ['Accept', 'image/webp'],
        ['Accept', '*/*;q=abc'],
        ['X-Request-Id', 'x'.repeat(500)],
        ['X-Request-Id', 'id with spaces'],
        ['Cookie', 'vitrine_session=%E0%A4%A; other=1'],
        ['Cookie', '__Host-vitrine_session=abc'],
        ['X-Forwarded-Proto', 'https'],
        ['X-Forwarded-For', '10.0.0.1, 10.0.0.2'],
        ['X-Vitrine-Client-Address', '1.2.3.4'],
        ['Origin', 'null'],
        ['Sec-Fetch-Site', 'cross-site'],
        ['Range', 'bytes=0-1'],
        ['If-None-Match', '*'],
        ['Expect', '100-continue'],
      ),
      fc.tuple(fc.constantFrom('X-Custom', 'Accept-Language', 'User-Agent'), fc.string({ unit: 'grapheme-ascii', maxLength: 40 })),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => Object.fromEntries(pairs.filter(([, value]) => /^[\t\x20-\x7e]*$/.test(value))));

/** A query string from named values, spoiled now and then: unknown, repeated or empty names, bad escapes, long values. */
export function queryString(params: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<string> {
  const extra = fc.constantFrom('', '&', '&&', '&=', '&a=%ZZ', '&%ZZ=1', '&a=%00', '&a=1&a=2', `&long=${'z'.repeat(6000)}`, '&filters=%7B%22a%22:', '&=%7B%22x%22%3A%5B%22y%22%5D%7D', '&x=%E0%A4%A', '&seance=1&stream=2', '&+=+');
  return fc.tuple(params, fc.array(extra, { maxLength: 2 })).map(([values, extras]) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) search.append(key, value);
    return `?${search.toString()}${extras.join('')}`;
  });
}
