import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressBody, decompressBody } from './body-codec';

// A body of `bytes` bytes that compresses about as an import body does (repetitive, not uniform).
function body(bytes: number): Buffer {
  const text = Array.from({ length: Math.ceil(bytes / 20) }, (_, n) => `{"id":"p${n}","price":${(n * 7919) % 1000}},`).join('');
  return Buffer.from(text.slice(0, bytes));
}

describe('import body codec', () => {
  it('stores a small body as one Brotli stream after its length', async () => {
    const raw = body(100_000);
    const { body: stored, encoding } = await compressBody(raw);
    expect(encoding).toBe('br-parts');
    expect(stored.readUInt32BE(0)).toBe(stored.length - 4);
    expect(stored.length).toBeLessThan(raw.length / 4);
    expect((await decompressBody(stored, encoding)).equals(raw)).toBe(true);
  });

  it('compresses a large body in two parts and gives back the same bytes', async () => {
    const raw = body(5_000_001);
    const { body: stored, encoding } = await compressBody(raw);
    const first = stored.readUInt32BE(0);
    const second = stored.readUInt32BE(4 + first);
    expect(4 + first + 4 + second).toBe(stored.length);
    const parts = [stored.subarray(4, 4 + first), stored.subarray(8 + first)].map((part) => zlib.brotliDecompressSync(part));
    expect(parts.map((part) => part.length)).toEqual([2_500_001, 2_500_000]);
    expect((await decompressBody(stored, encoding)).equals(raw)).toBe(true);
  });

  it('reads bodies stored by earlier versions (one Brotli or gzip stream)', async () => {
    const raw = body(300_000);
    expect((await decompressBody(zlib.brotliCompressSync(raw), 'br')).equals(raw)).toBe(true);
    expect((await decompressBody(await promisify(zlib.gzip)(raw), 'gzip')).equals(raw)).toBe(true);
  });

  it('refuses a stored body that is cut short', async () => {
    const { body: stored } = await compressBody(body(100_000));
    await expect(decompressBody(stored.subarray(0, stored.length - 1), 'br-parts')).rejects.toThrow('stored import body is cut short at byte 0');
  });
});
