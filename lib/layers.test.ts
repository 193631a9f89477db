import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

// eslint.config.mjs states which folder of lib/ may import which (issue 39); the folders on top
// (cli, testing, bench…) may import any, so the rule alone would let two of them import each other.
// This holds the whole graph, with `import type` and re-exports counted like imports: no cycle
// between the folders of lib/, and no cycle of files that spans two directories (lib/listing's
// index, engine and the rest of it, the import pipeline and the rest of lib/imports). A
// sub-folder may use a loose file of its parent that imports nothing of it (the engine reads
// lib/listing/query.ts, which lib/listing/listing.ts also reads beside the engine): no file
// cycle, so no cycle here.

const root = path.resolve(import.meta.dirname, '..');
const lib = path.join(root, 'lib');

// What makes one file depend on another: imports and re-exports (`import type` included, and
// `import './x'`), `import('x')` (in code or in a type), a worker's module (`new URL('./x.ts',
// import.meta.url)`) and a module augmentation (`declare module './x'`).
const SPECIFIERS = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  /\bdeclare module\s*['"](\.[^'"]+|@\/[^'"]+)['"]/g,
];

/** The file a specifier names, or null for a package; throws for a path of ours that names no file. */
function resolveSpecifier(file: string, spec: string): string | null {
  const target = spec.startsWith('@/') ? path.join(root, spec.slice(2)) : spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
  if (!target) return null;
  const candidates = [target, `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts'), path.join(target, 'index.tsx'), target.replace(/\.js$/, '.ts')];
  const found = candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
  if (!found) throw new Error(`${path.relative(root, file)}: '${spec}' names no file (the import graph would miss it)`);
  return found;
}

/** Each production file of lib/ with the files of lib/ it imports. */
function fileGraph(): Map<string, Set<string>> {
  const files = fs
    .readdirSync(lib, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(lib, file));
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const imported = new Set<string>();
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const resolved = resolveSpecifier(file, match[1]);
        if (resolved && resolved.startsWith(lib + path.sep)) imported.add(resolved);
      }
    }
    graph.set(file, imported);
  }
  return graph;
}

/** The graph of `groupOf`'s groups: an edge where a file of one imports a file of another. */
function grouped(files: Map<string, Set<string>>, groupOf: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, imported] of files) {
    for (const target of imported) {
      const from = groupOf(file);
      const to = groupOf(target);
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** One cycle of the graph, as the nodes along it, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') return [...trail.slice(trail.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

/** The files of each cycle (strongly connected set of files) that spans more than one directory. */
function crossDirectoryCycles(files: Map<string, Set<string>>): string[][] {
  // Tarjan's strongly connected components.
  let next = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string) => {
    order.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of files.get(file) ?? []) {
      if (!order.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(root, member));
    } while (member !== file);
    if (new Set(component.map((name) => path.dirname(name))).size > 1) found.push(component.sort());
  };
  for (const file of files.keys()) if (!order.has(file)) connect(file);
  return found;
}

const topFolder = (file: string) => path.relative(lib, file).split(path.sep).slice(0, -1)[0] ?? '.';

it('finds a cycle when there is one (the checks can fail)', () => {
  const graph = new Map([
    ['lib/a/x.ts', new Set(['lib/b/y.ts'])],
    ['lib/b/y.ts', new Set(['lib/b/z.ts'])],
    ['lib/b/z.ts', new Set(['lib/a/x.ts'])],
  ]);
  expect(findCycle(graph)).toEqual(['lib/a/x.ts', 'lib/b/y.ts', 'lib/b/z.ts', 'lib/a/x.ts']);
  expect(findCycle(new Map([['a', new Set(['b'])], ['b', new Set(['c'])]]))).toBeNull();
  expect(crossDirectoryCycles(new Map([...graph].map(([file, targets]) => [path.join(root, file), new Set([...targets].map((target) => path.join(root, target)))])))).toEqual([['lib/a/x.ts', 'lib/b/y.ts', 'lib/b/z.ts']]);
});

it('has no import cycle between the folders of lib/, nor one of files across directories, type-only imports included', () => {
  const files = fileGraph();
  const folders = grouped(files, topFolder);
  // The graph is read at all: the listing sits on the catalog, the engine on the index.
  expect(folders.get('listing')?.has('catalog')).toBe(true);
  const directories = grouped(files, (file) => path.relative(lib, path.dirname(file)));
  expect(directories.get('listing/engine')?.has('listing/indexing')).toBe(true);
  expect(directories.get('imports')?.has('imports/pipeline')).toBe(true);
  // A module augmentation counts: the memo's types are registered from above the index.
  expect(files.get(path.join(lib, 'listing', 'index-memo.ts'))?.has(path.join(lib, 'listing', 'indexing', 'memo.ts'))).toBe(true);
  expect(findCycle(folders)).toBeNull();
  expect(crossDirectoryCycles(files)).toEqual([]);
});
