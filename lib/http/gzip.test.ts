import zlib from 'node:zlib';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { acceptsGzip, gzipOffThread } from './gzip';

it('gives one gzip member that decodes to the body, for zlib and for the web decoder', async () => {
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 20_000 }), async (bytes) => {
      expect(zlib.gunzipSync(await gzipOffThread(bytes)).equals(Buffer.from(bytes))).toBe(true); // checks CRC-32 and length
    }),
    { numRuns: 200 },
  );
  const answer = Buffer.from(JSON.stringify({ categories: Array.from({ length: 5000 }, (_, i) => ({ id: `c${i}`, count: i })) }));
  const member = await gzipOffThread(answer);
  const decoded = await new Response(new Blob([new Uint8Array(member)]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  expect(JSON.parse(decoded).categories).toHaveLength(5000);
  expect(member.length).toBeLessThan(answer.length / 4);
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
