import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

function sources(folder: string): string[] {
  return fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(folder, file));
}

it('reads every setting in lib/runtime/settings.ts, and README lists each one', () => {
  const settings = read('lib/runtime/settings.ts');
  const names = new Set([...settings.matchAll(/(?:int|list)\('([A-Z_]+)'|process\.env\.([A-Z_]+)|process\.env\[\s*'([A-Z_]+)'/g)].map((m) => m[1] ?? m[2] ?? m[3]));
  expect(names.size).toBeGreaterThan(30);
  const readme = new Set([...read('README.md').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]));
  expect([...names].filter((name) => !readme.has(name))).toEqual([]);

  // Production code reads no environment variable but through readSettings (writes are fine;
  // the test harness and the benchmarks set up processes and are left out).
  const elsewhere = ['app', 'bin', 'db', 'lib', 'workers']
    .flatMap(sources)
    .filter((file) => !file.startsWith(`lib${path.sep}testing`) && !file.startsWith(`bin${path.sep}bench`) && file !== path.join('lib', 'runtime', 'settings.ts'))
    .flatMap((file) => [...read(file).matchAll(/process\.env(?:\.[A-Z_]+\b|\[)(?!\s*=[^=])/g)].map((m) => `${file}: ${m[0]}`));
  expect(elsewhere).toEqual([]);
});
