import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotliCompress = promisify(zlib.brotliCompress);
const brotliDecompress = promisify(zlib.brotliDecompress);
const gunzip = promisify(zlib.gunzip);

// zlib's calls on the thread pool end each time they fill an output buffer of `chunkSize` bytes
// (16 KB unless told), and the next is started from this thread: a part of 3 MB took ~200 such
// round trips, each waiting for this thread to be free. Output buffers as large as the part come
// out in one or two. Decompressing a 6.5 MB body: 9 ms against 32 ms in 16 KB buffers, 30
// against 51 ms with this thread busy for 25 ms meanwhile.
const MAX_CHUNK = 8 << 20;
const outputChunk = (bytes: number) => Math.min(MAX_CHUNK, Math.max(zlib.constants.Z_DEFAULT_CHUNK, bytes));

// Brotli's fastest setting: half the time of gzip level 1 on an import body (11 against 20 ms for
// 6.5 MB), about as small (6.4 against 6.5 times).
// Its output buffer a quarter of the part: that holds it (~6.4 times smaller) in one piece, where
// one the part's size allocated ~5 MB an import body that was never used.
const compressPart = (bytes: Buffer) =>
  brotliCompress(bytes, {
    chunkSize: outputChunk(bytes.length >> 2),
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
// A stored part comes out ~6.4 times larger.
const decompressPart = (part: Buffer) => brotliDecompress(part, { chunkSize: outputChunk(part.length * 8) });

/** How a stored import body is encoded (`import_bodies.encoding`). */
export type BodyEncoding = 'gzip' | 'br' | 'br-parts';

// A body is compressed in parts of at least this many bytes, each on a thread of the pool.
const PART_BYTES = 1 << 20;
const PARTS = 2;

/**
 * An import body compressed for storage as `br-parts`: up to two Brotli streams compressed at
 * once on the thread pool, each after its length (4 bytes, big-endian).
 */
export async function compressBody(bytes: Buffer): Promise<{ body: Buffer; encoding: BodyEncoding }> {
  const parts = bytes.length < 2 * PART_BYTES ? 1 : PARTS;
  const size = Math.ceil(bytes.length / parts);
  const compressed = await Promise.all(Array.from({ length: parts }, (_, p) => compressPart(bytes.subarray(p * size, (p + 1) * size))));
  const body = Buffer.allocUnsafe(compressed.reduce((sum, part) => sum + 4 + part.length, 0));
  let at = 0;
  for (const part of compressed) {
    at = body.writeUInt32BE(part.length, at);
    at += part.copy(body, at);
  }
  return { body, encoding: 'br-parts' };
}

/** The bytes of an import body stored in `encoding`. */
export async function decompressBody(body: Buffer, encoding: BodyEncoding): Promise<Buffer> {
  if (encoding === 'gzip') return gunzip(body);
  if (encoding === 'br') return decompressPart(body);
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const length = body.readUInt32BE(at);
    if (at + 4 + length > body.length) throw new Error(`stored import body is cut short at byte ${at}`);
    parts.push(body.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return Buffer.concat(await Promise.all(parts.map(decompressPart)));
}
