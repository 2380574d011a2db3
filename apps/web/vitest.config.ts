import { defineProject } from 'vitest/config';
import { mockingTestFiles, webProject } from './vitest.shared.js';

/**
 * The site's tests that replace no module: they share their worker's process (jsdom, React and
 * Mantine loaded once per worker, not once per file; docs/decisions/080-test-time-one-migrated-template-shared-worker.md "Test time").
 * The setup file cleans the DOM, storage, cookies, toasts, stubbed globals and spies after every
 * test. The files that mock a module run in 'web-isolated' (vitest.isolated.config.ts).
 */
export default defineProject({
  ...webProject,
  test: {
    ...webProject.test,
    name: 'web',
    exclude: ['**/node_modules/**', ...mockingTestFiles],
    isolate: false,
  },
});
