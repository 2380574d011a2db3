import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// style.md §10: features do not import each other; shared code lives in ui/, lib/ or the contract.
const featuresMustNotMeet = {
  group: ['../../features/*', '../features/*'],
  message: 'Features must not import each other.',
};
const features = readdirSync(new URL('./apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureBoundaries = features.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          featuresMustNotMeet,
          {
            group: ['@/features/*', `!@/features/${feature}`],
            message: 'Features must not import each other.',
          },
        ],
      },
    ],
  },
}));

// The API's features meet only through each other's public entry, features/<name>/index.ts, which
// says for each name why another feature needs it (decision 168): never another feature's
// repository, service, routes or jobs file directly. app.ts and src/areas.ts make the areas.
const apiFeatures = readdirSync(new URL('./apps/api/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const apiFeatureBoundaries = apiFeatures.map((feature) => ({
  files: [`apps/api/src/features/${feature}/**/*.ts`],
  // A test may build the state it needs through another feature (decision 177).
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./|\\.\\./\\.\\./features/)(?!${feature}/)[a-z-]+/(?!index\\.js$).+$`,
            message:
              'Import another feature only through its index.js (features/<name>/index.ts), which declares what it lends and why.',
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'apps/api/drizzle/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [featuresMustNotMeet] }],
    },
  },
  ...featureBoundaries,
  ...apiFeatureBoundaries,
  {
    // The payer page (issue 14) is its own light bundle: none of the admin's libraries or code,
    // and only types from the contract (a value would bring zod). docs/decisions/062-the-payer-page-s-bundle.md "The payer
    // page's bundle".
    files: ['apps/web/src/pay/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/pay/**/*.test.{ts,tsx}', 'apps/web/src/pay/test-support.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@ledgerline/contract',
              message: 'The payer page imports only types from the contract.',
              allowTypeImports: true,
            },
            { name: 'zod', message: 'The payer page carries no zod.' },
            { name: 'react-router', message: 'The payer page has no router.' },
          ],
          patterns: [
            {
              group: ['@mantine/*', '@tanstack/*', '@tabler/*', 'date-fns*', 'mantine-*'],
              message: "The payer page uses none of the admin site's libraries.",
            },
            {
              group: [
                '@/*',
                '**/app/*',
                '**/auth/*',
                '**/features/*',
                '**/lib/*',
                '**/shell/*',
                '**/ui/*',
              ],
              message: 'The payer page imports nothing of the admin site.',
            },
          ],
        },
      ],
    },
  },
  {
    // One tenant scope (issue 24 item 3, platform/scope.ts): a company's rows are narrowed only by
    // inDataset / inTenant and joined only by sameDataset / sameTenant, never by a filter written by
    // hand, which forgotten once lets one company read another's rows.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/platform/scope.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.name=/^(eq|ne|inArray)$/] > MemberExpression.arguments:first-child[property.name=/^(tenantId|datasetId)$/]',
          message:
            'Scope a query with inDataset / inTenant (or join with sameDataset / sameTenant) from platform/scope.ts.',
        },
      ],
    },
  },
  {
    // The house's size limits (issue 24): no source file over 400 lines, no function over 80,
    // outside tests and generated reference data.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts', 'apps/web/vite.config.ts'],
    ignores: [
      '**/*.test.{ts,tsx}',
      '**/test-support.ts',
      'packages/contract/src/reference/currencies.ts',
      'packages/contract/src/reference/time-zones.ts',
    ],
    rules: {
      'max-lines': ['warn', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': [
        'warn',
        { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'react', 'react-*', 'fastify*'] }],
    },
  },
);
