import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { expect, it } from 'vitest';
import { alive, readPostmaster, startEmbeddedPostgres } from './embedded';

const root = path.resolve(import.meta.dirname, '..');

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
    const database = await startEmbeddedPostgres(dir, (line) => lines.push(line), { choosePort: async () => offered.shift()! });
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

it('is left running by a CLI that started it while a server uses it, and stopped by that server once alone', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-shared-'));
  const owner = spawn(process.execPath, ['--import', 'tsx', 'lib/testing/embedded-owner.ts', dir], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  owner.stderr.on('data', (chunk) => (stderr += chunk));
  const ownerExited = new Promise<number | null>((resolve) => owner.once('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      owner.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('\n')) resolve(stdout.trim());
      });
      owner.once('exit', () => reject(new Error(`the owner exited before starting PostgreSQL:\n${stderr}`)));
    });
    const { pid } = (await readPostmaster(dir))!;
    // A server joins while the CLI runs, and keeps a connection.
    const joined = await startEmbeddedPostgres(dir);
    expect(joined.owned).toBe(false);
    expect(joined.url).toBe(url);
    const server = postgres(joined.url, { max: 1, onnotice: () => {} });
    expect((await server`select 1 as one`)[0].one).toBe(1);

    owner.stdin.write('stop\n');
    expect(await ownerExited).toBe(0);
    expect(stderr).toContain('embedded PostgreSQL left running: 1 other connection use it');
    expect(alive(pid)).toBe(true);
    expect((await server`select 2 as two`)[0].two).toBe(2);

    // The server, stopping, finds the cluster's starter gone and nobody else on it.
    await server.end();
    await joined.stop();
    expect(alive(pid)).toBe(false);
  } finally {
    owner.kill('SIGKILL');
    const left = await readPostmaster(dir);
    if (left && alive(left.pid)) process.kill(left.pid, 'SIGINT');
    await fs.rm(dir, { recursive: true, force: true });
  }
}, 120_000);
