import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readSettings } from './settings';

const SOURCES = ['app', 'lib', 'db', 'workers', 'public', 'next.config.mjs', 'postcss.config.mjs', 'package.json', 'tsconfig.json'];

function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Runs `next build` when there is no build or a source file is newer than it. */
export function ensureBuild(root: string, log: (line: string) => void): void {
  // Test harnesses build once up front and start many servers; none of them should rebuild.
  if (readSettings().skipBuild) return;
  const buildId = fs.statSync(path.join(root, '.next', 'BUILD_ID'), { throwIfNoEntry: false });
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
  if (buildId && buildId.mtimeMs >= sources) return;
  log(buildId ? 'sources changed since the last build: building' : 'no build yet: building');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error('next build failed');
}
