import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { alive, readPostmaster } from '@/db/embedded';
import { boot, type Runtime } from '@/lib/runtime/boot';
import { readSettings } from '@/lib/runtime/settings';
import { startServer, type TestServer } from '../server';
import { formatSoakReport, runSoak, SOAK_SERVER_ENV } from './run-soak';

let dataDir: string | undefined;
let server: TestServer | undefined;
let runtime: Runtime | undefined;

afterAll(async () => {
  await runtime?.shutdown();
  await server?.stop();
  if (dataDir) {
    const left = await readPostmaster(dataDir);
    if (left && alive(left.pid)) process.kill(left.pid, 'SIGINT');
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

// The 60-second version of `npm run soak` (the 10-minute run is in docs/reliability.md), on
// embedded PostgreSQL as `npm start` runs it, with smaller shops so loading them takes seconds.
it('serves 200 storefront reads a second for a minute while 20 shops import, every accepted import applied once and in order', async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-soak-'));
  server = await startServer({ DATABASE_URL: undefined, DATA_DIR: dataDir, ...SOAK_SERVER_ENV });
  runtime = await boot({ maintenance: false, shortLived: true, settings: { ...readSettings(), databaseUrl: undefined, dataDir } });
  const report = await runSoak({ url: server.url, serverPid: server.process.pid!, ctx: runtime.ctx, shops: 20, minProducts: 1000, maxProducts: 4000, seconds: 60, readRate: 200, settleSeconds: 60 });
  const text = formatSoakReport(report);
  expect(report.errors, text).toEqual([]);
  expect(report.deliberate429, text).toBeGreaterThan(0);
  expect(report.imports.accepted, text).toBeGreaterThan(100);
  expect(report.imports.notApplied, text).toEqual([]);
  expect(report.sentinels, text).toEqual([]);
  expect(report.requests.listing['200'], text).toBeGreaterThan(60 * 200 * 0.8);
  // Memory does not keep growing once warm: the last sample within a third of the one at 20 s.
  const warm = report.windows.find((w) => w.at >= 20)!.rssMiB;
  expect(report.windows.at(-1)!.rssMiB, text).toBeLessThan(warm * 1.33);
  expect(server.output()).not.toContain('[object Object]');
}, 300_000);
