import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../lib/testing/server';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

// The admin app as a new user gets it: `npm start` on embedded PostgreSQL in a fresh data
// directory, a shop and a staff member made with the CLI.
export default async function globalSetup() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-e2e-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  const server = await startServer(env);
  const cli = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, ['--import', 'tsx', 'bin/cli.ts', ...args], { cwd: root, env: { ...process.env, ...env } })).stdout);
  const shop = await cli('shop', 'create', '--name', 'E2E Outfitters', '--currency', 'EUR');
  const email = 'merchandiser@e2e.test';
  const password = 'correct horse battery';
  await cli('user', 'create', '--email', email, '--password', password, '--shop', shop.shop_id);

  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_SHOP = JSON.stringify(shop);
  process.env.E2E_EMAIL = email;
  process.env.E2E_PASSWORD = password;

  return async () => {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
}
