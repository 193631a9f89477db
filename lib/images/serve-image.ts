import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { log } from '@/lib/runtime/log';
import { AppError } from '@/lib/http/errors';
import { OutboundRefused, requestOutbound, type OutboundPolicy } from '@/lib/http/outbound';
import type { AppContext } from '@/lib/runtime/context';
import { IMAGE_SIZES, imageSigningKey, readImageKey, type ImageSize } from './image-urls';

const MAX_ORIGINAL_BYTES = 20 * 1024 * 1024;
const MAX_REDIRECTS = 3;

// `maxAgeSeconds`: how long the answer may be kept, at most until the link expires.
export type ServedImage = { body: Buffer; contentType: string; maxAgeSeconds: number };

/** What was wrong with an original; answered as 502 with this message. */
class BadOriginal extends Error {}

const badOriginal = (message: string) => new AppError('BAD_GATEWAY', message);

// One fetch per original at a time, however many sizes and clients ask for it at once.
const inFlight = new Map<string, Promise<Buffer>>();

// An original that failed (refused, missing, slow, not an image) answers the same 502 for a minute
// without being fetched or decoded again: a storefront page asks for it in many sizes at once.
const FAILURE_KEPT_MS = 60_000;
const failures = new Map<string, { message: string; until: number }>();

function rememberFailure(url: string, message: string): void {
  failures.delete(url);
  failures.set(url, { message, until: Date.now() + FAILURE_KEPT_MS });
  if (failures.size > 10_000) failures.delete(failures.keys().next().value!);
}

function knownFailure(url: string): string | undefined {
  const known = failures.get(url);
  if (known && known.until > Date.now()) return known.message;
  if (known) failures.delete(url);
  return undefined;
}

// Resizing decodes up to 50 megapixels: two at a time, so a page of new pictures (or a client
// asking for many) queues here instead of taking both cores and the memory from every shop.
const RESIZES_AT_ONCE = 2;
let resizing = 0;
const waitingToResize: (() => void)[] = [];

export async function withResizeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (resizing >= RESIZES_AT_ONCE) await new Promise<void>((resolve) => waitingToResize.push(resolve));
  else resizing++;
  try {
    return await work();
  } finally {
    const next = waitingToResize.shift();
    if (next) next();
    else resizing--;
  }
}

async function fetchOriginal(url: string, policy: OutboundPolicy): Promise<Buffer> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let response;
    try {
      // Each hop is checked again: a redirect to a private address is refused like a direct link.
      response = await requestOutbound(current, policy, { method: 'GET', headers: { Accept: 'image/*' }, maxBytes: MAX_ORIGINAL_BYTES });
    } catch (error) {
      const reason = error instanceof OutboundRefused ? `refused: ${error.message}` : error instanceof Error ? error.message : String(error);
      throw new BadOriginal(`The original image could not be fetched (${reason})`);
    }
    if (response.status >= 300 && response.status < 400 && response.headers.location) {
      current = new URL(response.headers.location, current).toString();
      continue;
    }
    if (response.status !== 200) throw new BadOriginal(`The original image answered HTTP ${response.status}`);
    return response.body;
  }
  throw new BadOriginal(`The original image redirects more than ${MAX_REDIRECTS} times`);
}

/**
 * Writes a cache file whole or not at all: written under a name of its own, then renamed, so a
 * request reading the file meanwhile finds no file rather than its first part (which it would
 * serve as a cut-off picture, or fail to decode). A cache that cannot be written is logged, and
 * the image served all the same.
 */
export async function keep(file: string, bytes: Buffer): Promise<void> {
  const partial = `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.partial`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(partial, bytes);
    await fs.rename(partial, file);
  } catch (error) {
    await fs.rm(partial, { force: true }).catch(() => undefined);
    log(`image cache not written: ${error instanceof Error ? error.message : String(error)}`, undefined, 'warn');
  }
}

async function originalBytes(ctx: AppContext, cacheDir: string, url: string): Promise<Buffer> {
  const file = path.join(cacheDir, 'originals', crypto.createHash('sha256').update(url).digest('hex'));
  const cached = await fs.readFile(file).catch(() => null);
  if (cached) return cached;
  let pending = inFlight.get(url);
  if (!pending) {
    pending = fetchOriginal(url, { ...ctx.settings.webhooks, timeoutMs: ctx.settings.images.timeoutMs }).then(async (bytes) => {
      await keep(file, bytes);
      return bytes;
    });
    inFlight.set(url, pending);
    pending.finally(() => inFlight.delete(url)).catch(() => {});
  }
  return pending;
}

