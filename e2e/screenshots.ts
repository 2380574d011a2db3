// Screenshots of the daily screens for the docs ("Proof"): the dashboard, a list (payment
// requests) and a detail (a payment request), each at 1440 px and at 390 px, written as PNGs to
// docs/screenshots/. Run from the repository root:
//
//   npm run screenshots            # builds, then runs this file
//
// As the journeys do: the built product on a fresh data folder (support/server.ts), a sign-in
// through the embedded identity provider's pages, a demo company with its generated requests,
// payments, accounts and invoices, chosen as the current company; then each screen once its data
// has loaded (no skeleton, no loader, the network idle).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBrowser } from './support/browser.js';
import { chooseCompany, createDemoCompany, getInCompany } from './support/demo.js';
import { startServer } from './support/server.js';
import { signInThroughBrowser } from './support/sign-in.js';

const folder = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const widths = [
  { name: '1440', viewport: { width: 1440, height: 900 } },
  { name: '390', viewport: { width: 390, height: 844 } },
];

function log(message: string) {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** The screen is shown: its heading, no skeleton or loader left, nothing more on the way. */
async function settled(page: Page) {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 120_000 });
  await page.waitForFunction(
    () =>
      !document.querySelector(
        'main .mantine-Skeleton-root[data-visible], main .mantine-Loader-root, [data-boot-shell]',
      ),
    undefined,
    { timeout: 120_000, polling: 200 },
  );
  await page.waitForLoadState('networkidle');
  // Transitions (a dropdown closing, the chart's bars) end.
  await page.waitForTimeout(500);
}

async function main() {
  mkdirSync(folder, { recursive: true });
  // A loaded machine takes its time to migrate a fresh database.
  const server = await startServer({ startTimeoutMs: 300_000 });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: widths[0]!.viewport });
    context.setDefaultTimeout(120_000);
    const page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    log('signed in; making a demo company');
    const companyId = await createDemoCompany(context, server.url, 'Northwind Trading', 'NW-DEMO');
    await chooseCompany(page, companyId);
    await settled(page);
    const requests = await getInCompany<{
      items: { id: string; requestStatus: string; amountToPay: number }[];
    }>(context, server.url, companyId, '/api/v0/payment-requests?itemsPerPage=100');
    const request =
      requests.items.find((r) => r.requestStatus === 'Open' && r.amountToPay > 0) ??
      requests.items[0];
    if (!request) throw new Error('The demo company has no payment request.');

    const screens = [
      { name: 'dashboard', path: '/' },
      { name: 'payment-requests', path: '/payment-requests' },
      { name: 'payment-request', path: `/payment-requests/${request.id}` },
    ];
    for (const { name: width, viewport } of widths) {
      await page.setViewportSize(viewport);
      for (const screen of screens) {
        await page.goto(new URL(screen.path, server.url).href);
        await settled(page);
        const file = join(folder, `${screen.name}-${width}.png`);
        await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
        log(`wrote ${file}`);
      }
    }
  } finally {
    await browser.close();
    await server.dispose();
  }
}

await main();
