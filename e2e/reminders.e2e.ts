import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
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
  emailAddresses: [{ emailAddress: 'payables@reminder-journey.example', type: 'Accounts', isDefault: true }],
};

// Issue 23: a reminder schedule made the company default, an overdue invoice, the run (Send now
// from the preview), the mail in the mail drop with its statement link, and the account's
// Reminders tab.
describe('reminders', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let erp: Connector;
  let accountId = '';

  beforeAll(async () => {
    server = await startServer({ env: { FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true' } });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const created = await callApi(context, server.url, '/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Reminders connector' },
    });
    expect(created.status()).toBe(201);
    const { accessKey } = (await created.json()) as { accessKey: string };
    erp = connector(server.url, accessKey, 1);
    accountId = (
      await erp.expect<{ id: string }>(201, '/api/v0/accounts', { json: account, idempotencyKey: randomUUID() })
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

  it('makes a schedule the default, sends the overdue invoice’s reminder, mails it with a statement link and lists it on the account', async () => {
    await page.goto(`${server.url}/settings/reminders`);
    await page.getByRole('heading', { name: 'Reminder Schedules' }).waitFor();
    await page.getByText('No reminder schedules yet.').waitFor();
    await page.getByRole('button', { name: 'New Reminder Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Reminder Schedule' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Friendly dunning');
    await dialog.getByRole('textbox', { name: 'Step 1: days from the due date' }).fill('7');
    await dialog.getByRole('textbox', { name: 'Step 1 subject' }).fill('{account}: invoices overdue at {company}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('table', { name: 'Reminder schedules' }).getByRole('row').filter({ hasText: 'Friendly dunning' });
    await row.getByText('7 after').waitFor();

    await page.getByRole('textbox', { name: 'Default schedule' }).click();
    await page.getByRole('option', { name: 'Friendly dunning' }).click();
    await page.getByRole('button', { name: 'Save run settings' }).click();
    await row.getByText('Default', { exact: true }).waitFor();

    // What goes out today: the account, then Send now.
    await page.getByRole('textbox', { name: 'Day' }).fill(dayIn(0));
    await page.getByRole('heading', { name: `What goes out on ${dayIn(0)}` }).waitFor();
    const toSend = page.getByRole('table', { name: 'Reminders to send' }).getByRole('row').filter({ hasText: account.accountReference });
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
    const kept = page.getByRole('table', { name: 'Reminders' }).getByRole('row').filter({ hasText: 'INV-REM-1' });
    await kept.getByText('payables@reminder-journey.example').waitFor();
    await kept.getByText('Sent').waitFor();

    // The account's Settings tab offers the schedule, and pausing.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Reminder schedule' }).waitFor();
    await page.getByRole('switch', { name: 'Pause reminders' }).waitFor();
  });
});
