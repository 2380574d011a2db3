import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

// A collector works from a phone. At 390 × 844, in a demo company
// (its generated requests, payments, accounts and invoices), no list or detail page is wider than
// the screen, each list is a column of cards whose first shows its amount and status without
// scrolling sideways, and the payer page shows the total and Pay at the top, the payer filled in.

const settle = { timeout: 15_000 };
const phone = { width: 390, height: 844 };

describe('on a phone', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let companyId: number;

  const api = async <T>(path: string, init: Parameters<typeof callApi>[3] = {}) => {
    const response = await callApi(context, server.url, path, {
      ...init,
      headers: { 'dataset-id': String(companyId ?? 1), ...init.headers },
    });
    const text = await response.text();
    if (!response.ok())
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status()} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  /** The page is no wider than the screen: nothing to scroll sideways. */
  async function fitsTheScreen(where: string) {
    const widths = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(widths.scrollWidth, `${where} is ${widths.scrollWidth} px wide`).toBeLessThanOrEqual(
      widths.innerWidth,
    );
  }

  /** A part of the first card lies wholly within the viewport's width and height. */
  async function inView(selector: string, where: string) {
    const part = page.locator('[data-grid-card]').first().locator(selector);
    await part.waitFor(settle);
    const box = await part.boundingBox();
    expect(box, `${where}: ${selector}`).not.toBeNull();
    expect(box!.x, `${where}: ${selector} left`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${where}: ${selector} right`).toBeLessThanOrEqual(phone.width);
    expect(box!.y + box!.height, `${where}: ${selector} bottom`).toBeLessThanOrEqual(phone.height);
    expect((await part.innerText()).trim(), `${where}: ${selector} text`).not.toBe('');
  }

  /** Opens a list, checks its first card and the width, then opens that card. */
  async function checkList(path: string, heading: string, withStatus: boolean) {
    await page.goto(new URL(path, server.url).href);
    await page.getByRole('heading', { name: heading }).first().waitFor(settle);
    await page.locator('[data-grid-card]').first().waitFor(settle);
    // A phone gets cards, not the table.
    expect(await page.locator('table').count()).toBe(0);
    await inView('[data-card-part="amount"]', heading);
    if (withStatus) await inView('[data-card-part="status"]', heading);
    await fitsTheScreen(heading);
  }

  async function openFirstCard(where: string) {
    const from = page.url();
    await page.locator('[data-grid-card]').first().click();
    await page.waitForURL((url) => url.href !== from, settle);
    await page.waitForLoadState('networkidle');
    await fitsTheScreen(where);
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard' }).first().waitFor(settle);

    // A demo company comes with generated requests, payments, accounts and invoices.
    const companyName = 'Phone Demo Trading';
    companyId = (
      await api<{ id: number }>('/api/v0/data-sets', {
        method: 'POST',
        headers: { 'dataset-id': '1' },
        json: {
          name: companyName,
          hostSystemName: 'Sage200Pro',
          hostId: 'PHONE-DEMO',
          customHostId: 'PHONE-DEMO',
          hostDemoSystem: true,
        },
      })
    ).id;
    const deadline = Date.now() + 60_000;
    const statusOfCompany = async () =>
      (await api<{ items: { id: number; status: string }[] }>('/api/v0/data-sets/all')).items.find(
        (dataset) => dataset.id === companyId,
      )?.status;
    while ((await statusOfCompany()) !== 'Active' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await statusOfCompany()).toBe('Active');
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard' }).first().waitFor(settle);
    await page.getByRole('button', { name: /^Company(: |$)/ }).click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);
    await page.setViewportSize(phone);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  /** An element lies wholly within the screen's width (not clipped at its right edge). */
  async function withinWidth(locator: ReturnType<Page['locator']>, what: string) {
    const box = await locator.boundingBox();
    expect(box, what).not.toBeNull();
    expect(box!.x, `${what} left`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${what} right`).toBeLessThanOrEqual(phone.width);
  }

  it('keeps the top bar and the dashboard within the screen', async () => {
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Dashboard' }).first().waitFor(settle);
    await page.waitForLoadState('networkidle');
    await fitsTheScreen('the dashboard');
    await withinWidth(page.getByRole('button', { name: 'Help' }), 'Help');
    await withinWidth(page.getByRole('button', { name: /^Company(: |$)/ }), 'the company');
    for (const fix of await page.getByRole('link', { name: 'Fix' }).all())
      await withinWidth(fix, 'a to-do Fix button');
  });

  it('shows payment requests as cards, and a request that fits the screen', async () => {
    await checkList('/payment-requests', 'Payment Requests', true);
    await openFirstCard('a payment request');
    await withinWidth(page.getByRole('button', { name: 'QR code' }), 'the QR code button');
    // Its tabs stay on one line.
    const tabs = page.getByRole('tablist').first();
    const tabsBox = await tabs.boundingBox();
    const firstTab = await tabs.getByRole('tab').first().boundingBox();
    expect(tabsBox!.height).toBeLessThan(firstTab!.height * 1.5);
  });

  it('shows payment transactions as cards, and a payment that fits the screen', async () => {
    await checkList('/payment-transactions', 'Payment Transactions', true);
    await openFirstCard('a payment transaction');
    for (const tab of await page.getByRole('tab').all()) {
      await tab.click();
      await fitsTheScreen(`a payment's ${(await tab.innerText()).trim()} tab`);
    }
  });

  it('shows accounts as cards, and an account whose tabs scroll on one line', async () => {
    await checkList('/accounts', 'Accounts', false);
    await openFirstCard('an account');
    const tabs = page.getByRole('tablist').first();
    const tabsBox = await tabs.boundingBox();
    const firstTab = await tabs.getByRole('tab').first().boundingBox();
    expect(tabsBox!.height).toBeLessThan(firstTab!.height * 1.5);
    for (const tab of await tabs.getByRole('tab').all()) {
      await tab.click();
      await page.waitForLoadState('networkidle');
      await fitsTheScreen(`an account's ${(await tab.innerText()).trim()} tab`);
    }
  });

  it('shows transactions as cards, and a transaction that fits the screen', async () => {
    await checkList('/transactions', 'Transactions', true);
    await openFirstCard('a transaction');
    for (const tab of await page.getByRole('tab').all()) {
      await tab.click();
      await page.waitForLoadState('networkidle');
      await fitsTheScreen(`a transaction's ${(await tab.innerText()).trim()} tab`);
    }
  });

  it('shows the payer the total and Pay at the top, their details filled in', async () => {
    const requests = await api<{
      items: { id: string; requestStatus: string; amountToPay: number }[];
    }>('/api/v0/payment-requests?itemsPerPage=100');
    const open = requests.items.find(
      (request) => request.requestStatus === 'Open' && request.amountToPay > 0,
    );
    expect(open, 'an Open request in the demo data').toBeDefined();
    const answer = await context.request.get(new URL(`/api/v0/pay/${open!.id}`, server.url).href);
    const payPage = (await answer.json()) as {
      billingContact: { firstNames: string | null; emailAddress: string | null } | null;
    };
    const payer = await browser.newContext({ viewport: phone });
    try {
      const payerPage = await payer.newPage();
      await payerPage.goto(new URL(`/pay/${open!.id}`, server.url).href);
      const bar = payerPage.getByRole('region', { name: 'Payment summary' });
      await bar.waitFor(settle);
      const pay = bar.getByRole('button', { name: 'Pay now' });
      const box = await pay.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(phone.height);
      expect(box!.x + box!.width).toBeLessThanOrEqual(phone.width);
      const widths = await payerPage.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(widths.scrollWidth).toBeLessThanOrEqual(widths.innerWidth);
      // What the request knows of its billing contact is filled in, not typed again.
      await expect
        .poll(() => payerPage.getByLabel('First names').inputValue())
        .toBe(payPage.billingContact?.firstNames ?? '');
      await expect
        .poll(() => payerPage.getByLabel(/Email address/).inputValue())
        .toBe(payPage.billingContact?.emailAddress ?? '');
      // The bar stays in view as the payer scrolls down the invoices.
      await payerPage.mouse.wheel(0, 1500);
      await payerPage.waitForTimeout(300);
      const scrolled = await pay.boundingBox();
      expect(scrolled!.y).toBeGreaterThanOrEqual(0);
      expect(scrolled!.y + scrolled!.height).toBeLessThanOrEqual(phone.height);
    } finally {
      await payer.close();
    }
  });

  it('shows statuses whole at 1440 px, none under the pinned View column', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      for (const [path, name] of [
        ['/payment-transactions', 'Payment transactions'],
        ['/settings/companies', 'Companies'],
      ] as const) {
        await page.goto(new URL(path, server.url).href);
        const table = page.getByRole('table', { name });
        await table.locator('tbody tr').first().waitFor(settle);
        await page.waitForLoadState('networkidle');
        const clipped = await table.evaluate((element) =>
          [...element.querySelectorAll('td .mantine-Badge-label')]
            .filter((label) => label.scrollWidth > label.clientWidth + 1)
            .map((label) => label.textContent),
        );
        expect(clipped, `${name}: truncated statuses`).toEqual([]);
        // Every row's badges end before its pinned last cell begins.
        const overlap = await table.evaluate((element) =>
          [...element.querySelectorAll('tbody tr')].flatMap((row) => {
            const cells = [...row.querySelectorAll('td')];
            const pinned = cells.at(-1)!.getBoundingClientRect();
            return cells
              .slice(0, -1)
              .flatMap((cell) => [...cell.querySelectorAll('.mantine-Badge-root')])
              .filter((badge) => badge.getBoundingClientRect().right > pinned.left + 1)
              .map((badge) => badge.textContent);
          }),
        );
        expect(overlap, `${name}: statuses under the pinned column`).toEqual([]);
      }
    } finally {
      await page.setViewportSize(phone);
    }
  });

  it('searches a list, and a reload shows the same view from the address', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      const { items } = await api<{ items: { ledgerlineReference: string; status: string }[] }>(
        '/api/v0/payment-transactions?itemsPerPage=50',
      );
      const wanted = items.find((item) => item.status === 'Failed' || item.status === 'Paid')!;
      await page.goto(new URL('/payment-transactions', server.url).href);
      const table = page.getByRole('table', { name: 'Payment transactions' });
      await table.locator('tbody tr').first().waitFor(settle);
      await page
        .getByRole('searchbox', { name: 'Search payment transactions' })
        .fill(wanted.ledgerlineReference);
      await page.waitForURL(/search=/, settle);
      await expect.poll(() => table.locator('tbody tr').count(), settle).toBe(1);
      await expect
        .poll(() => table.locator('tbody tr').first().innerText(), settle)
        .toContain(wanted.ledgerlineReference);
      expect(new URL(page.url()).searchParams.get('search')).toBe(wanted.ledgerlineReference);

      await page.reload();
      await table.locator('tbody tr').first().waitFor(settle);
      await expect.poll(() => table.locator('tbody tr').count(), settle).toBe(1);
      // The grid's loading row is also one row: wait for the answer's, as before the reload.
      await expect
        .poll(() => table.locator('tbody tr').first().innerText(), settle)
        .toContain(wanted.ledgerlineReference);
      expect(
        await page.getByRole('searchbox', { name: 'Search payment transactions' }).inputValue(),
      ).toBe(wanted.ledgerlineReference);
    } finally {
      await page.setViewportSize(phone);
    }
  });
});
