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

export function connectDatabase(url: string, options: { max?: number } = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    types: { int8: int8AsNumber },
    connection: { application_name: 'vitrine' },
  });
  const db = drizzle(sql, { schema });
  return { sql, db, close: () => sql.end({ timeout: 5 }) };
}

// A Drizzle handle over a transaction opened with postgres.js, so bulk statements and ORM
// queries share one transaction.
export function ormFor(tx: TransactionSql): Db {
  return drizzle(tx as unknown as Sql, { schema });
}
