import { expect, it, onTestFinished } from 'vitest';
import { serverWithDatabase } from '@/lib/testing/fixtures';
import { checkStillServing, FUZZ_SERVER_ENV, prepareFuzz } from './prepare';
import { formatReport, FUZZ_TARGETS, runFuzz } from './run-fuzz';

const fixture = serverWithDatabase(FUZZ_SERVER_ENV);

// The short, seeded run of `npm run fuzz` (the full one is in docs/reliability.md): ~2,400
// requests over every route of the app, the same ones every run.
it('answers ~2,400 generated and spoiled requests without a 5xx, every 4xx with the error body, and serves on', async () => {
  const context = await prepareFuzz(fixture.server.url, fixture.database.ctx);
  onTestFinished(() => context.close());
  const report = await runFuzz({ url: fixture.server.url, serverPid: fixture.server.process.pid!, context, seed: 40, perPublic: 180, perAdmin: 55, concurrency: 6 });
  expect(report.requests).toBe(FUZZ_TARGETS.reduce((sum, target) => sum + (target.share === 'route' ? 55 : 180), 0));
  expect(report.violations, formatReport(report)).toEqual([]);
  // Every endpoint was reached, and answered more than one way.
  for (const target of report.targets) expect(Object.keys(target.statuses).length, target.name).toBeGreaterThan(1);
  expect(Math.max(...report.rssMiB), formatReport(report)).toBeLessThan(1536);
  expect(await checkStillServing(fixture.server.url, context, fixture.database.ctx)).toEqual([]);
  expect(fixture.server.output()).not.toContain('[object Object]');
}, 600_000);
