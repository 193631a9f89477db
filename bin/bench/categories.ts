// npm run bench:categories -- [--nodes 100000] [--depth 50]
// One POST /import/categories with chains of the given depth, through the HTTP API of a server on
// a fresh embedded PostgreSQL: time to 204, time until the import is done, and an unchanged re-send.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { waitForImport } from '@/lib/testing/api';
import { startServer } from '@/lib/testing/server';
import { numberArg, readArgs } from './args';

const root = path.resolve(import.meta.dirname, '../..');
const args = readArgs('npm run bench:categories -- [--nodes 100000] [--depth 50]', { nodes: { type: 'string', default: '100000' }, depth: { type: 'string', default: '50' } });
const NODES = numberArg(args.nodes, 'nodes');
const DEPTH = numberArg(args.depth, 'depth');

async function main() {
  ensureBuild(root, log);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
  try {
    const shop = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', 'bin/cli.ts', 'shop', 'create', '--name', 'Bench'], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } }).toString(),
    );
    const categories = [];
    for (let chain = 0; categories.length < NODES; chain++) {
      for (let level = 0; level < DEPTH && categories.length < NODES; level++) {
        categories.push({ id: `c${chain}-${level}`, name: `Category ${chain}/${level}`, parent: level ? `c${chain}-${level - 1}` : null, url: `https://shop.example/c/${chain}/${level}` });
      }
    }
    const body = JSON.stringify({ ...shop, categories });
    for (const label of ['first POST', 'unchanged re-send']) {
      const started = Date.now();
      const response = await fetch(`${server.url}/import/categories`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      const accepted = Date.now() - started;
      const record = await waitForImport(server.url, shop, Number(response.headers.get('x-import-id')), 600_000);
      console.log(`${label}: ${NODES} categories, depth ${DEPTH}, ${(body.length / 1048576).toFixed(1)} MiB: 204 in ${accepted} ms, ${record.status} in ${Date.now() - started} ms`);
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
