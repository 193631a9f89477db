import { afterAll, beforeAll } from 'vitest';
import { setAppContext } from '@/lib/runtime/context';
import { createTestDatabase, type TestDatabase } from './database';
import { startServer, type TestServer } from './server';

export type ServerFixture = { database: TestDatabase; server: TestServer };

/**
 * A fresh database and the real server on it for one test file: created before its tests,
 * stopped after them. `env` adds server settings.
 */
export function serverWithDatabase(env: Record<string, string | undefined> = {}): ServerFixture {
  const fixture = {} as ServerFixture;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.server = await startServer({ DATABASE_URL: fixture.database.url, ...env });
  });
  afterAll(async () => {
    await fixture.server?.stop();
    await fixture.database?.close();
  });
  return fixture;
}

/**
 * A fresh database for one test file, published as the app context, so route handlers can be
 * called directly (no server): created before its tests, closed after them.
 */
export function databaseAsAppContext(): { database: TestDatabase } {
  const fixture = {} as { database: TestDatabase };
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    setAppContext(fixture.database.ctx);
  });
  afterAll(async () => {
    setAppContext(undefined);
    await fixture.database?.close();
  });
  return fixture;
}
