import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
import { waitForMail } from './support/mail.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

// A payment request's link takes the money. Staff make a request for two invoices; a
// payer with no session opens its link on a phone, sees the early-payment discount, pays with the
// Sandbox card; staff see the payment Paid with two allocations and the offer Used, and the mails
// go out. A declined card shows the failure and leaves the request Open.
//
// WRITTEN ON THE BROWSER BRANCH (payweb) BEFORE THE SERVER SIDE (branch pay) EXISTED: it needs
// /api/v0/pay/* from that branch, and the lead wires `createRequestForInvoices` below to the call
// that branch (or the lead) gives staff for a request of several existing invoices.

const settle = { timeout: 15_000 };
const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const day = 24 * 60 * 60 * 1000;
const dayIn = (days: number) => new Date(Date.now() + days * day).toISOString().slice(0, 10);
const longDate = (isoDay: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );

const account = {
  accountReference: 'PAY001',
  name: 'Payer Page Ltd',
  currency: 'GBP',
  emailAddresses: [
    { emailAddress: 'accounts@payerpage.example', type: 'Accounts', isDefault: true },
  ],
};
const payerDetails = { firstNames: 'Ruth', surname: 'Okafor' };

interface Invoices {
  discounted: { id: string; reference: string; offerId: string };
  plain: { id: string; reference: string };
}

