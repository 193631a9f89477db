import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { keep } from './serve-image';

// The CI run of 6ca6b89 served one of six concurrent requests a 502: it read the original's cache
// file while another request was still writing it, and the first part did not decode.
it('shows a cache file whole or not at all to a request reading it while it is written', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-cache-file-'));
  const file = path.join(dir, 'originals', 'picture');
  const bytes = Buffer.alloc(32 * 1024 * 1024, 7);
  const seen: number[] = [];
  let writing = true;
  const written = keep(file, bytes).finally(() => (writing = false));
  while (writing) {
    const read = await fs.readFile(file).catch(() => null);
    seen.push(read ? read.length : 0);
  }
  await written;
  expect(seen.length).toBeGreaterThan(1);
  expect(seen.filter((length) => length !== 0 && length !== bytes.length)).toEqual([]);
  expect((await fs.readFile(file)).equals(bytes)).toBe(true);
  // Nothing is left under another name.
  expect(await fs.readdir(path.dirname(file))).toEqual(['picture']);
  await fs.rm(dir, { recursive: true, force: true });
});
