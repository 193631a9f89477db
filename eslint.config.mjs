import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
          patterns: [{ group: ['@/db/*', '@/db'], message: 'No database access in app/: call a domain function in lib/.' }],
        },
      ],
    },
  },
);
