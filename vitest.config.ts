import { defineConfig } from 'vitest/config';

const reportDir = process.env.LEDGERLINE_REPORT_DIR;
const reportName = process.env.LEDGERLINE_REPORT_NAME ?? 'unit';

export default defineConfig({
  test: {
    // Two workers even on two cores (Vitest's default there is one): much of a test file's time is
    // waiting (polls, timers, sockets), not computing. docs/decisions/080-test-time-one-migrated-template-shared-worker.md "Test time".
    maxWorkers: 2,
    projects: [
      'packages/contract',
      'apps/api',
      'apps/web/vitest.config.ts',
      // The site's tests that mock a module, each file in a process of its own.
      'apps/web/vitest.isolated.config.ts',
    ],
    // .ci/run collects one JSON report per run and sums them (scripts/sum-test-results.mjs).
    reporters: reportDir ? ['default', ['json', { outputFile: `${reportDir}/${reportName}.json` }]] : ['default'],
  },
});
