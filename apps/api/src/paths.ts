import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The api package's folder, whether running from src/ (tsx, tests) or the bundle in dist/. */
function findApiRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      JSON.parse(readFileSync(manifest, 'utf8')).name === '@ledgerline/api'
    )
      return dir;
    dir = dirname(dir);
  }
  throw new Error('Cannot find the @ledgerline/api package folder.');
}

export const apiRoot = findApiRoot();
export const migrationsFolder = join(apiRoot, 'drizzle');
export const webDistFolder = join(apiRoot, '..', 'web', 'dist');
