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

it('starts again after its postmaster died: a stale lock naming another process removed, a busy leftover backend ended', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-restart-'));
  const lines: string[] = [];
  try {
    const first = await startEmbeddedPostgres(dir, (line) => lines.push(line));
    const sql = postgres(first.url, { max: 1, onnotice: () => {} });
    // A backend busy in a long statement notices its postmaster's death late, keeping its shared memory.
    const busy = sql`select count(*) from generate_series(1, 1000000000)`.catch(() => 'cut');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { pid } = (await readPostmaster(dir))!;
    process.kill(pid, 'SIGKILL');
    await eventuallyDead(pid);
    // As after a restart of the machine or container: the lock file's pid now names a live process.
    const lock = path.join(dir, 'pg', 'postmaster.pid');
    const text = await fs.readFile(lock, 'utf8');
    await fs.writeFile(lock, text.replace(/^\d+/, String(process.pid)));

    const again = await startEmbeddedPostgres(dir, (line) => lines.push(line));
    try {
      expect(lines).toContain(`removing the lock file of a PostgreSQL that died (its pid ${process.pid} is now another process)`);
      expect(lines.some((line) => /^ending 1 backend left by a PostgreSQL that died/.test(line))).toBe(true);
      expect(await busy).toBe('cut');
      const fresh = postgres(again.url, { max: 1, onnotice: () => {} });
      expect((await fresh`select 1 as one`)[0].one).toBe(1);
      await fresh.end();
    } finally {
      await again.stop();
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('starts its cluster again on the same port when the postmaster dies under it, and stops the new one', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-supervised-'));
  const events: string[] = [];
  try {
    const database = await startEmbeddedPostgres(dir, () => {}, { supervise: { onDown: (reason) => events.push(`down: ${reason}`), onUp: () => events.push('up') } });
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const { pid } = (await readPostmaster(dir))!;
      process.kill(pid, 'SIGKILL');
      const started = Date.now();
      let answered = false;
      while (!answered && Date.now() - started < 20_000) {
        answered = await sql`select 1`.then(
          () => true,
          () => false,
        );
        if (!answered) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answered).toBe(true);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(events).toEqual([`down: the embedded PostgreSQL (pid ${pid}) exited`, 'up']);
      const restarted = (await readPostmaster(dir))!;
      expect(restarted.pid).not.toBe(pid);
      expect(String(restarted.port)).toBe(new URL(database.url).port);
      await sql.end();
      await database.stop();
      expect(alive(restarted.pid)).toBe(false);
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
    }
  } finally {
    const left = await readPostmaster(dir);
    if (left && alive(left.pid)) process.kill(left.pid, 'SIGINT');
    await fs.rm(dir, { recursive: true, force: true });
  }
}, 120_000);

async function eventuallyDead(pid: number) {
  for (const deadline = Date.now() + 10_000; alive(pid) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
}
