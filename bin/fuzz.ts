// npm run fuzz -- [--per-endpoint 10000] [--per-admin 1000] [--seed N] [--concurrency 8] [--report FILE] [--only TARGET ...]
// Starts the real server on a fresh embedded PostgreSQL, prepares two shops with a catalog, then
// sends each public endpoint --per-endpoint and each admin API route --per-admin requests generated
// from the routes' zod schemas and spoiled (lib/testing/fuzz). Every answer must be under 500 and
// every 4xx carry the spec's error body; afterwards each shop must still take a valid import and
// list it. Prints the statuses per endpoint and the server's memory; exits 1 on any violation.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedPostgres } from '@/db/embedded';
import { boot } from '@/lib/runtime/boot';
import { ensureBuild } from '@/lib/runtime/build';
import { log } from '@/lib/runtime/log';
import { readSettings } from '@/lib/runtime/settings';
import { checkStillServing, FUZZ_SERVER_ENV, prepareFuzz, type PreparedFuzz } from '@/lib/testing/fuzz/prepare';
import { formatReport, FUZZ_TARGETS, runFuzz } from '@/lib/testing/fuzz/run-fuzz';
import { startServer } from '@/lib/testing/server';

const { values } = parseArgs({
  options: {
    'per-endpoint': { type: 'string', default: '10000' },
    'per-admin': { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    concurrency: { type: 'string', default: '8' },
    report: { type: 'string' },
    // A target's name ("admin collections"), to replay its requests of a seed alone; repeatable.
    only: { type: 'string', multiple: true },
    help: { type: 'boolean' },
  },
});

const USAGE = `npm run fuzz -- [--per-endpoint 10000] [--per-admin 1000] [--seed N] [--concurrency 8] [--report FILE] [--only TARGET ...]
  --only TARGET  replay one target's requests of the seed alone (repeatable); targets:
                 ${FUZZ_TARGETS.map((target) => target.name).join(', ')}`;

async function main() {
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const root = path.resolve(import.meta.dirname, '..');
  ensureBuild(root, log);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vitrine-fuzz-'));
  const pg = await startEmbeddedPostgres(dir, log);
  const runtime = await boot({ maintenance: false, settings: { ...readSettings(), databaseUrl: pg.url } });
  const server = await startServer({ DATABASE_URL: pg.url, ...FUZZ_SERVER_ENV });
  let context: PreparedFuzz | undefined;
  const failed = await (async () => {
    try {
      context = await prepareFuzz(server.url, runtime.ctx);
      const report = await runFuzz({
        url: server.url,
        serverPid: server.process.pid!,
        context,
        seed: Number(values.seed),
        perPublic: Number(values['per-endpoint']),
        perAdmin: Number(values['per-admin']),
        concurrency: Number(values.concurrency),
        only: values.only,
        onProgress: (done, total) => log(`fuzz: ${done} of ${total} requests`),
      });
      console.log(formatReport(report));
      const afterwards = await checkStillServing(server.url, context, runtime.ctx);
      console.log(afterwards.length ? `afterwards:\n  ${afterwards.join('\n  ')}` : 'afterwards: valid imports still apply and listings answer');
      if (values.report) await fs.writeFile(values.report, JSON.stringify({ ...report, afterwards }, null, 2));
      return report.violations.length > 0 || afterwards.length > 0;
    } finally {
      await context?.close();
      await server.stop();
      await runtime.shutdown();
      await pg.stop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  })();
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  log(`fuzz failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
