import { defineConfig } from 'vitest/config';

const reportDir = process.env.LEDGERLINE_REPORT_DIR;

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    // Their own steps (vitest.scale.config.ts, vitest.replicas.config.ts): PostgreSQL, HAProxy, pgbouncer.
    exclude: ['**/node_modules/**', '**/scale-out.e2e.ts', '**/replicas.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One browser journey at a time: the machines have two cores.
    fileParallelism: false,
    pool: 'forks',
    reporters: reportDir
      ? ['default', ['json', { outputFile: `${reportDir}/e2e.json` }]]
      : ['default'],
  },
});
