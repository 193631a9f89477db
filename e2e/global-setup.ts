import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../lib/testing/server';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

// The admin app as a new user gets it: `npm start` on embedded PostgreSQL in a fresh data
// directory; a shop for imports, one for the catalog's pages and one more, a merchandiser who sees
// the first two and an admin, made with the CLI.
export default async function globalSetup() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-e2e-'));
  // Webhooks may reach the tests' receiver by the name localhost (127.0.0.1 stays refused); the
  // tests send more imports a minute than a shop may.
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', WEBHOOK_ALLOW_HOSTS: 'localhost', RATE_LIMIT_PER_MINUTE: '100000' };
  const server = await startServer(env);
  const cli = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } })).stdout);
  const shop = await cli('shop', 'create', '--name', 'E2E Outfitters', '--currency', 'EUR');
  const catalog = await cli('shop', 'create', '--name', 'Nordkap Outdoor', '--currency', 'EUR');
  const other = await cli('shop', 'create', '--name', 'Other Shop', '--currency', 'USD');
  const email = 'merchandiser@e2e.test';
  const password = 'correct horse battery';
  await cli('user', 'create', '--email', email, '--password', password, '--shop', shop.shop_id, '--shop', catalog.shop_id, '--technical-notices');
  await cli('user', 'create', '--email', 'admin@e2e.test', '--password', 'admin password 1', '--technical-notices');

  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_SHOP = JSON.stringify(shop);
  process.env.E2E_CATALOG_SHOP = JSON.stringify(catalog);
  process.env.E2E_OTHER_SHOP = JSON.stringify(other);
  process.env.E2E_EMAIL = email;
  process.env.E2E_PASSWORD = password;
  process.env.E2E_ADMIN_EMAIL = 'admin@e2e.test';
  process.env.E2E_ADMIN_PASSWORD = 'admin password 1';

  return async () => {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}
