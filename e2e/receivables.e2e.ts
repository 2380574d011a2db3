import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { connector, type Connector } from './support/connector.js';
import { minimalPdf, parseCsv, toCsv } from './support/files.js';
import { bodyRows, chooseFilter, clearFilter, typeFilter } from './support/grid.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

/** How long a screen may take to show what the test waits for. */
const settle = { timeout: 10_000 };

const gbp = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const day = 24 * 60 * 60 * 1000;
/** The calendar day `days` from now, YYYY-MM-DD (transaction and due dates are days). */
const dayIn = (days: number) => new Date(Date.now() + days * day).toISOString().slice(0, 10);

const companyName = 'Abbey Demo Trading';
/** Sorts before the demo data's ACC000001…, so it is among the first accounts everywhere. */
const account = {
  accountReference: 'ABB001',
  name: 'Abbey Mills Ltd',
  shortName: 'ABBEY',
  currency: 'GBP',
  balance: 1680,
  creditLimit: 10000,
  emailAddresses: [
    { emailAddress: 'accounts@abbeymills.example', type: 'Accounts', isDefault: true },
  ],
  contacts: [{ firstNames: 'Ruth', surname: 'Okafor', jobTitle: 'Finance Manager' }],
  addresses: [
    {
      type: 'Billing',
      address1: '4 Mill Lane',
      city: 'Leeds',
      postCode: 'LS1 4AB',
      country: 'United Kingdom',
    },
  ],
};
const payer = {
  companyName: 'Abbey Mills Ltd',
  firstNames: 'Ruth',
  surname: 'Okafor',
  emailAddress: 'ruth.okafor@abbeymills.example',
  city: 'Leeds',
};
/** What the ERP sends: an open invoice, one that will be paid in the ERP, and a credit note. */
const invoiceDue = dayIn(28);
const openInvoice = {
  accountReference: account.accountReference,
  transactionReference: 'INV-E2E-1001',
  transactionType: 'Invoice',
  transactionDate: dayIn(-2),
  dueDate: invoiceDue,
  currency: 'GBP',
  transactionAmount: 1200,
  description: 'Spring order: 40 bales',
  paymentTermsDescription: '30 days from transaction date',
};
const paidLaterInvoice = {
  ...openInvoice,
  transactionReference: 'INV-E2E-1002',
  transactionDate: dayIn(-20),
  dueDate: dayIn(10),
  transactionAmount: 480,
  description: 'Winter order: 16 bales',
};
const creditNote = {
  ...openInvoice,
  transactionReference: 'CRN-E2E-0001',
  transactionType: 'CreditNote',
  transactionDate: dayIn(-1),
  dueDate: null,
  transactionAmount: 60,
  description: 'Two bales returned',
};

/** The documented export columns (docs/api.md "Export"), in order. */
const exportColumns = [
  'PaymentTransactionId',
  'Type',
  'Status',
  'AllocatedStatus',
  'Reference',
  'CreatedOn',
  'StatusDateTime',
  'Currency',
  'TotalAmount',
  'Fee',
  'FeeCurrency',
  'CustomerName',
  'CompanyName',
  'AccountId',
  'PaymentRequestId',
  'PaymentProvider',
  'PaymentProviderReference',
  'PaymentMethodType',
  'AllocationId',
  'AllocationType',
  'AllocationStatus',
  'AllocationEntityType',
  'AllocationTransactionId',
  'AllocationAccountId',
  'DiscountedAmount',
  'AllocatedAmount',
];

/** A side-menu entry of the shell. */
async function openMenuEntry(page: Page, name: string, heading: string) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name, exact: true })
    .click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** Accounts in the side menu, then the connector's account from the list. */
async function openAccount(page: Page) {
  await openMenuEntry(page, 'Accounts', 'Accounts');
  const row = bodyRows(page.getByRole('table', { name: 'Accounts' })).filter({
    has: page.getByRole('cell', { name: account.accountReference, exact: true }),
  });
  await row.waitFor();
  expect(await row.textContent()).toContain(account.name);
  await row.getByRole('link', { name: `View ${account.accountReference}` }).click();
  await page
    .getByRole('heading', { name: `${account.accountReference} - ${account.name}`, level: 1 })
    .waitFor();
}

