import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

// Account statement and pay many: staff take the account's statement link from the
// account page; a payer with no session opens it, sees the three open invoices ticked, pays them
// in one Sandbox card payment on the payer page; staff see one payment allocated to each invoice.

const settle = { timeout: 15_000 };
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const day = 24 * 60 * 60 * 1000;
const dayIn = (days: number) => new Date(Date.now() + days * day).toISOString().slice(0, 10);

const account = {
  accountReference: 'STMT001',
  name: 'Statement Payer Ltd',
  currency: 'GBP',
  emailAddresses: [
    { emailAddress: 'accounts@statement.example', type: 'Accounts', isDefault: true },
  ],
};

describe('the account statement', () => {
  let server: RunningServer;
  let browser: Browser;
  let staff: BrowserContext;
  let staffPage: Page;
  let erp: Connector;
  let accountId: string;
  let companyId = 1;

  const api = async <T>(path: string, init: Parameters<typeof callApi>[3] = {}) => {
    const response = await callApi(staff, server.url, path, {
      ...init,
      headers: { 'dataset-id': String(companyId), ...init.headers },
    });
    const text = await response.text();
    if (!response.ok())
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status()} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  beforeAll(async () => {
    server = await startServer({
      env: { FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true,SandboxProvider=true' },
    });
    browser = await launchBrowser();
    staff = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    staff.setDefaultTimeout(15_000);
    staffPage = await staff.newPage();
    await signInThroughBrowser(staffPage, server.url, server.adminEmail, server.adminPassword);
    await staffPage.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // The Sandbox belongs to demo companies: the journey works in one.
    const companyName = 'Statement Demo';
    companyId = (
      await api<{ id: number }>('/api/v0/data-sets', {
        method: 'POST',
        json: {
          name: companyName,
          hostSystemName: 'Sage200Pro',
          hostId: 'STMT-DEMO',
          customHostId: 'STMT-DEMO',
          hostDemoSystem: true,
        },
      })
    ).id;
    const deadline = Date.now() + 30_000;
    const statusOfCompany = async () =>
      (await api<{ items: { id: number; status: string }[] }>('/api/v0/data-sets/all')).items.find(
        (d) => d.id === companyId,
      )?.status;
    while ((await statusOfCompany()) !== 'Active' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await statusOfCompany()).toBe('Active');
    await staffPage.reload();
    await staffPage.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await staffPage.getByRole('button', { name: /^Company(: |$)/ }).click();
    await Promise.all([
      staffPage.waitForEvent('load'),
      staffPage.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);

    const { accessKey } = await api<{ accessKey: string }>('/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Statement connector' },
    });
    erp = connector(server.url, accessKey, companyId);
    accountId = (
      await erp.expect<{ id: string }>(201, '/api/v0/accounts', {
        json: account,
        idempotencyKey: randomUUID(),
      })
    ).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('pays three invoices in one payment from the statement link', async () => {
    const push = async (reference: string, amount: number, daysAgo: number) =>
      (
        await erp.expect<{ id: string }>(201, '/api/v0/transactions?match-existing=false', {
          json: {
            accountReference: account.accountReference,
            transactionReference: reference,
            transactionType: 'Invoice',
            transactionDate: dayIn(-daysAgo),
            dueDate: dayIn(30 - daysAgo),
            currency: 'GBP',
            transactionAmount: amount,
          },
          idempotencyKey: randomUUID(),
        })
      ).id;
    const oldest = await push('INV-STMT-1', 100, 20);
    const middle = await push('INV-STMT-2', 200, 10);
    const newest = await push('INV-STMT-3', 300.5, 1);
    const total = gbp.format(600.5);

    // Staff: the account page's Statement link.
    await staffPage.goto(`${server.url}/accounts/${accountId}`);
    await staffPage
      .getByRole('heading', { name: `${account.accountReference} - ${account.name}` })
      .waitFor(settle);
    await staffPage.getByRole('button', { name: 'Statement link' }).click();
    const field = staffPage.getByRole('textbox', { name: 'Statement link' });
    await field.waitFor(settle);
    const url = await field.inputValue();
    expect(url).toMatch(new RegExp(`^${server.url}/statement/[A-Za-z0-9_-]{43}$`));
    await staffPage.getByText('This link does not expire.').waitFor();

    // The payer, with no session: every open invoice, oldest first, all ticked.
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.goto(url);
    await page
      .getByRole('heading', { level: 1, name: `Statement for ${account.name}` })
      .waitFor(settle);
    const boxes = page.getByRole('checkbox', { name: /^Pay invoice/ });
    expect(
      await boxes.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))),
    ).toEqual(['Pay invoice INV-STMT-1', 'Pay invoice INV-STMT-2', 'Pay invoice INV-STMT-3']);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    await page.getByText(`Total ${total}`).waitFor();
    expect(
      await page.getByRole('link', { name: 'Download statement (PDF)' }).getAttribute('href'),
    ).toMatch(/\/pdf$/);
    await Promise.all([
      page.waitForURL(/\/pay\/[0-9a-f-]{36}$/),
      page.getByRole('button', { name: `Pay ${total}` }).click(),
    ]);
    const requestId = new URL(page.url()).pathname.split('/').pop()!;

    // The payer page of the request: the normal card payment.
    await page.getByRole('heading', { level: 1, name: /Pay / }).waitFor(settle);
    await page.getByLabel('First names').fill('Ruth');
    await page.getByLabel('Surname').fill('Okafor');
    await page.getByLabel('Email address').fill('ruth@statement.example');
    await page.getByRole('radio', { name: /Sandbox/ }).check();
    await page.getByRole('button', { name: `Pay ${total}` }).click();
    await page.getByRole('heading', { name: 'Card details' }).waitFor();
    await page.getByLabel('Name on card').fill('Ruth Okafor');
    await page.getByLabel('Card number').fill('4242424242424242');
    await page.getByLabel(/Expiry date/).fill('12/30');
    await page.getByLabel(/Security code/).fill('123');
    await page.getByRole('button', { name: `Pay ${total}` }).click();
    await page.getByRole('heading', { name: 'Payment successful, thank you' }).waitFor(settle);
    const paymentId = new URL(page.url()).searchParams.get('payment');

    // The statement now has nothing open.
    await page.goto(url);
    await page
      .getByText('Nothing is open on this statement: every invoice is paid.')
      .waitFor(settle);
    await context.close();

    // Staff: one payment, allocated invoice by invoice; every invoice paid; the request Completed.
    const payment = await api<{
      status: string;
      paymentAllocations: { transactionId: string; allocatedAmount: number }[];
    }>(`/api/v0/payment-transactions/${paymentId}`);
    expect(payment.status).toBe('Paid');
    expect(
      payment.paymentAllocations.map((a) => [a.transactionId, a.allocatedAmount]).sort(),
    ).toEqual(
      [
        [oldest, 100],
        [middle, 200],
        [newest, 300.5],
      ].sort(),
    );
    for (const id of [oldest, middle, newest])
      expect((await api<{ paidStatus: string }>(`/api/v0/transactions/${id}`)).paidStatus).toBe(
        'FullyPaid',
      );
    expect(
      (await api<{ requestStatus: string }>(`/api/v0/payment-requests/${requestId}`)).requestStatus,
    ).toBe('Completed');
  });
});
