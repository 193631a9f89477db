import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { createTestShop } from '@/lib/testing/factories';
import { imageSigningKey, linkExpiry, resizedImagePath, type ImageSize } from './image-urls';

const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-images-'));
const fixture = serverWithDatabase({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', IMAGE_CACHE_DIR: cacheDir, IMAGE_FETCH_TIMEOUT_MS: '1000' });
const hits = new Map<string, number>();
let origin: http.Server;
let originUrl: string;
let shopId: string;

/** The link a listing of the test's shop would give for this original. */
const linkFor = (size: ImageSize | number, original: string) =>
  resizedImagePath(imageSigningKey(fixture.database.ctx.sealKey), size as ImageSize, { shopId, url: original, expires: linkExpiry(Date.now()) });

beforeAll(async () => {
  shopId = (await createTestShop(fixture.database.ctx)).shop_id;
  const photo = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#c03030' } }).png().toBuffer();
  origin = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (req.url!.startsWith('/photo')) return res.writeHead(200, { 'Content-Type': 'image/png' }).end(photo);
    if (req.url === '/redirect.png') return res.writeHead(302, { Location: '/photo-r.png' }).end();
    if (req.url === '/broken.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end('this is not an image');
    if (req.url === '/slow.png') return setTimeout(() => res.writeHead(200).end(photo), 4000);
    if (req.url === '/huge.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 25 && res.write(chunk)) sent++;
        if (sent >= 25) res.end();
        else res.once('drain', () => { sent++; pump(); });
      };
      return pump();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
});

afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

function get(size: ImageSize | number, original: string, accept?: string) {
  const link = linkFor(size, original);
  return fetch(`${fixture.server.url}${link}`, { headers: accept ? { Accept: accept } : {} });
}

describe('/images/:size/:key', () => {
  it('resizes into a square of each size, WebP when accepted and JPEG otherwise, with long cache headers', async () => {
    for (const size of [120, 520] as const) {
      const webp = await get(size, `${originUrl}/photo-a.png`, 'image/avif,image/webp,*/*');
      expect(webp.status).toBe(200);
      expect(webp.headers.get('content-type')).toBe('image/webp');
      // Kept until the link expires: 30 to 60 days.
      const maxAge = Number(/^public, max-age=(\d+), immutable$/.exec(webp.headers.get('cache-control')!)![1]);
      expect(maxAge).toBeGreaterThan(30 * 86_400 - 60);
      expect(maxAge).toBeLessThanOrEqual(60 * 86_400);
      const meta = await sharp(Buffer.from(await webp.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', size, size]);
      const jpeg = await get(size, `${originUrl}/photo-a.png`);
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg');
      const jmeta = await sharp(Buffer.from(await jpeg.arrayBuffer())).metadata();
      expect([jmeta.format, jmeta.width, jmeta.height]).toEqual(['jpeg', size, size]);
    }
    // Four answers, one fetch of the original.
    expect(hits.get('/photo-a.png')).toBe(1);
  });

  it('fetches an original once for concurrent requests, and follows a redirect', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => get(([120, 140, 160, 180, 200, 220] as const)[i], `${originUrl}/photo-b.png`, 'image/webp')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(hits.get('/photo-b.png')).toBe(1);
    const redirected = await get(310, `${originUrl}/redirect.png`, 'image/webp');
    expect(redirected.status).toBe(200);
    expect(hits.get('/photo-r.png')).toBe(1);
  });

  it('answers 404 for keys it did not sign and sizes it does not offer', async () => {
    const good = linkFor(120, `${originUrl}/photo-a.png`);
    const forged = good.replace(/\/images\/120\/[^.]+\./, '/images/120/AAAAAAAAAAAAAAAAAAAAAA.');
    const tampered = await fetch(`${fixture.server.url}${forged}`);
    expect(tampered.status).toBe(404);
    expect((await tampered.json()).payload.message).toBe('Image not found');
    const otherUrl = good.replace(/\.[^.]+$/, `.${Buffer.from('http://169.254.169.254/latest').toString('base64url')}`);
    expect((await fetch(`${fixture.server.url}${otherUrl}`)).status).toBe(404);
    const size = await fetch(`${fixture.server.url}${good.replace('/120/', '/121/')}`);
    expect(size.status).toBe(404);
    expect((await size.json()).payload.message).toBe('Image size must be one of 120, 140, 160, 180, 200, 220, 310, 520');
  });

  it('answers 502 saying what is wrong with a broken, missing, private, slow or huge original', async () => {
    const cases: [string, RegExp][] = [
      [`${originUrl}/broken.png`, /could not be decoded/],
      [`${originUrl}/missing.png`, /answered HTTP 404/],
      ['http://10.0.0.1/x.png', /refused: 10\.0\.0\.1 is not a public address/],
      [`${originUrl}/slow.png`, /no answer within 1000 ms|not complete within/],
      [`${originUrl}/huge.png`, /larger than 20971520 bytes/],
    ];
    for (const [original, message] of cases) {
      const answer = await get(200, original, 'image/webp');
      expect(answer.status, original).toBe(502);
      const body = await answer.json();
      expect(body.status).toBe('error');
      expect(body.payload.message).toMatch(message);
    }
  });

  it('remembers a failed original for a minute instead of fetching it for every size', async () => {
    for (const size of [120, 140, 160] as const) {
      const answer = await get(size, `${originUrl}/missing-often.png`, 'image/webp');
      expect(answer.status).toBe(502);
      expect((await answer.json()).payload.message).toBe('The original image answered HTTP 404');
    }
    expect(hits.get('/missing-often.png')).toBe(1);
  });

  it('serves an image whose cache cannot be written, and says so only in the log', async () => {
    // Files where the cache's directories should be: every write fails (ENOTDIR/EEXIST).
    const moved: string[] = [];
    for (const sub of ['originals', 'resized']) {
      const dir = path.join(cacheDir, sub);
      if (fs.existsSync(dir)) {
        fs.renameSync(dir, `${dir}.kept`);
        moved.push(sub);
      }
      fs.writeFileSync(dir, 'not a directory');
    }
    try {
      const answer = await get(120, `${originUrl}/photo-uncached.png`, 'image/webp');
      expect(answer.status).toBe(200);
      expect((await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).width).toBe(120);
      expect(fixture.server.output()).toMatch(/image cache not written: /);
    } finally {
      for (const sub of ['originals', 'resized']) {
        const dir = path.join(cacheDir, sub);
        fs.rmSync(dir, { force: true });
        if (moved.includes(sub)) fs.renameSync(`${dir}.kept`, dir);
      }
    }
  });

  it('answers 404 for a link past its expiry and for a shop that no longer exists', async () => {
    const key = imageSigningKey(fixture.database.ctx.sealKey);
    const expired = resizedImagePath(key, 120, { shopId, url: `${originUrl}/photo-a.png`, expires: Math.floor(Date.now() / 1000) - 1 });
    const old = await fetch(`${fixture.server.url}${expired}`);
    expect(old.status).toBe(404);
    expect((await old.json()).payload.message).toBe('Image link has expired');
    const gone = await createTestShop(fixture.database.ctx);
    await fixture.database.ctx.sql`delete from shops where id = ${gone.shop_id}`;
    const orphan = resizedImagePath(key, 120, { shopId: gone.shop_id, url: `${originUrl}/photo-a.png`, expires: linkExpiry(Date.now()) });
    const answer = await fetch(`${fixture.server.url}${orphan}`);
    expect(answer.status).toBe(404);
    expect((await answer.json()).payload.message).toBe('Image not found');
  });

  it('knows a size only by its plain spelling', async () => {
    const link = linkFor(120, `${originUrl}/photo-a.png`).replace('/120/', '/0x78/');
    const answer = await fetch(`${fixture.server.url}${link}`);
    expect(answer.status).toBe(404);
    expect((await answer.json()).payload.message).toMatch(/^Image size must be one of /);
  });
});
