import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';

it('starts on another port when the one it chose was taken before PostgreSQL could bind it', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-port-'));
  // A port someone else holds, offered first, as if taken between the choice and the start.
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const taken = (holder.address() as net.AddressInfo).port;
  const free = net.createServer();
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
  const spare = (free.address() as net.AddressInfo).port;
  await new Promise((resolve) => free.close(resolve));
  const offered = [taken, spare];
  const lines: string[] = [];
  try {
    const database = await startEmbeddedPostgres(dir, (line) => lines.push(line), async () => offered.shift()!);
    try {
      expect(offered).toEqual([]);
      expect(lines).toContain(`PostgreSQL did not start on port ${taken}; trying another port`);
      expect(new URL(database.url).port).toBe(String(spare));
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      expect((await sql`select 1 as one`)[0].one).toBe(1);
      await sql.end();
    } finally {
      await database.stop();
    }
  } finally {
    holder.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}, 120_000);
