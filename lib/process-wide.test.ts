import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROCESS_WIDE_PIECES, processWide } from './process-wide';

const root = path.resolve(import.meta.dirname, '..');

it('keeps one value per name for the whole process, as every copy of a module sees it', () => {
  const first = processWide<{ n: number }>('read-guard');
  const again = processWide<{ n: number }>('read-guard');
  const before = first.get();
  try {
    first.set({ n: 1 });
    expect(again.get()).toEqual({ n: 1 });
    expect(again.getOrMake(() => ({ n: 2 }))).toEqual({ n: 1 });
    again.set(undefined);
    expect(first.getOrMake(() => ({ n: 3 }))).toEqual({ n: 3 });
  } finally {
    first.set(before);
  }
});

it('is the only code on globalThis, and each listed piece is used', () => {
  const files = ['app', 'bin', 'db', 'lib', 'workers'].flatMap((folder) =>
    fs.readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
      .map((file) => path.join(folder, file)),
  );
  const texts = files.filter((file) => file !== path.join('lib', 'process-wide.ts')).map((file) => [file, fs.readFileSync(path.join(root, file), 'utf8')] as const);
  // Comments may name it; code may not (Symbol.for('vitrine.…') keys included).
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  expect(texts.filter(([, text]) => /globalThis|Symbol\.for\('vitrine\./.test(code(text))).map(([file]) => file)).toEqual([]);
  const unused = Object.keys(PROCESS_WIDE_PIECES).filter((name) => !texts.some(([, text]) => text.includes(`processWide<`) && text.includes(`('${name}')`)));
  expect(unused).toEqual([]);
});
