import crypto from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { boot, type Runtime } from '@/lib/runtime/boot';
import { readSettings, type Settings } from '@/lib/runtime/settings';

export type TestDatabase = { url: string; runtime: Runtime; ctx: Runtime['ctx']; close: () => Promise<void> };

function withDatabase(url: string, name: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A fresh database copied from the migrated template, with a booted context on it. */
export async function createTestDatabase(overrides: Partial<Settings> = {}): Promise<TestDatabase> {
  const template = inject('templateDatabaseUrl');
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = postgres(withDatabase(template, 'postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template vitrine`);
  await admin.end();
  const url = withDatabase(template, name);
  const runtime = await boot({ maintenance: false, settings: { ...readSettings(), ...overrides, databaseUrl: url } });
  return { url, runtime, ctx: runtime.ctx, close: () => runtime.shutdown() };
}