/** A value of a labelled read-only field of a details card ('Account' → 'ABB001 – …'). */
function fieldValue(scope: Locator, label: string): Locator {
  return scope.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');
}

/** The id at the end of the page's address (/transactions/<id>). */
const idInUrl = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

// Receivables: an ERP connector fills a company through the API, and staff work its
// accounts, payment requests, payments, exports and imports, documents and settlement offers on
// the site (spec 2 §2–§9, docs/api.md).
describe('receivables', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let datasetId: number;
  let erp: Connector;
  /** Ids the connector got back. */
  const ids: Record<string, string> = {};
  /** The export the site downloaded, for the import to send back edited. */
  let exported: string[][] = [];

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // A demo company (README): accounts, invoices and a few hundred payments, pending ones on
    // the sandbox provider. Adding companies is the administration journey's; here the API does it.
    const created = await callApi(context, server.url, '/api/v0/data-sets', {
      method: 'POST',
      json: {
        name: companyName,
        hostSystemName: 'Sage200Pro',
        hostId: 'ABB-DEMO',
        customHostId: 'ABB-DEMO',
        hostDemoSystem: true,
      },
    });
    expect(created.status()).toBe(201);
    datasetId = ((await created.json()) as { id: number }).id;
    const statusOfCompany = async () => {
      const all = await callApi(context, server.url, '/api/v0/data-sets/all');
      const { items } = (await all.json()) as { items: { id: number; status: string }[] };
      return items.find((dataset) => dataset.id === datasetId)?.status;
    };
    // (expect.poll belongs to tests; this is the setup's own wait.)
    const deadline = Date.now() + 30_000;
    while ((await statusOfCompany()) !== 'Active' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await statusOfCompany()).toBe('Active');

    // Staff work in it: chosen from the top bar, which reloads the site.
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const companyButton = page.getByRole('button', { name: /^Company(: |$)/ });
    await companyButton.click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page
      .getByRole('button', { name: /^Company(: |$)/ })
      .getByText(companyName, { exact: true })
      .waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('takes an account, its payer and invoices from an ERP connector holding an access key', async () => {
    const created = await callApi(context, server.url, '/api/v0/access-keys', {
      method: 'POST',
      json: { name: 'Sage 200 connector' },
    });
    expect(created.status()).toBe(201);
    const { accessKey } = (await created.json()) as { accessKey: string };
    erp = connector(server.url, accessKey, datasetId);

    // Without the key the API is closed.
    const anonymous = await fetch(`${server.url}/api/v0/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'dataset-id': String(datasetId) },
      body: JSON.stringify(account),
    });
    expect(anonymous.status).toBe(401);

    const accountKey = randomUUID();
    const pushed = await erp.expect<{ id: string; accountReference: string }>(
      201,
      '/api/v0/accounts',
      {
        json: account,
        idempotencyKey: accountKey,
      },
    );
    expect(pushed.accountReference).toBe(account.accountReference);
    ids.account = pushed.id;
    // The connector lost the answer and retries: the first answer again, nothing new created.
    const retry = await erp.call('/api/v0/accounts', { json: account, idempotencyKey: accountKey });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(((await retry.json()) as { id: string }).id).toBe(ids.account);

    await erp.expect(201, `/api/v0/accounts/${ids.account}/payers`, {
      json: payer,
      idempotencyKey: randomUUID(),
    });
    for (const transaction of [openInvoice, paidLaterInvoice, creditNote]) {
      const answer = await erp.expect<{ id: string; paidStatus: string; accountId: string }>(
        201,
        '/api/v0/transactions?match-existing=false',
        { json: transaction, idempotencyKey: randomUUID() },
      );
      expect(answer.paidStatus).toBe('Unpaid');
      expect(answer.accountId).toBe(ids.account);
      ids[transaction.transactionReference] = answer.id;
    }
    // The same invoice again without match-existing is refused rather than doubled.
    const again = await erp.call('/api/v0/transactions', {
      json: openInvoice,
      idempotencyKey: randomUUID(),
    });
    expect(again.status).toBe(409);
  });

  it('shows the account with its invoices, and creates a payment request with its QR code', async () => {
    await openAccount(page);
    expect(idInUrl(page)).toBe(ids.account);
    await page.getByText('accounts@abbeymills.example', { exact: true }).waitFor();
    // Count badges on the tabs: three transactions, one payer.
    await page
      .getByRole('tab', { name: /^Transactions/ })
      .getByLabel('3 transactions')
      .waitFor();
    await page
      .getByRole('tab', { name: /^Payers/ })
      .getByLabel('1 payers')
      .waitFor();

    await page.getByRole('tab', { name: /^Transactions/ }).click();
    const transactions = page.getByRole('table', { name: 'Transactions' });
    for (const reference of [openInvoice, paidLaterInvoice, creditNote].map(
      (t) => t.transactionReference,
    )) {
      await bodyRows(transactions).filter({ hasText: reference }).waitFor();
    }

    // New Request on the account page: an Account request with the account's defaults (spec 2 §2).
    await page.getByRole('button', { name: 'New Request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Request' });
    await dialog
      .getByText(`A payment request for ${account.accountReference} – ${account.name}.`)
      .waitFor();
    const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
    expect(await field('Capture type').inputValue()).toBe('Immediate');
    expect(await field('Currency').inputValue()).toBe('GBP');
    expect(await field('Customer name').inputValue()).toBe(account.name);
    expect(await field('Customer reference').inputValue()).toBe(account.accountReference);
    expect(await field('Company name').inputValue()).toBe(account.name);
    expect(await field('Email').inputValue()).toBe('accounts@abbeymills.example');
    await field('Amount').fill('250');
    await field('Description').fill('  Deposit for the summer order  ');
    await field('First name').fill(payer.firstNames);
    await field('Last name').fill(payer.surname);
    const createdResponse = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        response.url().endsWith('/api/v0/payment-requests'),
    );
    await dialog.getByRole('button', { name: 'Create' }).click();
    const created = await createdResponse;
    expect(created.status()).toBe(201);
    const request = (await created.json()) as {
      id: string;
      requestUrl: string;
      requestType: string;
    };
    expect(request.requestType).toBe('Account');
    await page.getByText('New payment request created').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The account's Payment requests tab opens with the new request, its badge counting it.
    await page
      .getByRole('tab', { name: /^Payment requests/ })
      .getByLabel('1 payment requests')
      .waitFor();
    const requests = page.getByRole('table', { name: 'Payment requests' });
    const row = bodyRows(requests).filter({ hasText: gbp.format(250) });
    await row.waitFor();
    expect(await row.textContent()).toContain('Open');
    await row.getByRole('link', { name: /^View payment request/ }).click();
    await page.waitForURL(`${server.url}/payment-requests/${request.id}`);
    await page.getByRole('heading', { name: gbp.format(250), level: 1 }).waitFor();
    const info = page.getByRole('tabpanel', { name: 'Info' });
    expect(await fieldValue(info, 'Account').textContent()).toBe(
      `${account.accountReference} – ${account.name}`,
    );
    expect(await fieldValue(info, 'Customer name').textContent()).toBe(account.name);
    // Trimmed before sending.
    expect(await fieldValue(info, 'Description').textContent()).toBe(
      'Deposit for the summer order',
    );
    expect(await fieldValue(info, 'Capture type').textContent()).toBe('Immediate');
    expect(await fieldValue(info, 'Name').first().textContent()).toBe(
      `${payer.firstNames} ${payer.surname}`,
    );
    expect(request.requestUrl).toBe(`${server.url}/pay/${request.id}`);

    await info.getByRole('button', { name: 'QR code' }).click();
    const qr = page.getByRole('dialog', { name: 'Payment QR code' });
    const code = qr.getByRole('img', { name: `QR code of ${request.requestUrl}` });
    await code.waitFor();
    expect(await qr.getByText(request.requestUrl, { exact: true }).count()).toBe(1);
    // spec 2 §9: 256 pixels square.
    const box = await code.boundingBox();
    expect([Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)]).toEqual([256, 256]);
    await page.keyboard.press('Escape');
    await qr.waitFor({ state: 'hidden' });
  });

  it('captures a pending payment behind a yes/no confirmation; the sandbox declines .99', async () => {
    await openMenuEntry(page, 'Payment Transactions', 'Payment Transactions');
    const payments = page.getByRole('table', { name: 'Payment transactions' });
    await bodyRows(payments).first().waitFor();
    await chooseFilter(page, payments, 'Status', 'Pending');
    await expect
      .poll(async () => {
        const rows = await bodyRows(payments).allTextContents();
        return rows.length > 0 && rows.every((text) => text.includes('Pending'));
      }, settle)
      .toBe(true);
    await bodyRows(payments)
      .first()
      .getByRole('link', { name: /^View payment / })
      .click();
    await page.waitForURL(/\/payment-transactions\/[0-9a-f-]{36}$/);
    const paymentId = idInUrl(page);
    const before = (await (
      await callApi(context, server.url, `/api/v0/payment-transactions/${paymentId}`, {
        headers: { 'dataset-id': String(datasetId) },
      })
    ).json()) as { totalAmount: number; status: string; ledgerlineReference: string };
    expect(before.status).toBe('Pending');
    await page.getByRole('heading', { name: gbp.format(before.totalAmount), level: 1 }).waitFor();
    await page.getByText('Pending', { exact: true }).first().waitFor();

    const capture = async (amount: string) => {
      await page.getByRole('button', { name: 'Pending payment' }).click();
      await page.getByRole('menuitem', { name: 'Capture' }).click();
      const dialog = page.getByRole('dialog', { name: 'Capture payment' });
      const amountInput = dialog.getByRole('textbox', { name: 'Amount to capture' });
      // Offered: the whole authorised amount, written as money.
      expect(await amountInput.inputValue()).toBe(gbp.format(before.totalAmount));
      await amountInput.fill(amount);
      await dialog.getByRole('textbox', { name: 'Note' }).fill('Goods dispatched');
      await dialog.getByRole('button', { name: 'Capture' }).click();
      return dialog;
    };

    // No: nothing happens, the payment stays pending.
    let dialog = await capture(before.totalAmount.toFixed(2));
    let confirm = page.getByRole('dialog').filter({
      hasText: `Capture ${gbp.format(before.totalAmount)} of this payment?`,
    });
    await confirm.getByRole('button', { name: 'Yes' }).waitFor();
    await confirm.getByRole('button', { name: 'No' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: 'Pending payment' }).count()).toBe(1);

    // Yes to an amount the sandbox declines: its answer is an error and the payment stays pending.
    const declined = (before.totalAmount - 1).toFixed(0) + '.99';
    dialog = await capture(declined);
    confirm = page
      .getByRole('dialog')
      .filter({ hasText: `Capture ${gbp.format(Number(declined))} of this payment?` });
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page
      .getByText('The sandbox provider declined the capture (amounts ending in .99 are declined).')
      .waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: 'Pending payment' }).count()).toBe(1);

    // Yes to the whole amount: captured, the page shows it Paid and offers no more actions.
    dialog = await capture(before.totalAmount.toFixed(2));
    confirm = page.getByRole('dialog').filter({
      hasText: `Capture ${gbp.format(before.totalAmount)} of this payment?`,
    });
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Pending payment captured').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Pending payment' }).waitFor({ state: 'detached' });
    await page.getByText('Paid', { exact: true }).first().waitFor();

    // Back on the list the filter still holds, and this payment has left it.
    await openMenuEntry(page, 'Payment Transactions', 'Payment Transactions');
    // The list may show what it had before the capture until its refetch answers.
    await bodyRows(payments).first().waitFor();
    await expect
      .poll(
        () =>
          payments
            .getByRole('link', { name: `View payment ${before.ledgerlineReference}` })
            .count(),
        settle,
      )
      .toBe(0);
    await clearFilter(page, payments, 'Status');
  });

  it('asks before moving a payment away from Auto Allocated, and not for other changes', async () => {
    const payments = page.getByRole('table', { name: 'Payment transactions' });
    await chooseFilter(page, payments, 'Allocated status', 'Auto Allocated');
    await expect
      .poll(async () => {
        const rows = await bodyRows(payments).allTextContents();
        return rows.length > 0 && rows.every((text) => text.includes('Auto Allocated'));
      }, settle)
      .toBe(true);
    await bodyRows(payments)
      .first()
      .getByRole('link', { name: /^View payment / })
      .click();
    await page.waitForURL(/\/payment-transactions\/[0-9a-f-]{36}$/);
    const paymentId = idInUrl(page);

    const select = page.getByRole('textbox', { name: 'Allocated status' });
    await expect.poll(() => select.inputValue(), settle).toBe('Auto Allocated');
    await select.click();
    await page.getByRole('option', { name: 'Manually Allocated', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Change allocated status' });
    await confirm
      .getByText(
        'This payment was allocated automatically. Change its allocated status to Manually Allocated?',
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Allocated status updated').waitFor();
    await expect.poll(() => select.inputValue(), settle).toBe('Manually Allocated');

    // From anything but Auto Allocated the change applies at once.
    await select.click();
    await page.getByRole('option', { name: 'Unallocated', exact: true }).click();
    await expect.poll(() => select.inputValue(), settle).toBe('Unallocated');
    expect(await page.getByRole('dialog', { name: 'Change allocated status' }).count()).toBe(0);

    const stored = await callApi(context, server.url, `/api/v0/payment-transactions/${paymentId}`, {
      headers: { 'dataset-id': String(datasetId) },
    });
    expect(((await stored.json()) as { allocatedStatus: string }).allocatedStatus).toBe(
      'Unallocated',
    );

    await openMenuEntry(page, 'Payment Transactions', 'Payment Transactions');
    await clearFilter(page, payments, 'Allocated status');
  });

  it('exports PaymentTransactions.csv with the dialog defaults', async () => {
    await page.getByRole('button', { name: 'Export' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export payment transactions' });
    // spec 2 §5, §9: payments and allocations, Waiting To Be Allocated and Error ticked.
    expect(await dialog.getByRole('textbox', { name: 'Export type' }).inputValue()).toBe(
      'Payments and allocations',
    );
    const ticked: string[] = [];
    for (const status of [
      'Waiting To Be Allocated',
      'Error',
      'Unallocated',
      'Auto Allocated',
      'Manually Allocated',
      'Not Applicable',
    ]) {
      if (await dialog.getByRole('checkbox', { name: status, exact: true }).isChecked())
        ticked.push(status);
    }
    expect(ticked).toEqual(['Waiting To Be Allocated', 'Error']);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    await page.getByText('file exported successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(download.suggestedFilename()).toBe('PaymentTransactions.csv');
    const bytes = await readFile(await download.path());
    // UTF-8 with a byte-order mark, CRLF lines.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text).toContain('\r\n');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(exportColumns);

    // One line per payment in those two statuses (they have no allocations), and nothing else.
    const count = async (status: string) => {
      const response = await callApi(
        context,
        server.url,
        `/api/v0/payment-transactions/count?filter=${encodeURIComponent(`allocatedStatus eq ${status}`)}`,
        { headers: { 'dataset-id': String(datasetId) } },
      );
      return ((await response.json()) as { count: number }).count;
    };
    const expected = (await count('WaitingToBeAllocated')) + (await count('Error'));
    expect(expected).toBeGreaterThan(0);
    expect(rows).toHaveLength(expected);
    const column = (name: string) => header!.indexOf(name);
    for (const row of rows) {
      expect(row).toHaveLength(exportColumns.length);
      expect(['WaitingToBeAllocated', 'Error']).toContain(row[column('AllocatedStatus')]);
      expect(row[column('PaymentTransactionId')]).toMatch(/^[0-9a-f-]{36}$/);
      expect(row[column('Currency')]).toBe('GBP');
      expect(row[column('TotalAmount')]).toMatch(/^\d+\.\d{2,}$/);
      expect(row[column('StatusDateTime')]).toMatch(
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
      );
      expect(row[column('AllocationId')]).toBe('');
    }
    exported = [header!, ...rows];
  });

  it('imports the export back with edited statuses and shows the counts of each outcome', async () => {
    const [header, ...rows] = exported;
    const column = header!.indexOf('AllocatedStatus');
    const idColumn = header!.indexOf('PaymentTransactionId');
    const waiting = rows.filter((row) => row[column] === 'WaitingToBeAllocated');
    const error = rows.filter((row) => row[column] === 'Error');
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    expect(error.length).toBeGreaterThanOrEqual(1);
    const edit = (row: string[], status: string) =>
      row.map((value, i) => (i === column ? status : value));
    const unknown = edit(waiting[0]!, 'ManuallyAllocated').map((value, i) =>
      i === idColumn ? randomUUID() : value,
    );
    const file = toCsv([
      header!,
      edit(waiting[0]!, 'ManuallyAllocated'), // line 2: imported
      edit(error[0]!, 'Unallocated'), // line 3: imported
      waiting[1]!, // line 4: already that status
      edit(waiting[0]!, 'NotApplicable'), // line 5: appears earlier in the file
      unknown, // line 6: no such payment in this company
    ]);

    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import allocated statuses' });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      dialog.getByRole('button', { name: 'File' }).click(),
    ]);
    await chooser.setFiles({
      name: 'statuses.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file),
    });
    await dialog.getByText('statuses.csv').waitFor();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported 2 of 5 rows').waitFor();

    const results = dialog.getByRole('table', { name: 'Import results' });
    await results.waitFor();
    const countOf = async (label: string) =>
      dialog
        .locator('p')
        .filter({ hasText: new RegExp(`^${label}$`) })
        .locator('xpath=following-sibling::p[1]')
        .textContent();
    expect(await countOf('Processed')).toBe('5');
    expect(await countOf('Imported')).toBe('2');
    expect(await countOf('Not imported')).toBe('2');
    expect(await countOf('Duplicated')).toBe('1');

    const line = (n: number) =>
      bodyRows(results).filter({ has: page.getByRole('cell', { name: String(n), exact: true }) });
    expect(await line(2).textContent()).toContain(
      'Allocated status changed from WaitingToBeAllocated to ManuallyAllocated.',
    );
    expect(await line(3).textContent()).toContain(
      'Allocated status changed from Error to Unallocated.',
    );
    expect(await line(4).textContent()).toContain(
      'The allocated status is already WaitingToBeAllocated.',
    );
    expect(await line(5).textContent()).toContain(
      'This payment transaction appears earlier in the file; the first row counts.',
    );
    expect(await line(6).textContent()).toContain(
      'No payment transaction of this company has this id.',
    );
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The list shows the imported statuses.
    const payments = page.getByRole('table', { name: 'Payment transactions' });
    const reference = (row: string[]) => row[header!.indexOf('Reference')]!;
    for (const [row, status] of [
      [waiting[0]!, 'Manually Allocated'],
      [error[0]!, 'Unallocated'],
    ] as const) {
      await typeFilter(page, payments, 'Reference', reference(row));
      await expect
        .poll(() => bodyRows(payments).allTextContents(), settle)
        .toEqual([expect.stringContaining(reference(row))]);
      expect(await bodyRows(payments).first().textContent()).toContain(status);
    }
  });

  it('uploads a PDF to an invoice, opens it, and deletes it after naming it in the confirmation', async () => {
    await openAccount(page);
    await page.getByRole('tab', { name: /^Transactions/ }).click();
    await page
      .getByRole('table', { name: 'Transactions' })
      .getByRole('link', { name: `View transaction ${openInvoice.transactionReference}` })
      .click();
    await page.waitForURL(`${server.url}/transactions/${ids[openInvoice.transactionReference]}`);
    await page
      .getByRole('heading', { name: gbp.format(openInvoice.transactionAmount), level: 1 })
      .waitFor();

    await page.getByRole('tab', { name: /^Documents/ }).click();
    const documents = page.getByRole('tabpanel', { name: /Documents/ });
    await documents.getByText('No documents', { exact: true }).waitFor();
    const pdf = minimalPdf(`${openInvoice.transactionReference} signed delivery note`);
    const fileName = `${openInvoice.transactionReference} delivery note.pdf`;
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      documents.getByRole('button', { name: 'Upload' }).click(),
    ]);
    await chooser.setFiles({ name: fileName, mimeType: 'application/pdf', buffer: pdf });
    await page.getByText('Document uploaded').waitFor();

    const table = documents.getByRole('table', { name: 'Documents' });
    const row = bodyRows(table).filter({ hasText: fileName });
    await row.waitFor();
    expect(await row.textContent()).toContain('application/pdf');
    expect(await row.textContent()).toContain(`${pdf.length} B`);
    await page
      .getByRole('tab', { name: /^Documents/ })
      .getByLabel('1 documents')
      .waitFor();

    // A PDF opens in the site's viewer: our own CSP lets the blob: frame load.
    const refusals: string[] = [];
    const onConsole = (message: { text(): string }) => {
      if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
    };
    page.on('console', onConsole);
    await row.getByRole('button', { name: fileName, exact: true }).click();
    const viewer = page.getByRole('dialog', { name: fileName });
    await viewer.locator(`iframe[title="${fileName}"]`).waitFor();
    await expect
      .poll(() => page.frames().some((frame) => frame.url().startsWith('blob:')))
      .toBe(true);
    expect(page.frames().some((frame) => frame.url().startsWith('chrome-error:'))).toBe(false);
    expect(refusals).toEqual([]);
    page.off('console', onConsole);
    // The viewer and the row both save the file.
    const [fromViewer] = await Promise.all([
      page.waitForEvent('download'),
      viewer.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(fromViewer.suggestedFilename()).toBe(fileName);
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    const [fromRow] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: `Download ${fileName}` }).click(),
    ]);
    expect(fromRow.suggestedFilename()).toBe(fileName);
    expect((await readFile(await fromRow.path())).equals(pdf)).toBe(true);

    await row.getByRole('button', { name: `Delete ${fileName}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Document' });
    await confirm.getByText(`Are you sure you want to delete the document ${fileName}?`).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Document deleted').waitFor();
    await documents.getByText('No documents', { exact: true }).waitFor();
    await page
      .getByRole('tab', { name: /^Documents/ })
      .getByLabel('0 documents')
      .waitFor();
  });

  it('adds a settlement offer to an invoice, and none to an invoice the ERP marks fully paid', async () => {
    await page.getByRole('tab', { name: /^Settlement offers/ }).click();
    const offers = page.getByRole('tabpanel', { name: /Settlement offers/ });
    await offers.getByText('No settlement offers', { exact: true }).waitFor();
    await offers.getByRole('button', { name: 'New Settlement Offer' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Settlement Offer' });
    expect(await dialog.getByRole('textbox', { name: 'Type' }).inputValue()).toBe(
      'Percentage Discount',
    );
    expect(await dialog.getByRole('textbox', { name: 'Currency' }).inputValue()).toBe('GBP');
    // spec 2 §5: valid to starts at the invoice's due date, shown in the user's date format (the
    // default yyyy/MM/dd).
    expect(await dialog.getByRole('textbox', { name: 'Valid to' }).inputValue()).toBe(
      invoiceDue.slice(0, 10).replaceAll('-', '/'),
    );
    await dialog.getByRole('textbox', { name: 'Percentage discount' }).fill('2.5');
    await dialog
      .getByRole('textbox', { name: 'Description' })
      .fill('Early payment: 2.5% within 10 days');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settlement offer added').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const row = bodyRows(offers.getByRole('table', { name: 'Settlement offers' })).filter({
      hasText: 'Early payment: 2.5% within 10 days',
    });
    await row.waitFor();
    const rowText = await row.textContent();
    expect(rowText).toContain('Percentage Discount');
    expect(rowText).toContain('2.5 %');
    expect(rowText).toContain('Open');
    await page
      .getByRole('tab', { name: /^Settlement offers/ })
      .getByLabel('1 settlement offers')
      .waitFor();

    // spec 2 §4: with offers present, only their types can be added.
    await offers.getByRole('button', { name: 'New Settlement Offer' }).click();
    await dialog.getByRole('textbox', { name: 'Type' }).click();
    const types = page.getByRole('listbox').getByRole('option');
    await types.first().waitFor();
    expect(await types.allTextContents()).toEqual(['Percentage Discount']);
    await types.first().click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The customer paid the other invoice in the ERP: the connector sends it again, fully paid.
    const paid = await erp.expect<{ id: string; paidStatus: string }>(
      200,
      '/api/v0/transactions?match-existing=true',
      {
        json: {
          ...paidLaterInvoice,
          allocatedAmount: paidLaterInvoice.transactionAmount,
          paidStatus: 'FullyPaid',
        },
        idempotencyKey: randomUUID(),
      },
    );
    expect(paid.id).toBe(ids[paidLaterInvoice.transactionReference]);
    expect(paid.paidStatus).toBe('FullyPaid');

    // From the invoice's account card back to the account.
    await page.getByRole('tab', { name: 'Info', exact: true }).click();
    await page
      .getByRole('tabpanel', { name: 'Info' })
      .getByRole('link', { name: account.name })
      .click();
    await page.waitForURL(`${server.url}/accounts/${ids.account}`);
    // The site keeps what it read for 30 s (app/query-client.ts); the ERP changed it behind its
    // back, so the page is reloaded as a person would.
    await page.reload();
    await page.getByRole('tab', { name: /^Transactions/ }).click();
    const paidRow = bodyRows(page.getByRole('table', { name: 'Transactions' })).filter({
      hasText: paidLaterInvoice.transactionReference,
    });
    await expect.poll(() => paidRow.textContent(), settle).toContain('Fully Paid');
    await paidRow
      .getByRole('link', { name: `View transaction ${paidLaterInvoice.transactionReference}` })
      .click();
    await page
      .getByRole('heading', { name: gbp.format(paidLaterInvoice.transactionAmount), level: 1 })
      .waitFor();
    await page.getByRole('tab', { name: /^Settlement offers/ }).click();
    const paidOffers = page.getByRole('tabpanel', { name: /Settlement offers/ });
    // The site says so and offers no button; the server refuses all the same.
    await paidOffers
      .getByText('The transaction is fully paid: no new offer can be added.')
      .waitFor();
    expect(
      await paidOffers.getByRole('button', { name: 'New Settlement Offer' }).isDisabled(),
    ).toBe(true);
    const refused = await callApi(
      context,
      server.url,
      `/api/v0/transactions/${ids[paidLaterInvoice.transactionReference]}/settlement-offers`,
      {
        method: 'POST',
        headers: { 'dataset-id': String(datasetId) },
        json: { type: 'PercentageDiscount', percentageDiscount: 2.5, description: 'Too late' },
      },
    );
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toMatchObject({
      errorCode: 'transactionFullyPaid',
      detail: 'A fully paid transaction cannot get a new settlement offer.',
    });
  });
  // spec 2 §3 transactionAllocations: one request for existing unpaid invoices of the account.
  it('asks for an unpaid invoice of the account from its transactions, and shows the payment link', async () => {
    await openAccount(page);
    await page.getByRole('tab', { name: /^Transactions/ }).click();
    await page.getByRole('button', { name: 'Request payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request payment' });
    const invoices = dialog.getByRole('table', { name: 'Unpaid invoices' });
    await invoices.getByText(openInvoice.transactionReference, { exact: true }).waitFor();
    // The credit note and the invoice the ERP marked fully paid are not offered.
    expect(await invoices.getByText(creditNote.transactionReference).count()).toBe(0);
    expect(await invoices.getByText(paidLaterInvoice.transactionReference).count()).toBe(0);
    await dialog
      .getByRole('checkbox', { name: `Select ${openInvoice.transactionReference}` })
      .check();
    await dialog
      .getByRole('textbox', { name: `Amount for ${openInvoice.transactionReference}` })
      .fill('700');
    const createdResponse = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        response.url().endsWith('/api/v0/payment-requests'),
    );
    await dialog.getByRole('button', { name: 'Request payment' }).click();
    const created = await createdResponse;
    expect(created.status()).toBe(201);
    const request = (await created.json()) as {
      id: string;
      requestUrl: string;
      requestType: string;
      transactionAllocations: unknown[];
    };
    expect(request.requestType).toBe('Transaction');
    expect(request.transactionAllocations).toEqual([
      expect.objectContaining({
        transactionId: ids[openInvoice.transactionReference],
        amount: 700,
        required: true,
      }),
    ]);
    await dialog.getByText('New payment request created').waitFor();
    await dialog.getByRole('link', { name: request.requestUrl }).waitFor();
    await dialog.getByRole('button', { name: 'Copy payment link' }).waitFor();
    await dialog.getByRole('link', { name: 'Open request' }).click();
    await page.waitForURL(`${server.url}/payment-requests/${request.id}`);
    await page.getByRole('heading', { name: gbp.format(700), level: 1 }).waitFor();
  });
});
