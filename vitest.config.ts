import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  resolve: { alias: { '@': root } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'workers/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
          // Some build a large structure (a 10,000-deep tree, 300,000-element sorts): seconds on a
          // slow day here, beside the other file the second core runs.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'int',
          include: ['lib/**/*.int.test.ts', 'db/**/*.int.test.ts', 'workers/**/*.int.test.ts'],
          // The short soak runs on its own, last in npm test (npm run test:soak): it needs the machine.
          exclude: ['lib/testing/soak/**', 'node_modules/**'],
          globalSetup: ['lib/testing/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Two cores: each file may run a server and its own database.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'soak',
          include: ['lib/testing/soak/*.int.test.ts'],
          globalSetup: ['lib/testing/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
