// Runs `npm ci` when node_modules is missing or older than package-lock.json, so `npm start` and
// `npm test` work straight after `git clone` on a machine with only Node and npm.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Ledgerline needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
  process.exit(1);
}

const lock = 'package-lock.json';
const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs;
if (stale) {
  console.log('Installing dependencies (npm ci)...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
