import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const day = 24 * 60 * 60 * 1000;
/** Noon UTC `days` from now: the same calendar day in the user's default zone (London). */
const noonIn = (days: number) => {
  const date = new Date(Date.now() + days * day);
  date.setUTCHours(12, 0, 0, 0);
  return date.toISOString();
};
const account = { accountReference: 'AAA-MONEY-1', name: 'Aardvark Money Ltd', currency: 'GBP' };

interface Quote {
  discount: number;
  amountToPay: number;
  fees: { type: string; amount: number }[];
  latePayment: { referenceRate: number; annualRate: number; daysLate: number } | null;
}

// A settlement group made the company default gives a fresh invoice its generated
// offer; a UK statutory configuration charges an overdue one its fixed sum and interest.
describe('money rules', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let erp: Connector;

  async function pushInvoice(
    reference: string,
    amount: number,
    transactionDate: string,
    dueDate: string,
  ) {
    const answer = await erp.expect<{ id: string }>(
      201,
      '/api/v0/transactions?match-existing=false',
      {
        json: {
          accountReference: account.accountReference,
          transactionReference: reference,
          transactionType: 'Invoice',
          transactionDate,
          dueDate,
          currency: 'GBP',
          transactionAmount: amount,
        },
        idempotencyKey: randomUUID(),
      },
    );
    return answer.id;
  }

  async function quoteOf(id: string) {
    const response = await callApi(context, server.url, `/api/v0/transactions/${id}/quote`, {
      headers: { 'dataset-id': '1' },
    });
    expect(response.status()).toBe(200);
    return (await response.json()) as Quote;
  }

  beforeAll(async () => {
    server = await startServer({
      env: {
        FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true',
      },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const created = await callApi(context, server.url, '/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Money rules connector' },
    });
    expect(created.status()).toBe(201);
    const { accessKey } = (await created.json()) as { accessKey: string };
    erp = connector(server.url, accessKey, 1);
    // A new account: its settlement and late-payment choices are 'default'.
    await erp.expect(201, '/api/v0/accounts', { json: account, idempotencyKey: randomUUID() });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('creates a group with 2 % in 10 days, makes it the default, and a fresh invoice shows the offer', async () => {
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Settlements' })
      .click();
    await page.getByRole('heading', { name: 'Settlements' }).waitFor();
    await page.getByRole('link', { name: 'Add Settlement Group' }).click();
    await page.waitForURL(`${server.url}/settlements/new`);
    await page.getByRole('textbox', { name: 'Name' }).fill('Prompt payment');
    await page
      .getByRole('textbox', { name: 'Description' })
      .fill('Two per cent for payment within ten days');
    await page.getByRole('button', { name: 'Save' }).click();
    // spec 3 §2: saving replaces the location with the new group's page.
    await page.waitForURL(/\/settlements\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Prompt payment' }).waitFor();
    await page.getByText('There are no settlement configurations in this group.').waitFor();

    await page.getByRole('button', { name: 'New settlement configuration' }).click();
    await page.getByRole('menuitem', { name: 'Percentage discount' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Percentage Discount' });
    await dialog.getByRole('textbox', { name: 'Number of Days' }).fill('10');
    await dialog.getByRole('textbox', { name: 'Date type' }).click();
    await page.getByRole('option', { name: 'after transaction date' }).click();
    await dialog.getByRole('textbox', { name: 'Percentage Discount' }).fill('2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('2% off when paid within 10 days of the transaction date').waitFor();

    await page.getByRole('button', { name: 'Set as default' }).click();
    await page.getByRole('button', { name: 'Remove default' }).waitFor();
    await page.getByText('Default', { exact: true }).waitFor();

    const invoiceId = await pushInvoice('INV-MONEY-1', 1500, noonIn(0), noonIn(30));
    await page.goto(`${server.url}/transactions/${invoiceId}`);
    const line = page.getByLabel('If paid today');
    await line.waitFor();
    await line.getByText(gbp.format(30)).waitFor();
    await line.getByText(gbp.format(1470)).waitFor();
    await line.getByText(/generated offer/).waitFor();
    await page.getByRole('tab', { name: /Settlement offers/ }).click();
    const offers = page.getByRole('table', { name: 'Offers that apply today' });
    await offers.getByText('Generated').waitFor();

    // The transactions list shows the discounted amount to pay.
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Transactions', exact: true })
      .click();
    const row = page.getByRole('row').filter({ hasText: 'INV-MONEY-1' });
    await row.getByText(gbp.format(1470)).waitFor();
  });

  it('creates a UK configuration with 5 days grace; a £5,000 invoice 40 days overdue shows £70 and the interest', async () => {
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Late Payments' })
      .click();
    await page.getByRole('heading', { name: 'Late Payments' }).waitFor();
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('menuitem', { name: 'UK statutory' }).click();
    const dialog = page.getByRole('dialog', { name: 'New UK Statutory Late Payment' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('UK statutory');
    await dialog.getByRole('textbox', { name: 'Grace period in days' }).fill('5');
    // The statutory panel: 8 % plus the reference rate, and the debt recovery costs.
    await dialog
      .getByRole('table', { name: 'Debt recovery costs' })
      .getByText('£10,000 or more')
      .waitFor();
    await dialog.getByRole('table', { name: 'Debt recovery costs' }).getByText('£70').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: 'UK statutory' });
    await row.getByText('5 days').waitFor();
    await row.getByRole('button', { name: 'Set as default' }).click();
    await row.getByText('Default', { exact: true }).waitFor();

    const overdueId = await pushInvoice('INV-MONEY-2', 5000, noonIn(-70), noonIn(-40));
    const quote = await quoteOf(overdueId);
    expect(quote.fees.map((fee) => fee.type)).toEqual(['StatutoryInterest', 'FixedSum']);
    expect(quote.latePayment?.daysLate).toBe(35);
    const interest = quote.fees[0]!.amount;
    // 5,000 × (8 % + reference) × 35 / 365, to the penny.
    expect(interest).toBeCloseTo(
      Math.round(((5000 * (quote.latePayment!.annualRate / 100) * 35) / 365) * 100) / 100,
      2,
    );

    await page.goto(`${server.url}/transactions/${overdueId}`);
    const line = page.getByLabel('If paid today');
    await line.getByText(gbp.format(70)).waitFor();
    await line.getByText(gbp.format(interest)).waitFor();
    await line
      .getByText(`reference rate ${quote.latePayment!.referenceRate.toFixed(2)}%`, { exact: false })
      .waitFor();
    await line.getByText(gbp.format(5000 + 70 + interest)).waitFor();
  });
});
