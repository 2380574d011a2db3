import { defineConfig } from 'vitest/config';

const reportDir = process.env.LEDGERLINE_REPORT_DIR;

// The replica journeys (replicas.e2e.ts): a streaming standby and pgbouncer, made in a temporary
// folder from Debian's PostgreSQL binaries. Its own step of .ci/run, after the scale-out one.
export default defineConfig({
  test: {
    name: 'replicas',
    include: ['**/replicas.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
    reporters: reportDir
      ? ['default', ['json', { outputFile: `${reportDir}/replicas.json` }]]
      : ['default'],
  },
});
