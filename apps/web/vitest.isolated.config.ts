import { defineProject } from 'vitest/config';
import { mockingTestFiles, webProject } from './vitest.shared.js';

/** The site's tests that replace a module (vi.mock): each file in a fresh process, as before. */
export default defineProject({
  ...webProject,
  test: {
    ...webProject.test,
    name: 'web-isolated',
    include: mockingTestFiles,
  },
});
