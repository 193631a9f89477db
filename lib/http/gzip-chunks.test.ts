import zlib from 'node:zlib';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { acceptsGzip, gzipChunks, keepCompressed } from './gzip-chunks';

const gunzip = (parts: Uint8Array[]) => zlib.gunzipSync(Buffer.concat(parts)); // checks CRC-32 and length

it('joins parts compressed one by one into one gzip member that decodes to the parts joined', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.uint8Array({ maxLength: 3000 }), fc.boolean()), { maxLength: 8 }), (drawn) => {
      const parts = drawn.map(([bytes, kept]) => (kept ? keepCompressed(Buffer.from(bytes)) : Buffer.from(bytes)));
      expect(gunzip(gzipChunks(parts)).equals(Buffer.concat(parts))).toBe(true);
    }),
    { numRuns: 300 },
  );
});

it('reuses a kept part (also twice in one answer) and decodes large text the web decoder reads too', async () => {
  const block = keepCompressed(Buffer.from(JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ id: `c${i}`, count: i })))));
  const head = Buffer.from('{"products":[],"categories":');
  const answer = [head, block, Buffer.from(',"again":'), block, Buffer.from('}')];
  const first = gzipChunks(answer);
  const second = gzipChunks(answer);
  const third = gzipChunks(answer);
  // Made fast the first time, again at the higher level once sent again, then kept as it is.
  expect(first[4]).not.toBe(first[2]);
  expect(second[2]).toBe(first[4]);
  expect(third[2]).toBe(second[2]);
  expect(gunzip(second).equals(Buffer.concat(answer))).toBe(true);
  const expected = Buffer.concat(answer);
  expect(gunzip(first).equals(expected)).toBe(true);
  const decoded = await new Response(new Blob([Buffer.concat(first)]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  expect(JSON.parse(decoded).again).toHaveLength(5000);
  expect(Buffer.concat(first).length).toBeLessThan(expected.length / 4);
});

it('reads Accept-Encoding with its weights', () => {
  expect(acceptsGzip(null)).toBe(false);
  expect(acceptsGzip('')).toBe(false);
  expect(acceptsGzip('gzip')).toBe(true);
  expect(acceptsGzip('gzip, deflate, br')).toBe(true);
  expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
  expect(acceptsGzip('gzip;q=0')).toBe(false);
  expect(acceptsGzip('gzip;q=0.0, *')).toBe(false);
  expect(acceptsGzip('*')).toBe(true);
  expect(acceptsGzip('*;q=0')).toBe(false);
  expect(acceptsGzip('br, deflate')).toBe(false);
  expect(acceptsGzip('identity')).toBe(false);
});
