import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { UserWorkspaceConfig } from 'vitest/config';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

function testFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFilesUnder(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The test files that replace a module (vi.mock / vi.doMock). They run in a project of their own
 * with every file in a fresh process ('web-isolated'): in a shared process the module they replace
 * may already be loaded, real, by an earlier file, or their replacement leak into a later one. The
 * list is read from the files themselves, so a new file that mocks lands there by itself.
 */
export const mockingTestFiles = testFilesUnder(join(webRoot, 'src'))
  .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')))
  .map((file) => relative(webRoot, file).split('\\').join('/'));

/** What both web projects share: React, the `@/` paths, jsdom and the setup file. */
export const webProject = {
  plugins: [react()],
  resolve: { tsconfigPaths: true },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Two workers share two cores (root vitest.config.ts), so a busy jsdom test (a dialog typed
    // into key by key) can take twice its time alone; the limit only catches a test that hangs.
    testTimeout: 15_000,
  },
} satisfies UserWorkspaceConfig;
