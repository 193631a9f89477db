import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '@/db/embedded';
import { boot } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

// One PostgreSQL cluster per test run; its `vitrine` database, migrated here, is the template
// every test file copies (CREATE DATABASE … TEMPLATE) into a database of its own.
export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-test-'));
  const pg = await startEmbeddedPostgres(dir);
  const runtime = await boot({ maintenance: false, settings: { ...readSettings(), databaseUrl: pg.url } });
  await runtime.shutdown();
  project.provide('templateDatabaseUrl', pg.url);
  return async () => {
    await pg.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
