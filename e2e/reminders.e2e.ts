import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
import { chooseCompany, createDemoCompany, getInCompany } from './support/demo.js';
import { waitForMail } from './support/mail.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

const day = 24 * 60 * 60 * 1000;
/** The calendar day `days` from now (UTC). */
const dayIn = (days: number) => new Date(Date.now() + days * day).toISOString().slice(0, 10);
const account = {
  accountReference: 'REM-E2E-1',
  name: 'Reminder Journey Ltd',
  currency: 'GBP',
  emailAddresses: [
    { emailAddress: 'payables@reminder-journey.example', type: 'Accounts', isDefault: true },
  ],
};

// A reminder schedule made the company default, an overdue invoice, the run (Send now
// from the preview), the mail in the mail drop with its statement link, the account's Reminders
// tab, the link paid by the payer, and the aged receivables report before and after. In a demo
// company: the Sandbox, which takes the payment, belongs to demo companies.
describe('reminders', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let erp: Connector;
  let accountId = '';
  let companyId = 1;
  type Aged = { items: { accountId: string; days1to30: number; total: number }[] };
  const agedRowOf = async () =>
    (
      await getInCompany<Aged>(
        context,
        server.url,
        companyId,
        `/api/v0/reports/aged-receivables?asOf=${dayIn(0)}&itemsPerPage=1000`,
      )
    ).items.find((row) => row.accountId === accountId);

  beforeAll(async () => {
    server = await startServer({
      env: { FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true,SandboxProvider=true' },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    companyId = await createDemoCompany(context, server.url, 'Reminders Demo', 'REM-DEMO');
    await chooseCompany(page, companyId);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const created = await callApi(context, server.url, '/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Reminders connector' },
      headers: { 'dataset-id': String(companyId) },
    });
    expect(created.status()).toBe(201);
    const { accessKey } = (await created.json()) as { accessKey: string };
    erp = connector(server.url, accessKey, companyId);
    accountId = (
      await erp.expect<{ id: string }>(201, '/api/v0/accounts', {
        json: account,
        idempotencyKey: randomUUID(),
      })
    ).id;
    await erp.expect(201, '/api/v0/transactions?match-existing=false', {
      json: {
        accountReference: account.accountReference,
        transactionReference: 'INV-REM-1',
        transactionType: 'Invoice',
        transactionDate: dayIn(-40),
        dueDate: dayIn(-10),
        currency: 'GBP',
        transactionAmount: 480,
      },
      idempotencyKey: randomUUID(),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('makes a schedule the default, sends the overdue invoice’s reminder, mails it with a statement link, lists it on the account, and the link paid leaves the aged report', async () => {
    // The aged report before: the invoice, ten days past due, in the 1–30 days bucket.
    const before = await agedRowOf();
    expect(before?.days1to30).toBeGreaterThanOrEqual(480);
    await page.goto(`${server.url}/settings/reminders`);
    await page.getByRole('heading', { name: 'Reminder Schedules' }).waitFor();
    await page.getByText('No reminder schedules yet.').waitFor();
    await page.getByRole('button', { name: 'New Reminder Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Reminder Schedule' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Friendly dunning');
    await dialog.getByRole('textbox', { name: 'Step 1: days from the due date' }).fill('7');
    await dialog
      .getByRole('textbox', { name: 'Step 1 subject' })
      .fill('{account}: invoices overdue at {company}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page
      .getByRole('table', { name: 'Reminder schedules' })
      .getByRole('row')
      .filter({ hasText: 'Friendly dunning' });
    await row.getByText('7 after').waitFor();

    await page.getByRole('textbox', { name: 'Default schedule' }).click();
    await page.getByRole('option', { name: 'Friendly dunning' }).click();
    await page.getByRole('button', { name: 'Save run settings' }).click();
    await row.getByText('Default', { exact: true }).waitFor();

    // What goes out today: the account, then Send now.
    // The day is typed as YYYY-MM-DD and shown in the user's format (the default yyyy/MM/dd).
    await page.getByRole('textbox', { name: 'Day' }).fill(dayIn(0));
    await page
      .getByRole('heading', { name: `What goes out on ${dayIn(0).replaceAll('-', '/')}` })
      .waitFor();
    const toSend = page
      .getByRole('table', { name: 'Reminders to send' })
      .getByRole('row')
      .filter({ hasText: account.accountReference });
    await toSend.getByText('INV-REM-1').waitFor();
    await toSend.getByRole('button', { name: 'Send now' }).click();
    await page.getByText(`Reminder sent to ${account.name}`).waitFor();

    const mail = await waitForMail(server.dataDir, 'payables@reminder-journey.example');
    expect(mail.headers.get('subject')).toContain(`${account.name}: invoices overdue at`);
    expect(mail.text).toContain('INV-REM-1');
    expect(mail.text).toContain('GBP 480.00');
    const link = /https?:\/\/[^\s]+\/statement\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    // Sent: the preview of the day no longer lists the account.
    await toSend.waitFor({ state: 'detached' });
    // The account keeps it: its Reminders tab.
    await page.goto(`${server.url}/accounts/${accountId}`);
    await page.getByRole('tab', { name: 'Reminders' }).click();
    const kept = page
      .getByRole('table', { name: 'Reminders' })
      .getByRole('row')
      .filter({ hasText: 'INV-REM-1' });
    await kept.getByText('payables@reminder-journey.example').waitFor();
    await kept.getByText('Sent').waitFor();

    // The account's Settings tab offers the schedule, and pausing.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Reminder schedule' }).waitFor();
    await page.getByRole('switch', { name: 'Pause reminders' }).waitFor();

    // The payer follows the mail's link, with no session, and pays the invoice on it.
    const payer = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    payer.setDefaultTimeout(15_000);
    const payerPage = await payer.newPage();
    await payerPage.goto(link!);
    await payerPage
      .getByRole('heading', { level: 1, name: `Statement for ${account.name}` })
      .waitFor();
    expect(
      await payerPage.getByRole('checkbox', { name: 'Pay invoice INV-REM-1' }).isChecked(),
    ).toBe(true);
    await Promise.all([
      payerPage.waitForURL(/\/pay\/[0-9a-f-]{36}$/),
      payerPage.getByRole('button', { name: /^Pay £/ }).click(),
    ]);
    await payerPage.getByRole('heading', { level: 1, name: /Pay / }).waitFor();
    await payerPage.getByLabel('First names').fill('Ruth');
    await payerPage.getByLabel('Surname').fill('Okafor');
    await payerPage.getByLabel('Email address').fill('ruth@reminder-journey.example');
    await payerPage.getByRole('radio', { name: /Sandbox/ }).check();
    await payerPage.getByRole('button', { name: /^Pay £/ }).click();
    await payerPage.getByRole('heading', { name: 'Card details' }).waitFor();
    await payerPage.getByLabel('Name on card').fill('Ruth Okafor');
    await payerPage.getByLabel('Card number').fill('4242424242424242');
    await payerPage.getByLabel(/Expiry date/).fill('12/30');
    await payerPage.getByLabel(/Security code/).fill('123');
    await payerPage.getByRole('button', { name: /^Pay £/ }).click();
    await payerPage.getByRole('heading', { name: 'Payment successful, thank you' }).waitFor();
    await payer.close();

    // Paid: the aged report no longer counts the invoice, and the Reports page says so too.
    const after = await agedRowOf();
    expect((after?.total ?? 0) + 480).toBeCloseTo(before!.total, 2);
    await page.goto(`${server.url}/reports`);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Aged receivables' }).waitFor();
  });
});
