import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { eventually } from '@/lib/testing/receivers';
import { createTestShop } from '@/lib/testing/factories';
import { imageSigningKey, linkExpiry, resizedImagePath } from './image-urls';

const CAP = 400 * 1024;
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-trim-'));
const fixture = serverWithDatabase({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', IMAGE_CACHE_DIR: cacheDir, IMAGE_CACHE_BYTES: String(CAP) });
const hits = new Map<string, number>();
let origin: http.Server;
let originUrl: string;
let shopId: string;

beforeAll(async () => {
  shopId = (await createTestShop(fixture.database.ctx)).shop_id;
  // Noise compresses badly: each original and each resize weighs something.
  const photo = await sharp({ create: { width: 160, height: 160, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toBuffer();
  origin = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(photo);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as { port: number }).port}`;
});

afterAll(async () => {
  origin.closeAllConnections();
  await new Promise((resolve) => origin.close(resolve));
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

function cacheFiles(): { file: string; size: number; mtime: number }[] {
  return ['originals', 'resized'].flatMap((sub) => {
    const dir = path.join(cacheDir, sub);
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir).flatMap((name) => {
      // A file the server's trim removes between the listing and its stat is gone already.
      const stat = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
      return stat ? [{ file: path.join(sub, name), size: stat.size, mtime: stat.mtimeMs }] : [];
    });
  });
}

const cacheBytes = () => cacheFiles().reduce((sum, f) => sum + f.size, 0);

const get = (n: number, size: 120 | 520) => {
  const link = resizedImagePath(imageSigningKey(fixture.database.ctx.sealKey), size, { shopId, url: `${originUrl}/photo-${n}.png`, expires: linkExpiry(Date.now()) });
  return fetch(`${fixture.server.url}${link}`, { headers: { Accept: 'image/webp' } });
};

it('trims the cache under IMAGE_CACHE_BYTES, the files written first going first, and fetches a trimmed original again', async () => {
  // 25 originals, two sizes each: the 50th resize written starts a trim.
  for (let n = 0; n < 25; n++) {
    for (const size of [120, 520] as const) expect((await get(n, size)).status).toBe(200);
    // A millisecond apart at least, so the order of writing shows in the files' times.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const written = cacheFiles();
  expect(written.reduce((sum, f) => sum + f.size, 0)).toBeGreaterThan(CAP);

  await eventually(cacheBytes, (bytes) => bytes <= CAP * 0.9);
  const kept = new Set(cacheFiles().map((f) => f.file));
  // What is left is the newest of what was written: no file kept is older than one removed.
  const removed = written.filter((f) => !kept.has(f.file));
  const survivors = written.filter((f) => kept.has(f.file));
  expect(removed.length).toBeGreaterThan(0);
  expect(Math.max(...removed.map((f) => f.mtime))).toBeLessThanOrEqual(Math.min(...survivors.map((f) => f.mtime)));
  // Not emptied: it stops under 90 % of the cap.
  expect(cacheBytes()).toBeGreaterThan(CAP * 0.5);

  // The first original's files are gone: asking again fetches it once more and answers as before.
  expect(hits.get('/photo-0.png')).toBe(1);
  const again = await get(0, 120);
  expect(again.status).toBe(200);
  expect(again.headers.get('content-type')).toBe('image/webp');
  expect(hits.get('/photo-0.png')).toBe(2);
});
