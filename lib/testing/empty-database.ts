import crypto from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';

/**
 * An empty database (no migration applied) in the test run's cluster, for tests of migrating
 * itself; `drop` removes it.
 */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = new URL(inject('templateDatabaseUrl'));
  const name = `e_${crypto.randomBytes(6).toString('hex')}`;
  const adminUrl = new URL(template);
  adminUrl.pathname = '/postgres';
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template template0`);
  await admin.end();
  const url = new URL(template);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
