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
 * statement after a COPY cost here. This one connects with TCP_NODELAY. It is handed over while
 * still connecting (writes wait for the connection), so a refused or dropped connection reaches
 * postgres.js as the socket's own 'error' and 'close': a promise rejected before that left the
 * pool's connection stuck for good once the database had gone away. The first host is used.
 */
function noDelaySocket({ host, port, path }: SocketOptions): net.Socket {
  return path ? net.connect({ path }) : net.connect({ host: host[0], port: port[0], noDelay: true });
}

export function connectDatabase(url: string, options: { max?: number; applicationName?: string } = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    // Supported by postgres.js, missing from its types.
    ...({ socket: noDelaySocket } as object),
    onnotice: () => {},
    // A database that does not answer fails requests (503) in seconds rather than postgres.js's 30.
    connect_timeout: 10,
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
