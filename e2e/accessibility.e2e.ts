import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

// WCAG 2.2 AA on the daily screens, at a desktop's width and a phone's, and
// the keyboard's way in (skip link) and out of a dialog (focus back on its opener).

/** How long a screen may take to show what the test waits for. */
const settle = { timeout: 15_000 };

const companyName = 'Access Demo Trading';

const widths = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** The lists and pages a collector and an administrator work from. */
const routes = [
  '/',
  '/payment-requests',
  '/payment-transactions',
  '/accounts',
  '/transactions',
  '/settlements',
  '/disputes',
  '/settings/details',
  '/settings/customisation',
  '/settings/preferences',
  '/settings/notifications',
  '/settings/users',
  '/settings/access-keys',
  '/settings/web-hooks',
  '/settings/companies',
  '/settings/payment-providers',
  '/my-settings',
];

/** The lists whose first record's page is scanned too (found by its View link). */
const detailsOf = ['/payment-requests', '/payment-transactions', '/accounts', '/transactions'];

/**
 * Rules checked whatever axe's impact for them: the findings of the accessibility review that axe calls
 * moderate or minor. label-content-name-mismatch is experimental in axe: switched on.
 */
const alwaysFailing = new Set([
  'page-has-heading-one',
  'landmark-no-duplicate-banner',
  'landmark-banner-is-top-level',
  'landmark-unique',
  'empty-table-header',
  'label-content-name-mismatch',
]);

/** axe on what the page shows now: one line per failing rule, with where. */
async function violations(page: Page, where: string): Promise<string[]> {
  const scan = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return scan.violations
    .filter(
      (violation) =>
        ['serious', 'critical'].includes(violation.impact ?? '') || alwaysFailing.has(violation.id),
    )
    .map(
      (violation) =>
        `${where}: ${violation.id} (${violation.impact}) ×${violation.nodes.length} ` +
        violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | '),
    );
}

/** Opens a page of the site and waits until it has its title and its data. */
async function openPage(page: Page, siteUrl: string, path: string): Promise<void> {
  await page.goto(new URL(path, siteUrl).href);
  await page.getByRole('heading', { level: 1 }).first().waitFor(settle);
  // Grids and panels show their data, not their loaders (some pages poll: no network idle).
  // A loop of its own: the set-up opens pages too, and expect.poll belongs to tests.
  const loading = page.locator(
    '.mantine-datatable-loader-fetching, .mantine-Skeleton-root[data-visible="true"]',
  );
  const deadline = Date.now() + settle.timeout;
  while ((await loading.count()) > 0 && Date.now() < deadline) await page.waitForTimeout(100);
  await page.waitForTimeout(400);
}

/** Where the element with the focus is: its tag, id and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    return { tag: active?.tagName, id: active?.id, text: active?.textContent?.trim() };
  });

describe('accessibility', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const detailPaths: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // A demo company: accounts, invoices, payment requests and payments to look at.
    const created = await callApi(context, server.url, '/api/v0/data-sets', {
      method: 'POST',
      json: {
        name: companyName,
        hostSystemName: 'Sage200Pro',
        hostId: 'ACC-DEMO',
        customHostId: 'ACC-DEMO',
        hostDemoSystem: true,
      },
    });
    expect(created.status()).toBe(201);
    const datasetId = ((await created.json()) as { id: number }).id;
    const statusOfCompany = async () => {
      const all = await callApi(context, server.url, '/api/v0/data-sets/all');
      const { items } = (await all.json()) as { items: { id: number; status: string }[] };
      return items.find((dataset) => dataset.id === datasetId)?.status;
    };
    const deadline = Date.now() + 30_000;
    while ((await statusOfCompany()) !== 'Active' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await statusOfCompany()).toBe('Active');

    await page.reload();
    await page.getByRole('button', { name: /^Company(: |$)/ }).click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    for (const list of detailsOf) {
      await openPage(page, server.url, list);
      const link = page.locator(`tbody a[href^="${list}/"]`).first();
      await link.waitFor(settle);
      detailPaths.push((await link.getAttribute('href'))!);
    }
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  for (const { name, width, height } of widths) {
    it(`has no serious or critical axe violation on the main pages at ${width} px (${name})`, async () => {
      await page.setViewportSize({ width, height });
      const found: string[] = [];
      for (const path of [...routes, ...detailPaths]) {
        await openPage(page, server.url, path);
        found.push(...(await violations(page, `${path} @${width}`)));
      }
      expect(found).toEqual([]);
    }, 600_000);
  }

  it('has none in the open top-bar menus either', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPage(page, server.url, '/payment-requests');
    const found: string[] = [];
    for (const opener of [/^Company(: |$)/, /^User menu/]) {
      await page.getByRole('button', { name: opener }).click();
      await page.getByRole('menu').waitFor();
      found.push(...(await violations(page, `menu ${String(opener)}`)));
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });
    }
    expect(found).toEqual([]);
  });

  it('reaches the content with one Tab: the skip link, then Enter', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPage(page, server.url, '/payment-requests');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'A', text: 'Skip to content' });
    // Shown once it has the focus.
    const skip = page.getByRole('link', { name: 'Skip to content' });
    const box = (await skip.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.width).toBeGreaterThan(50);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'MAIN', id: 'main-content' });
    expect(new URL(page.url()).pathname).toBe('/payment-requests');
  });

  for (const { path, opener, dialog } of [
    { path: '/payment-requests', opener: 'New Request', dialog: 'New Request' },
    { path: '/settings/users', opener: 'Add User', dialog: 'Add User' },
  ]) {
    it(`opens ${dialog} with the keyboard, closes it with Escape and focuses ${opener} again`, async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await openPage(page, server.url, path);
      const button = page.getByRole('button', { name: opener, exact: true });
      await button.focus();
      await page.keyboard.press('Enter');
      const shown = page.getByRole('dialog', { name: dialog });
      await shown.waitFor();
      // The dialog itself: a named close button, no second banner.
      await page.waitForTimeout(300);
      expect(await violations(page, `${path} ${dialog} dialog`)).toEqual([]);
      await page.keyboard.press('Escape');
      // A dialog that opens on a select (New Request's account) hands its first Escape to that
      // select, which closes its own list first (the WAI-ARIA combobox pattern); the next one
      // closes the dialog.
      await page.waitForTimeout(300);
      if (await shown.isVisible()) {
        expect(
          await page.evaluate(
            () => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName,
          ),
        ).toMatch(/^(combobox|INPUT)$/);
        await page.keyboard.press('Escape');
      }
      await shown.waitFor({ state: 'hidden' });
      await expect
        .poll(() => button.evaluate((node) => node === document.activeElement), settle)
        .toBe(true);
    });
  }
});
