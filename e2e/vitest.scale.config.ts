import { defineConfig } from 'vitest/config';

const reportDir = process.env.LEDGERLINE_REPORT_DIR;

// The scale-out journey (scale-out.e2e.ts): two API processes on PostgreSQL behind HAProxy. Its
// own step of .ci/run, with its own JSON report, since it needs PostgreSQL and HAProxy.
export default defineConfig({
  test: {
    name: 'scale-out',
    include: ['**/scale-out.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
    reporters: reportDir
      ? ['default', ['json', { outputFile: `${reportDir}/scale-out.json` }]]
      : ['default'],
  },
});
