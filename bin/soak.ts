// npm run soak -- [--minutes 10] [--shops 20] [--min-products 1000] [--max-products 20000] [--read-rate 200] [--report FILE] [--server-log FILE]
// Starts the real server on a fresh embedded PostgreSQL (as `npm start` runs), loads the shops,
// then imports into every shop (PUT, PATCH, DELETE, trees, callbacks) while storefronts read
// listings and collections at --read-rate a second (lib/testing/soak). Prints requests by status,
// the listing's p50/p95/p99 and the server's memory over time, and the checks: no error but the
// deliberate 429s, every accepted import applied once and in order. Exits 1 when a check fails.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { alive, readPostmaster } from '@/db/embedded';
import { boot } from '@/lib/runtime/boot';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { formatSoakReport, runSoak, SOAK_SERVER_ENV } from '@/lib/testing/soak/run-soak';
import { startServer } from '@/lib/testing/server';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    shops: { type: 'string', default: '20' },
    'min-products': { type: 'string', default: '1000' },
    'max-products': { type: 'string', default: '20000' },
    'read-rate': { type: 'string', default: '200' },
    report: { type: 'string' },
    'server-log': { type: 'string' },
  },
});

async function main() {
  const root = path.resolve(import.meta.dirname, '..');
  ensureBuild(root, log);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-soak-'));
  const server = await startServer({ DATABASE_URL: undefined, DATA_DIR: dataDir, ...SOAK_SERVER_ENV });
  // This process joins the server's cluster to make the shops, as the CLI would.
  const runtime = await boot({ maintenance: false, shortLived: true, settings: { ...readSettings(), databaseUrl: undefined, dataDir } });
  try {
    const report = await runSoak({
      url: server.url,
      serverPid: server.process.pid!,
      ctx: runtime.ctx,
      shops: Number(values.shops),
      minProducts: Number(values['min-products']),
      maxProducts: Number(values['max-products']),
      seconds: Number(values.minutes) * 60,
      readRate: Number(values['read-rate']),
      log,
    });
    console.log(formatSoakReport(report));
    if (values.report) await fs.writeFile(values.report, JSON.stringify(report, null, 2));
    return report.errors.length > 0 || report.imports.notApplied.length > 0 || report.sentinels.length > 0;
  } finally {
    await runtime.shutdown();
    await server.stop();
    if (values['server-log']) await fs.writeFile(values['server-log'], server.output());
    const left = await readPostmaster(dataDir);
    if (left && alive(left.pid)) process.kill(left.pid, 'SIGINT');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (failed) => process.exit(failed ? 1 : 0),
  (error) => {
    log(`soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
