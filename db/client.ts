import net from 'node:net';
import postgres, { type Sql, type TransactionSql } from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema>;
export type Database = { sql: Sql; db: Db; close: () => Promise<void> };

// int8 (counts, identities) as JS numbers: ids stay far below 2^53.
const int8AsNumber = {
  to: 20,
  from: [20],
  parse: (value: string) => Number(value),
  serialize: (value: number | bigint) => String(value),
};

type SocketOptions = { host: string[]; port: number[]; path?: string | false };

/**
 * postgres.js's own socket leaves Nagle's algorithm on: a small message sent while the previous
 * one is unacknowledged then waits for PostgreSQL's delayed ACK, ~40 ms, which is what each
 * statement after a COPY cost here. This one connects with TCP_NODELAY; like postgres.js, it
 * tries the hosts in turn.
 */
async function noDelaySocket({ host, port, path }: SocketOptions): Promise<net.Socket> {
  const attempt = (options: net.NetConnectOpts) =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect({ ...options, noDelay: true });
      socket.once('connect', () => {
        socket.removeListener('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  if (path) return attempt({ path });
  let failure: unknown;
  for (let i = 0; i < host.length; i++) {
    try {
      return await attempt({ host: host[i], port: port[i] ?? port[0] });
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

export function connectDatabase(url: string, options: { max?: number; applicationName?: string } = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    // Supported by postgres.js, missing from its types.
    ...({ socket: noDelaySocket } as object),
    onnotice: () => {},
    types: { int8: int8AsNumber },
    connection: { application_name: options.applicationName ?? 'vitrine' },
  });
  const db = drizzle(sql, { schema });
  return { sql, db, close: () => sql.end({ timeout: 5 }) };
}

// A Drizzle handle over a transaction opened with postgres.js, so bulk statements and ORM
// queries share one transaction.
export function ormFor(tx: TransactionSql): Db {
  return drizzle(tx as unknown as Sql, { schema });
}
