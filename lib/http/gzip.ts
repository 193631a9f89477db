import { promisify } from 'node:util';
import zlib from 'node:zlib';

// Gzip for large JSON answers (a listing's, ~30–400 KB), made on libuv's thread pool rather than
// the serving thread, in one piece. Under 16 connections of storefront reads (retail, 20,000
// products) the serving thread was the bottleneck while the machine's other core stood a third
// idle, and compressing took 12 % of that thread. In one piece because each zlib stream costs its
// set-up: 60 KB deflated as 8 parts took the serving thread 0.19 ms, as one 0.06 ms, and handed
// to the thread pool 0.015 ms (docs/benchmarks.md, session 41).
// Level 1: ~4 % larger than level 6 for a third of its work, on the core that PostgreSQL and
// the imports share.

const gzip = promisify(zlib.gzip);
const LEVEL = 1;

/**
 * The body as one gzip member, compressed off the serving thread. Its output buffer holds the whole
 * member (JSON shrinks to a fifth or less): with zlib's default 16 KB, each further 16 KB came back
 * to the serving thread for another round (100 KB of JSON: 0.073 ms of that thread, 0.035 with
 * one round).
 */
export function gzipOffThread(body: Uint8Array): Promise<Buffer> {
  return gzip(body, { level: LEVEL, chunkSize: Math.max(zlib.constants.Z_DEFAULT_CHUNK, body.byteLength >> 1) });
}

/**
 * Whether an Accept-Encoding header takes gzip: named with a q above 0, or not named and `*` is
 * (RFC 9110 §12.5.3). Without the header any coding would do, but the plain body is the one every
 * client reads.
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [coding, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(coding, q ? Number(q.slice(2)) : 1);
  }
  const q = weights.get('gzip') ?? weights.get('x-gzip') ?? weights.get('*') ?? 0;
  return q > 0;
}
