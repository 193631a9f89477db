import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { FUZZ_TARGETS } from './run-fuzz';

/** Every route file of the app, as its path under app/ (route groups add no segment). */
function routeFiles(): string[] {
  const app = path.resolve(import.meta.dirname, '..', '..', '..', 'app');
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name]);
      else if (entry.name === 'route.ts') found.push(`/${segments.join('/')}`);
    }
  };
  walk(app, []);
  return found.sort();
}

// The fuzz's list went stale once (a removed admin route fuzzed for 969 404s, newer ones not at
// all): it is held to the route files here.
it('sends requests to every route of the app, and names no route that is gone', () => {
  const claimed = FUZZ_TARGETS.flatMap((target) => target.routes);
  expect(new Set(claimed).size, 'a route claimed by two targets').toBe(claimed.length);
  expect([...claimed].sort()).toEqual(routeFiles());
});

it('names its targets apart', () => {
  const names = FUZZ_TARGETS.map((target) => target.name);
  expect(new Set(names).size).toBe(names.length);
});
