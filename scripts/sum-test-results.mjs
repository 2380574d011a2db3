// Sums the Vitest JSON reports of a CI run into the last line CI reads: "N passed, N failed".
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  passed += report.numPassedTests;
  // A suite that failed to load counts as a failure even when it ran no test.
  failed +=
    report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? 1 : 0);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
