import { defineConfig } from 'vitest/config';

const reportDir = process.env.LEDGERLINE_REPORT_DIR;
const reportName = process.env.LEDGERLINE_REPORT_NAME ?? 'unit';

export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/api', 'apps/web'],
    // .ci/run collects one JSON report per run and sums them (scripts/sum-test-results.mjs).
    reporters: reportDir ? ['default', ['json', { outputFile: `${reportDir}/${reportName}.json` }]] : ['default'],
  },
});
