import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The layers of lib/, lowest first: each folder imports only from those listed for it (and from
// itself, lib/process-wide.ts, db/ and packages), so no cycle between domains can come back (issue 39). Tests, and the
// folders on top (cli, dashboard, observability, openapi, testing, bench), may import anything
// but the import pipeline's insides (below).
const LAYERS = {
  jobs: [],
  runtime: ['jobs'],
  http: ['runtime', 'jobs'],
  images: ['http', 'runtime', 'jobs'],
  mail: ['http', 'runtime', 'jobs'],
  shops: ['http', 'runtime', 'jobs'],
  catalog: ['images', 'http', 'runtime', 'jobs'],
  storefront: ['catalog', 'shops', 'images', 'http', 'runtime', 'jobs'],
  listing: ['storefront', 'catalog', 'shops', 'images', 'http', 'runtime', 'jobs'],
  imports: ['catalog', 'shops', 'mail', 'http', 'runtime', 'jobs'],
  webhooks: ['shops', 'http', 'runtime', 'jobs'],
  subscriptions: ['shops', 'http', 'runtime', 'jobs'],
  staff: ['shops', 'http', 'runtime', 'jobs'],
  collections: ['listing', 'storefront', 'catalog', 'shops', 'images', 'http', 'runtime', 'jobs'],
};

// The import pipeline (lib/imports/pipeline) is one folder behind one surface, its index.ts: it sits
// below the rest of lib/imports (on catalog, like it), and code elsewhere imports that surface only.
const PIPELINE_BELOW = ['catalog', 'images', 'http', 'runtime', 'jobs'];
const pipelineSurfaceOnly = {
  group: ['@/lib/imports/pipeline/*', './pipeline/*'],
  message: 'Import the import pipeline from its surface, @/lib/imports/pipeline (lib/imports/pipeline/index.ts).',
};

// The listing index and its build (lib/listing/indexing) sit below the rest of lib/listing, behind
// its index.ts. The memo each index carries is declared there too (indexing/memo.ts); the layers
// above register their entries' types in lib/listing/index-memo.ts, so nothing in it imports up.
const INDEXING_BELOW = ['catalog', 'images', 'http', 'runtime', 'jobs'];
const indexingSurfaceOnly = {
  group: ['@/lib/listing/indexing/*', './indexing/*', '../indexing/*'],
  message: 'Import the listing index from its surface, @/lib/listing/indexing (lib/listing/indexing/index.ts).',
};

// The listing engine (lib/listing/engine) sits on the index (its surface, the memo's class
// included) and the query's type; the rest of lib/listing (listing.ts, index-store.ts,
// search.ts…) and its callers import its index.ts only.
const ENGINE_SIBLINGS = ['indexing', 'query'];
const engineSurfaceOnly = {
  group: ['@/lib/listing/engine/*', './engine/*', '../engine/*'],
  message: 'Import the listing engine from its surface, @/lib/listing/engine (lib/listing/engine/index.ts).',
};

const layerMessage = (folder, below) =>
  `lib/${folder} may import from ${below.length ? below.map((name) => `lib/${name}`).join(', ') : 'no other folder of lib/'} (the layers in eslint.config.mjs)`;

const layerRules = Object.entries(LAYERS).map(([folder, below]) => ({
  files: [`lib/${folder}/**/*.{ts,tsx}`],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/lib/*', '!@/lib/process-wide', `!@/lib/${folder}`, ...below.map((name) => `!@/lib/${name}`)],
            message: `${layerMessage(folder, below)}: move the shared piece down instead.`,
          },
          {
            group: ['../*', ...below.map((name) => `!../${name}`)],
            message: `${layerMessage(folder, below)}.`,
          },
          ...(folder === 'imports' ? [pipelineSurfaceOnly] : []),
          ...(folder === 'listing' || folder === 'collections' ? [indexingSurfaceOnly, engineSurfaceOnly] : []),
        ],
      },
    ],
  },
}));

// After the rule for lib/imports, which it replaces there.
const pipelineRule = {
  files: ['lib/imports/pipeline/**/*.{ts,tsx}'],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/lib/*', '!@/lib/process-wide', '!@/lib/imports', '@/lib/imports/*', '!@/lib/imports/pipeline', ...PIPELINE_BELOW.map((name) => `!@/lib/${name}`)],
            message: `${layerMessage('imports/pipeline', PIPELINE_BELOW)}, not from the rest of lib/imports, which sits on it.`,
          },
          { group: ['../*'], message: `${layerMessage('imports/pipeline', PIPELINE_BELOW)}, not from the rest of lib/imports, which sits on it.` },
        ],
      },
    ],
  },
};

// After the rule for lib/listing, which it replaces there.
const indexingMessage = `${layerMessage('listing/indexing', INDEXING_BELOW)}, not from the rest of lib/listing, which sits on it (a memo entry's type is registered in lib/listing/index-memo.ts).`;
const indexingRule = {
  files: ['lib/listing/indexing/**/*.{ts,tsx}'],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/lib/*', '!@/lib/process-wide', '!@/lib/listing', '@/lib/listing/*', '!@/lib/listing/indexing', ...INDEXING_BELOW.map((name) => `!@/lib/${name}`)],
            message: indexingMessage,
          },
          { group: ['../*'], message: indexingMessage },
        ],
      },
    ],
  },
};

// After the rule for lib/listing, which it replaces there.
const engineMessage = `${layerMessage('listing/engine', LAYERS.listing)}, and from the rest of lib/listing only ${ENGINE_SIBLINGS.map((name) => `${name}`).join(', ')}: the rest sits on it.`;
const engineRule = {
  files: ['lib/listing/engine/**/*.{ts,tsx}'],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/lib/*', '!@/lib/process-wide', '!@/lib/listing', '@/lib/listing/*', ...ENGINE_SIBLINGS.map((name) => `!@/lib/listing/${name}`), ...LAYERS.listing.map((name) => `!@/lib/${name}`)],
            message: engineMessage,
          },
          { group: ['../*', ...ENGINE_SIBLINGS.map((name) => `!../${name}`)], message: engineMessage },
          { group: ['../indexing/*'], message: indexingSurfaceOnly.message },
        ],
      },
    ],
  },
};

// The folders on top, the workers and the entry points (tests and the test harness aside).
const TOP_FOLDERS = ['bench', 'cli', 'dashboard', 'observability', 'openapi'];
const surfaceRule = {
  files: ['workers/**/*.{ts,tsx}', 'bin/**/*.{ts,tsx}', ...TOP_FOLDERS.map((folder) => `lib/${folder}/**/*.{ts,tsx}`)],
  ignores: ['**/*.test.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [pipelineSurfaceOnly, indexingSurfaceOnly, engineSurfaceOnly] }] },
};

export default tseslint.config(
  { ignores: ['.next/**', 'node_modules/**', '.data/**', 'db/migrations/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Route handlers and pages stay thin: SQL belongs in lib/ (STYLE.md).
    files: ['app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'postgres', message: 'No SQL in app/: call a domain function in lib/.' },
            { name: 'drizzle-orm', message: 'No SQL in app/: call a domain function in lib/.' },
          ],
          patterns: [{ group: ['@/db/*', '@/db'], message: 'No database access in app/: call a domain function in lib/.' }, pipelineSurfaceOnly, indexingSurfaceOnly, engineSurfaceOnly],
        },
      ],
    },
  },
  ...layerRules,
  pipelineRule,
  indexingRule,
  engineRule,
  surfaceRule,
);