/** Deletes the least recently written cache files until the cache is under 90 % of its cap. */
async function trimCache(cacheDir: string, capBytes: number): Promise<void> {
  const files: { file: string; size: number; mtime: number }[] = [];
  for (const sub of ['originals', 'resized']) {
    const dir = path.join(cacheDir, sub);
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const stat = await fs.stat(path.join(dir, name)).catch(() => null);
      if (stat) files.push({ file: path.join(dir, name), size: stat.size, mtime: stat.mtimeMs });
    }
  }
  let total = files.reduce((sum, f) => sum + f.size, 0);
  if (total <= capBytes) return;
  for (const f of files.sort((a, b) => a.mtime - b.mtime)) {
    if (total <= capBytes * 0.9) break;
    await fs.rm(f.file, { force: true });
    total -= f.size;
  }
}

let writesSinceTrim = 0;

const YEAR_SECONDS = 31_536_000;

// A link names its shop: a shop that was deleted has no images. Shops found are remembered a minute.
const SHOP_KEPT_MS = 60_000;
const shopsSeen = new Map<string, number>();

async function shopExists(ctx: AppContext, shopId: string): Promise<boolean> {
  if ((shopsSeen.get(shopId) ?? 0) > Date.now()) return true;
  const found = (await ctx.sql`select 1 from shops where id = ${shopId}`).length > 0;
  if (found) {
    shopsSeen.set(shopId, Date.now() + SHOP_KEPT_MS);
    if (shopsSeen.size > 10_000) shopsSeen.delete(shopsSeen.keys().next().value!);
  }
  return found;
}

/**
 * GET /images/:size/:key — the original behind a key this service signed, resized into a square
 * of `size` pixels, as WebP when the client accepts it, else JPEG; cached on disk.
 */
export async function serveImage(ctx: AppContext, sizeParam: string, key: string, accept: string | null): Promise<ServedImage> {
  // Only the plain spelling ("0x78" or "120.0" would be the same image under another address).
  const size = (/^[1-9]\d{0,3}$/.test(sizeParam) ? Number(sizeParam) : 0) as ImageSize;
  if (!IMAGE_SIZES.includes(size)) throw new AppError('NOT_FOUND', `Image size must be one of ${IMAGE_SIZES.join(', ')}`);
  const link = readImageKey(imageSigningKey(ctx.sealKey), key, Date.now());
  if (link === 'expired') throw new AppError('NOT_FOUND', 'Image link has expired');
  if (!link || !(await shopExists(ctx, link.shopId))) throw new AppError('NOT_FOUND', 'Image not found');
  const { url } = link;
  const maxAgeSeconds = Math.max(0, Math.min(YEAR_SECONDS, link.expires - Math.floor(Date.now() / 1000)));
  const format = accept?.includes('image/webp') ? 'webp' : 'jpeg';
  const cacheDir = ctx.settings.images.cacheDir;
  const file = path.join(cacheDir, 'resized', `${crypto.createHash('sha256').update(url).digest('hex')}-${size}.${format}`);
  const contentType = `image/${format}`;
  const cached = await fs.readFile(file).catch(() => null);
  if (cached) return { body: cached, contentType, maxAgeSeconds };

  const failed = knownFailure(url);
  if (failed) throw badOriginal(failed);
  let resized: Buffer;
  try {
    const original = await originalBytes(ctx, cacheDir, url);
    resized = await withResizeSlot(() => {
      const image = sharp(original, { limitInputPixels: 50_000_000 }).rotate().resize(size, size, { fit: 'contain', background: '#ffffff' }).flatten({ background: '#ffffff' });
      return (format === 'webp' ? image.webp({ quality: 80 }) : image.jpeg({ quality: 82, mozjpeg: true })).toBuffer();
    });
  } catch (error) {
    const message =
      error instanceof BadOriginal ? error.message : `The original image could not be decoded (${error instanceof Error ? error.message : String(error)})`;
    rememberFailure(url, message);
    throw badOriginal(message);
  }
  await keep(file, resized);
  if (++writesSinceTrim >= 50) {
    writesSinceTrim = 0;
    void trimCache(cacheDir, ctx.settings.images.cacheBytes).catch(() => {});
  }
  return { body: resized, contentType, maxAgeSeconds };
}
