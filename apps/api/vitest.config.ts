import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    setupFiles: ['test/setup/unqualified-columns.ts'],
    globalSetup: ['test/setup/database-template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // docs/decisions/080-test-time-one-migrated-template-shared-worker.md "Test time": the files share their worker's process (modules loaded and
    // compiled once per worker, not once per file; every file still gets its own app and
    // database). Two workers: the root config's maxWorkers.
    isolate: false,
  },
});
