/**
 * Source for `new Worker(source, { eval: true })` that loads the TypeScript module at `entry`
 * through tsx's API, whatever started this process (tsx, vitest); a promise of the module.
 */
export function tsModuleLoader(entry: URL): string {
  const href = JSON.stringify(entry.href);
  return `import('tsx/esm/api').then(({ tsImport }) => tsImport(${href}, ${href}))`;
}