describe('the payer page', () => {
  let server: RunningServer;
  let browser: Browser;
  let staff: BrowserContext;
  let staffPage: Page;
  let erp: Connector;
  let accountId: string;
  /** The demo company the journey works in: the Sandbox belongs to demo companies. */
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

  /** Two fresh invoices: £1,200 with a 2 % early-payment offer for ten days, and £300. */
  async function pushInvoices(label: string): Promise<Invoices> {
    const push = async (reference: string, amount: number) =>
      (
        await erp.expect<{ id: string }>(201, '/api/v0/transactions?match-existing=false', {
          json: {
            accountReference: account.accountReference,
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
    const discountedReference = `INV-PAY-${label}-1`;
    const plainReference = `INV-PAY-${label}-2`;
    const discountedId = await push(discountedReference, 1200);
    const plainId = await push(plainReference, 300);
    const offer = await api<{ id: string }>(
      `/api/v0/transactions/${discountedId}/settlement-offers`,
      {
        method: 'POST',
        json: {
          type: 'PercentageDiscount',
          percentageDiscount: 2,
          description: 'Early payment: 2% within 10 days',
          validUntil: dayIn(10),
        },
      },
    );
    return {
      discounted: { id: discountedId, reference: discountedReference, offerId: offer.id },
      plain: { id: plainId, reference: plainReference },
    };
  }

  /** One Transaction request for both invoices (POST payment-requests with transactionAllocations). */
  async function createRequestForInvoices(invoices: Invoices) {
    return api<{ id: string; requestUrl: string }>('/api/v0/payment-requests', {
      method: 'POST',
      json: {
        requestType: 'Transaction',
        accountId,
        currency: 'GBP',
        captureType: 'Immediate',
        usageType: 'Single',
        description: 'Two invoices',
        transactionAllocations: [
          { transactionId: invoices.discounted.id },
          { transactionId: invoices.plain.id },
        ],
      },
    });
  }

  /** A payer on a 390 px phone, with no session of any kind. */
  async function payerPage() {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    context.setDefaultTimeout(15_000);
    return { context, page: await context.newPage() };
  }

  async function payWithSandboxCard(page: Page, email: string, cardNumber: string, total: string) {
    await page.getByLabel('First names').fill(payerDetails.firstNames);
    await page.getByLabel('Surname').fill(payerDetails.surname);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('radio', { name: /Sandbox/ }).check();
    await page.getByRole('button', { name: `Pay ${total}` }).click();
    await page.getByRole('heading', { name: 'Card details' }).waitFor();
    // A test provider: the page lists the cards to use.
    await page.getByText('4242 4242 4242 4242').waitFor();
    await page
      .getByLabel('Name on card')
      .fill(`${payerDetails.firstNames} ${payerDetails.surname}`);
    await page.getByLabel('Card number').fill(cardNumber);
    await page.getByLabel(/Expiry date/).fill('12/30');
    await page.getByLabel(/Security code/).fill('123');
    await page.getByRole('button', { name: `Pay ${total}` }).click();
  }

  beforeAll(async () => {
    server = await startServer({
      env: {
        FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true,SandboxProvider=true',
      },
    });
    browser = await launchBrowser();
    staff = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    staff.setDefaultTimeout(15_000);
    staffPage = await staff.newPage();
    await signInThroughBrowser(staffPage, server.url, server.adminEmail, server.adminPassword);
    await staffPage.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // Ledgerline's Sandbox test provider moves no money, so it belongs to demo companies only:
    // the company is one, chosen from the top bar as staff would.
    const companyName = 'Payer Page Demo';
    companyId = (
      await api<{ id: number }>('/api/v0/data-sets', {
        method: 'POST',
        json: {
          name: companyName,
          hostSystemName: 'Sage200Pro',
          hostId: 'PAY-DEMO',
          customHostId: 'PAY-DEMO',
          hostDemoSystem: true,
        },
      })
    ).id;
    const deadline = Date.now() + 30_000;
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
      json: { name: 'Payer page connector' },
    });
    erp = connector(server.url, accessKey, companyId);
    accountId = (
      await erp.expect<{ id: string }>(201, '/api/v0/accounts', {
        json: account,
        idempotencyKey: randomUUID(),
      })
    ).id;

    // The company takes cards through Ledgerline's Sandbox provider, its default: a demo company
    // comes with it.
    const { paymentProviderId } = await api<{ paymentProviderId: string | null }>(
      '/api/v0/providers/default',
    );
    expect(paymentProviderId).not.toBeNull();
    expect(await api(`/api/v0/providers/${paymentProviderId}`)).toMatchObject({
      providerName: 'Sandbox',
      enabled: true,
      isTest: true,
      isDefault: true,
      paymentMethodConfigurations: [{ paymentMethodType: 'Card', enabled: true }],
    });

    // The administrator hears of every successful payment (spec 3 §5).
    const me = await api<{ id: string }>('/api/v0/users/me');
    await api('/api/v0/notifications/users', {
      method: 'POST',
      json: {
        type: 'LedgerlineUser',
        userId: me.id,
        notificationSettings: [{ notificationName: 'TenantPaymentSuccessful', isEnabled: true }],
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('takes a card payment for two invoices with the early-payment discount', async () => {
    const invoices = await pushInvoices('A');
    const request = await createRequestForInvoices(invoices);
    expect(request.requestUrl).toBe(`${server.url}/pay/${request.id}`);
    const payerEmail = 'ruth.okafor@payerpage.example';

    const { context, page } = await payerPage();
    await page.goto(request.requestUrl);
    await page.getByRole('heading', { level: 1, name: /Pay / }).waitFor(settle);
    expect(await context.cookies()).toEqual([]);
    const list = page.getByRole('list', { name: 'Invoices' });
    const discounted = list
      .getByRole('listitem')
      .filter({ hasText: invoices.discounted.reference });
    await discounted.getByText('Early-payment discount if paid today').waitFor();
    await discounted.getByText(`−${gbp.format(24)}`).waitFor();
    await discounted
      .getByText(`Pay by ${longDate(dayIn(10))} to keep the discount of ${gbp.format(24)}`, {
        exact: false,
      })
      .waitFor();
    await list
      .getByRole('listitem')
      .filter({ hasText: invoices.plain.reference })
      .getByText(gbp.format(300))
      .first()
      .waitFor();
    const total = gbp.format(1200 - 24 + 300);
    await page.getByText('Total to pay').waitFor();

    // Nothing serious for a screen reader or a keyboard.
    const scan = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    const serious = scan.violations.filter((violation) =>
      ['serious', 'critical'].includes(violation.impact ?? ''),
    );
    expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    // Usable on the phone: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    await payWithSandboxCard(page, payerEmail, '4242424242424242', total);
    const outcome = page.getByRole('heading', { name: 'Payment successful, thank you' });
    await outcome.waitFor(settle);
    await expect.poll(() => outcome.evaluate((node) => node === document.activeElement)).toBe(true);
    const paymentId = new URL(page.url()).searchParams.get('payment');
    expect(paymentId).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByRole('region', { name: 'Receipt' }).getByText(total).waitFor();

    // The request is paid: opening its link again says so.
    await page.goto(request.requestUrl);
    await page.getByRole('heading', { level: 1, name: 'Paid, thank you' }).waitFor(settle);
    await context.close();

    // Staff: the payment Paid, allocated to both invoices; the offer Used.
    const payment = await api<{
      status: string;
      paymentAllocations: { transactionId: string; allocatedAmount: number }[];
    }>(`/api/v0/payment-transactions/${paymentId}`);
    expect(payment.status).toBe('Paid');
    expect(
      payment.paymentAllocations
        .map((allocation) => [allocation.transactionId, allocation.allocatedAmount])
        .sort(),
    ).toEqual(
      [
        [invoices.discounted.id, 1176],
        [invoices.plain.id, 300],
      ].sort(),
    );
    const discountedInvoice = await api<{ settlementOffers: { id: string; status: string }[] }>(
      `/api/v0/transactions/${invoices.discounted.id}`,
    );
    expect(
      discountedInvoice.settlementOffers.find((offer) => offer.id === invoices.discounted.offerId)
        ?.status,
    ).toBe('Used');
    const paidRequest = await api<{ requestStatus: string }>(
      `/api/v0/payment-requests/${request.id}`,
    );
    expect(paidRequest.requestStatus).toBe('Completed');

    await staffPage.goto(`${server.url}/payment-transactions/${paymentId}`);
    await staffPage.getByText('Paid', { exact: true }).first().waitFor(settle);
    await staffPage.getByRole('tab', { name: /Payment allocations/ }).click();
    const allocations = staffPage.getByRole('table', { name: 'Payment allocations' });
    // One row per invoice, each linking to its transaction, with the amount allocated to it.
    await allocations
      .getByRole('row')
      .filter({ hasText: /1,176\.00/ })
      .waitFor(settle);
    await allocations
      .getByRole('row')
      .filter({ hasText: /300\.00/ })
      .waitFor(settle);
    // Each invoice linked by its reference.
    const links = allocations.getByRole('link');
    expect(await links.count()).toBe(2);
    expect(
      (
        await links.evaluateAll((nodes) =>
          nodes.map((node) => `${node.textContent} ${node.getAttribute('href')}`),
        )
      ).sort(),
    ).toEqual(
      [
        `${invoices.discounted.reference} /transactions/${invoices.discounted.id}`,
        `${invoices.plain.reference} /transactions/${invoices.plain.id}`,
      ].sort(),
    );

    // The payer's receipt and the staff's TenantPaymentSuccessful mail.
    const receiptMail = await waitForMail(server.dataDir, payerEmail);
    expect(receiptMail.text).toContain('GBP 1476.00');
    const staffMail = await waitForMail(server.dataDir, server.adminEmail);
    expect(staffMail.text).toContain('GBP 1476.00');
  });

  it('shows what to pay before any JavaScript runs, where the app then shows it', async () => {
    const invoices = await pushInvoices('D');
    const request = await createRequestForInvoices(invoices);
    const total = gbp.format(1200 - 24 + 300);
    const where = async (javaScriptEnabled: boolean) => {
      const context = await browser.newContext({
        viewport: { width: 1366, height: 900 },
        javaScriptEnabled,
      });
      const page = await context.newPage();
      await page.goto(request.requestUrl);
      // The Pay button comes with the JavaScript.
      if (javaScriptEnabled)
        await page.getByRole('button', { name: `Pay ${total}` }).waitFor(settle);
      const heading = page.getByRole('heading', { level: 1, name: /^Pay / });
      await heading.waitFor();
      const list = page.getByRole('list', { name: 'Invoices' });
      await list.getByText(`Invoice ${invoices.discounted.reference}`).waitFor();
      await list.getByText(`Invoice ${invoices.plain.reference}`).waitFor();
      await page.getByText('Total to pay').waitFor();
      await page.getByRole('definition').filter({ hasText: total }).last().waitFor();
      const summary = await page
        .getByRole('heading', { name: 'What you are paying' })
        .boundingBox();
      const text = await page.locator('#root').innerText();
      await context.close();
      return { summary, text };
    };
    const before = await where(false);
    const after = await where(true);
    // On a wide screen the app renders over the server's screen: the summary does not move.
    expect(after.summary).toEqual(before.summary);
    expect(before.text).not.toContain('Loading');
  });

  it('shows a declined card and leaves the request Open', async () => {
    const invoices = await pushInvoices('B');
    const request = await createRequestForInvoices(invoices);
    const total = gbp.format(1200 - 24 + 300);

    const { context, page } = await payerPage();
    await page.goto(request.requestUrl);
    await page.getByRole('heading', { level: 1, name: /Pay / }).waitFor(settle);
    await payWithSandboxCard(page, 'declined@payerpage.example', '4000000000000002', total);
    await page.getByRole('heading', { name: 'Payment failed' }).waitFor(settle);
    await page.getByRole('button', { name: 'Pay again' }).waitFor();
    const paymentId = new URL(page.url()).searchParams.get('payment');

    // Back to the form: the request is still there to pay.
    await page.getByRole('button', { name: 'Pay again' }).click();
    await page.getByRole('button', { name: `Pay ${total}` }).waitFor();
    await context.close();

    const open = await api<{ requestStatus: string }>(`/api/v0/payment-requests/${request.id}`);
    expect(open.requestStatus).toBe('Open');
    const failed = await api<{ status: string; paymentAllocations: unknown[] }>(
      `/api/v0/payment-transactions/${paymentId}`,
    );
    expect(failed.status).not.toBe('Paid');
    expect(failed.paymentAllocations).toEqual([]);
    const invoice = await api<{ settlementOffers: { id: string; status: string }[] }>(
      `/api/v0/transactions/${invoices.discounted.id}`,
    );
    expect(
      invoice.settlementOffers.find((offer) => offer.id === invoices.discounted.offerId)?.status,
    ).toBe('Open');
  });

  it('lets the payer change what they pay of an invoice where the company allows it', async () => {
    // "Can payments be edited": Allow; the account follows the company (Default).
    await api('/api/v0/company-settings/preferences', {
      method: 'PUT',
      json: { defaultEditPaymentStatus: 'Allow' },
    });
    try {
      const invoices = await pushInvoices('C');
      const request = await createRequestForInvoices(invoices);
      const { context, page } = await payerPage();
      await page.goto(request.requestUrl);
      await page.getByRole('heading', { level: 1, name: /Pay / }).waitFor(settle);
      const amount = page.getByLabel(`Amount for invoice ${invoices.discounted.reference} (GBP)`);
      expect(await amount.inputValue()).toBe('1176.00');
      await page
        .getByText(
          `Between ${gbp.format(0.01)} and ${gbp.format(1176)}; ${gbp.format(1176)} pays it in full.`,
        )
        .first()
        .waitFor();
      await amount.fill('500');
      await page.getByText(`Total of this payment: ${gbp.format(800)}`).waitFor();

      const scan = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      const serious = scan.violations.filter((violation) =>
        ['serious', 'critical'].includes(violation.impact ?? ''),
      );
      expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );

      await payWithSandboxCard(page, 'part@payerpage.example', '4242424242424242', gbp.format(800));
      await page.getByRole('heading', { name: 'Payment successful, thank you' }).waitFor(settle);
      const paymentId = new URL(page.url()).searchParams.get('payment');
      await context.close();

      // The allocations follow the chosen amounts; a part gives up the discount: the offer stays.
      const payment = await api<{
        status: string;
        paymentAllocations: { transactionId: string; allocatedAmount: number }[];
      }>(`/api/v0/payment-transactions/${paymentId}`);
      expect(payment.status).toBe('Paid');
      expect(
        payment.paymentAllocations
          .map((allocation) => [allocation.transactionId, allocation.allocatedAmount])
          .sort(),
      ).toEqual(
        [
          [invoices.discounted.id, 500],
          [invoices.plain.id, 300],
        ].sort(),
      );
      const invoice = await api<{ settlementOffers: { id: string; status: string }[] }>(
        `/api/v0/transactions/${invoices.discounted.id}`,
      );
      expect(
        invoice.settlementOffers.find((offer) => offer.id === invoices.discounted.offerId)?.status,
      ).toBe('Open');
    } finally {
      await api('/api/v0/company-settings/preferences', {
        method: 'PUT',
        json: { defaultEditPaymentStatus: 'Disable' },
      });
    }
  });
});
