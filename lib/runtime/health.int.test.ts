import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/lib/testing/database';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { startServer, type TestServer } from '@/lib/testing/server';

const withWorkers = serverWithDatabase();

describe('a server that runs the job workers', () => {
  it('answers /healthz and /readyz with every check ok', async () => {
    const health = await fetch(`${withWorkers.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${withWorkers.server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', workers: 'ok' } });
    const wrong = await fetch(`${withWorkers.server.url}/readyz`, { method: 'POST' });
    expect(wrong.status).toBe(405);
  });
});

/** A TCP forwarder between the server and PostgreSQL: cut, the database is unreachable to the server. */
async function startDatabaseLink(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: () => listen(port),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

describe('a web node (WORKERS=off) whose database goes away', () => {
  let database: TestDatabase;
  let link: Awaited<ReturnType<typeof startDatabaseLink>>;
  let server: TestServer;
  beforeAll(async () => {
    database = await createTestDatabase();
    link = await startDatabaseLink(new URL(database.url));
    const url = new URL(database.url);
    url.port = String(link.port);
    server = await startServer({ DATABASE_URL: url.toString(), WORKERS: 'off' });
  });
  afterAll(async () => {
    await server?.stop();
    await link?.close();
    await database?.close();
  });

  const readyz = async () => {
    const response = await fetch(`${server.url}/readyz`);
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
  };

  it('is ready with workers off, answers 503 naming the database while it is unreachable, and is ready again after', async () => {
    expect(await readyz()).toEqual({ status: 200, retryAfter: null, body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', workers: 'off' } } });

    await link.cut();
    const away = await readyz();
    expect(away.status).toBe(503);
    expect(away.retryAfter).toBe('5');
    expect(away.body).toEqual({ status: 'error', payload: { message: expect.stringMatching(/^Not ready: database unreachable: /) } });
    // Health does not touch the database.
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);

    await link.restore();
    await expect.poll(async () => (await readyz()).status, { timeout: 15_000 }).toBe(200);
  });

  it('answers 503 while the newest committed migration is not applied', async () => {
    const [latest] = await database.ctx.sql<{ id: number; hash: string; created_at: number }[]>`
      delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning id, hash, created_at`;
    try {
      const behind = await readyz();
      expect(behind.status).toBe(503);
      expect(behind.body.payload.message).toMatch(/^Not ready: migrations not applied \(latest is 0016_[\w-]+\)$/);
    } finally {
      await database.ctx.sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${latest.id}, ${latest.hash}, ${latest.created_at})`;
    }
    expect((await readyz()).status).toBe(200);
  });
});
