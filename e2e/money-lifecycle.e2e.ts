import { createHmac, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

// The books follow the money. In a demo company (the Sandbox is its provider): a
// request for £200 of a £500 invoice takes £200; a reservation of a £300 invoice counts nothing
// until staff capture £100 of it; staff refund £50 of the first payment from its page; the payer's
// bank charges the first payment back. After each step what the payer and the merchant see.

const settle = { timeout: 20_000 };
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const dayIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const notificationKey = 'e2e-money-lifecycle-notification-key';
const cards = { succeeds: '4242424242424242', reserved: '4000000000003220' };

describe('the books follow the money', () => {
  let server: RunningServer;
  let browser: Browser;
  let staff: BrowserContext;
  let staffPage: Page;
  let erp: Connector;
  let companyId: number;
  let accountId: string;
  let sandboxId: string;

  const api = async <T>(path: string, init: Parameters<typeof callApi>[3] = {}) => {
    const response = await callApi(staff, server.url, path, {
      ...init,
      headers: { 'dataset-id': String(companyId ?? 1), ...init.headers },
    });
    const text = await response.text();
    if (!response.ok())
      throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status()} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };

  async function pushInvoice(reference: string, amount: number) {
    return (
      await erp.expect<{ id: string }>(201, '/api/v0/transactions?match-existing=false', {
        json: {
          accountReference: 'MONEY001',
          transactionReference: reference,
          transactionType: 'Invoice',
          transactionDate: dayIn(0),
          dueDate: dayIn(30),
          currency: 'GBP',
          transactionAmount: amount,
        },
        idempotencyKey: randomUUID(),
      })
    ).id;
  }

  const invoice = (id: string) =>
    api<{ paidStatus: string; allocatedAmount: number }>(`/api/v0/transactions/${id}`);

  /** The payer, on a phone with no session, pays the link with a Sandbox card. */
  async function payLink(url: string, total: string, cardNumber: string, outcome: string) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: /Pay / }).waitFor(settle);
    expect(
      await page.getByText('Total to pay').locator('xpath=following-sibling::dd[1]').innerText(),
    ).toBe(total);
    await page.getByLabel('First names').fill('Ruth');
    await page.getByLabel('Surname').fill('Okafor');
    await page.getByLabel('Email address').fill('ruth@money.example');
    await page.getByRole('radio', { name: /Sandbox/ }).check();
    await page.getByRole('button', { name: `Pay ${total}` }).click();
    await page.getByRole('heading', { name: 'Card details' }).waitFor();
    await page.getByLabel('Name on card').fill('Ruth Okafor');
    await page.getByLabel('Card number').fill(cardNumber);
    await page.getByLabel(/Expiry date/).fill('12/30');
    await page.getByLabel(/Security code/).fill('123');
    await page.getByRole('button', { name: `Pay ${total}` }).click();
    await page.getByRole('heading', { name: outcome }).waitFor(settle);
    const paymentId = new URL(page.url()).searchParams.get('payment')!;
    await context.close();
    return paymentId;
  }

  beforeAll(async () => {
    server = await startServer({
      env: {
        FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true,SandboxProvider=true',
        SANDBOX_NOTIFICATION_KEY: notificationKey,
      },
    });
    browser = await launchBrowser();
    staff = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    staff.setDefaultTimeout(20_000);
    staffPage = await staff.newPage();
    await signInThroughBrowser(staffPage, server.url, server.adminEmail, server.adminPassword);
    await staffPage.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // A demo company: the Sandbox test provider moves no money, so it belongs to demo companies.
    const companyName = 'Money Lifecycle Demo';
    companyId = (
      await api<{ id: number }>('/api/v0/data-sets', {
        method: 'POST',
        headers: { 'dataset-id': '1' },
        json: {
          name: companyName,
          hostSystemName: 'Sage200Pro',
          hostId: 'MONEY-DEMO',
          customHostId: 'MONEY-DEMO',
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
    await staffPage.reload();
    await staffPage.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await staffPage.getByRole('button', { name: /^Company(: |$)/ }).click();
    await Promise.all([
      staffPage.waitForEvent('load'),
      staffPage.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);

    const { accessKey } = await api<{ accessKey: string }>('/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Money connector' },
    });
    erp = connector(server.url, accessKey, companyId);
    accountId = (
      await erp.expect<{ id: string }>(201, '/api/v0/accounts', {
        json: {
          accountReference: 'MONEY001',
          name: 'Money Lifecycle Ltd',
          currency: 'GBP',
          emailAddresses: [{ emailAddress: 'ap@money.example', type: 'Accounts', isDefault: true }],
        },
        idempotencyKey: randomUUID(),
      })
    ).id;
    // A demo company comes with the Sandbox as its default.
    const configured = await api<{ paymentProviderId: string | null }>('/api/v0/providers/default');
    expect(configured.paymentProviderId).not.toBeNull();
    sandboxId = configured.paymentProviderId!;
    expect(await api(`/api/v0/providers/${sandboxId}`)).toMatchObject({
      providerName: 'Sandbox',
      enabled: true,
      isTest: true,
      isDefault: true,
      paymentMethodConfigurations: [{ paymentMethodType: 'Card', enabled: true }],
    });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('takes part of an invoice, captures part of a reservation, refunds and is charged back', async () => {
    // 1. A request for £200 of a £500 invoice asks for, and takes, £200.
    const partInvoice = await pushInvoice('INV-MONEY-1', 500);
    const partRequest = await api<{ id: string; requestUrl: string }>('/api/v0/payment-requests', {
      method: 'POST',
      json: {
        requestType: 'Transaction',
        accountId,
        currency: 'GBP',
        captureType: 'Immediate',
        usageType: 'Single',
        description: 'Part of an invoice',
        transactionAllocations: [{ transactionId: partInvoice, amount: 200 }],
      },
    });
    const paidId = await payLink(
      partRequest.requestUrl,
      gbp.format(200),
      cards.succeeds,
      'Payment successful, thank you',
    );
    expect(await invoice(partInvoice)).toMatchObject({
      paidStatus: 'PartPaid',
      allocatedAmount: 200,
    });

    // 2. A reservation of a £300 invoice counts nothing until staff capture £100 of it.
    const heldInvoice = await pushInvoice('INV-MONEY-2', 300);
    const reserveRequest = await api<{ id: string; requestUrl: string }>(
      '/api/v0/payment-requests',
      {
        method: 'POST',
        json: {
          requestType: 'Transaction',
          accountId,
          currency: 'GBP',
          captureType: 'Reserve',
          usageType: 'Single',
          description: 'Held until shipped',
          transactionAllocations: [{ transactionId: heldInvoice }],
        },
      },
    );
    const heldId = await payLink(
      reserveRequest.requestUrl,
      gbp.format(300),
      cards.reserved,
      'Payment authorised, thank you',
    );
    expect(await invoice(heldInvoice)).toMatchObject({ paidStatus: 'Unpaid', allocatedAmount: 0 });
    expect(
      (await api<{ requestStatus: string }>(`/api/v0/payment-requests/${reserveRequest.id}`))
        .requestStatus,
    ).toBe('Pending');

    await staffPage.goto(`${server.url}/payment-transactions/reservations`);
    const queue = staffPage.getByRole('table', { name: 'Reservations' });
    await queue.getByRole('link', { name: /LL/ }).first().waitFor(settle);
    await staffPage.goto(`${server.url}/payment-transactions/${heldId}`);
    await staffPage.getByRole('button', { name: 'Pending payment' }).click();
    await staffPage.getByRole('menuitem', { name: 'Capture' }).click();
    const amount = staffPage.getByRole('textbox', { name: 'Amount to capture' });
    await amount.fill('100');
    await staffPage.getByRole('button', { name: 'Capture', exact: true }).click();
    await staffPage.getByRole('button', { name: 'Yes' }).click();
    await staffPage.getByText('Pending payment captured').waitFor(settle);
    await expect.poll(async () => (await invoice(heldInvoice)).allocatedAmount, settle).toBe(100);
    expect((await invoice(heldInvoice)).paidStatus).toBe('PartPaid');

    // 3. Staff refund £50 of the first payment from its page: the invoice owes it again.
    await staffPage.goto(`${server.url}/payment-transactions/${paidId}`);
    await staffPage.getByRole('button', { name: 'Refund' }).click();
    const refund = staffPage.getByRole('textbox', { name: 'Amount to refund' });
    await refund.fill('50');
    await staffPage.getByRole('textbox', { name: 'Reason' }).fill('One item returned');
    await staffPage
      .getByRole('dialog', { name: 'Refund payment' })
      .getByRole('button', { name: 'Refund' })
      .click();
    await staffPage.getByRole('button', { name: 'Yes, refund' }).click();
    await staffPage.getByText('Payment refunded').waitFor(settle);
    await expect.poll(async () => (await invoice(partInvoice)).allocatedAmount, settle).toBe(150);
    await staffPage.getByRole('tab', { name: /Refunds/ }).click();
    await staffPage
      .getByRole('table', { name: 'Refunds' })
      .getByText('One item returned')
      .waitFor(settle);

    // 4. The payer's bank charges the rest of it back: the payment is Disputed, the invoice owes
    // all of it, and the dispute is on the Disputes list.
    const secret = createHmac('sha256', notificationKey)
      .update(`sandbox-notifications:${sandboxId}`)
      .digest('hex');
    const raw = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: 'dispute.updated',
      data: {
        paymentId: paidId,
        dispute: { reference: 'dp_e2e', stage: 'Lost', amount: '150', reason: 'fraudulent' },
      },
    });
    const t = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex');
    const notified = await fetch(`${server.url}/api/v0/webhooks/sandbox/${sandboxId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sandbox-signature': `t=${t},sha256=${signature}`,
      },
      body: raw,
    });
    expect(notified.status).toBe(200);
    await expect.poll(async () => (await invoice(partInvoice)).allocatedAmount, settle).toBe(0);
    expect((await invoice(partInvoice)).paidStatus).toBe('Unpaid');
    await staffPage.goto(`${server.url}/disputes`);
    const disputes = staffPage.getByRole('table', { name: 'Disputes' });
    await disputes.getByText('Lost').first().waitFor(settle);
    await disputes.getByText(gbp.format(150)).first().waitFor(settle);
  });
});
