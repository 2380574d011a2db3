import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

const settle = { timeout: 20_000 };
const companyName = 'Hooked Widgets Ltd';

interface Received {
  headers: IncomingHttpHeaders;
  body: { id: string; type: string; datasetId: number; data: { id: string; status?: string } };
}

/** The merchant's own system: a local receiver answering 200 to every web hook. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'],
      });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('thanks');
    });
  });
  // 127.0.0.2: this computer, but not the address Ledgerline itself answers on, which it refuses as
  // an endpoint (no hairpin).
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.2:${port}/ledgerline`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// A merchant connects its own system to Ledgerline's web hooks, sees a payment's event
// arrive in the delivery log and sends it again.
describe('web hooks', () => {
  let server: RunningServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let datasetId: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    // No Svix: Ledgerline delivers itself. The receiver is on this computer, which development
    // mode accepts over http and WEBHOOK_ALLOW_PRIVATE lets deliveries reach.
    server = await startServer({
      env: { NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    // A demo company (README): payments, Pending ones among them on the sandbox provider.
    const created = await callApi(context, server.url, '/api/v0/data-sets', {
      method: 'POST',
      json: {
        name: companyName,
        hostSystemName: 'Sage200Pro',
        hostId: 'HOOK-DEMO',
        customHostId: 'HOOK-DEMO',
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
    const deadline = Date.now() + 30_000;
    while ((await statusOfCompany()) !== 'Active' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(await statusOfCompany()).toBe('Active');
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('button', { name: /^Company(: |$)/ }).click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await receiver?.close();
  });

  it('adds an endpoint, receives a captured payment, sees it in the delivery log and resends it', async () => {
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Web Hooks', exact: true })
      .click();
    await page.getByRole('heading', { name: 'Web Hooks', level: 1 }).waitFor();
    await page.getByText('No endpoints yet. Add one to start receiving events.').waitFor();

    // Add: a wrong address is refused beside the field, then the receiver's address is saved.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add endpoint' });
    await form.getByRole('textbox', { name: 'URL' }).fill('ftp://erp.example.com/hooks');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('URL must be a valid address such as https://example.com/hooks').waitFor();
    await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await form.getByRole('textbox', { name: 'Description' }).fill('Our ERP');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Endpoint added.').waitFor();
    await form.waitFor({ state: 'hidden' });
    const grid = page.getByRole('table', { name: 'Web hook endpoints' });
    await grid.getByRole('cell', { name: receiver.url, exact: true }).waitFor();
    await grid.getByText('Enabled').waitFor();

    // Capture a Pending payment (the receivables journey does it through the page).
    const pending = (await (
      await callApi(
        context,
        server.url,
        '/api/v0/payment-transactions?itemsPerPage=50&filter=status eq Pending',
        { headers: { 'dataset-id': String(datasetId) } },
      )
    ).json()) as { items: { id: string; totalAmount: number }[] };
    const payment = pending.items.find((p) => !p.totalAmount.toFixed(2).endsWith('.99'))!;
    expect(payment).toBeDefined();
    const captured = await callApi(
      context,
      server.url,
      `/api/v0/payment-transactions/${payment.id}/pending/capture`,
      {
        method: 'POST',
        headers: { 'dataset-id': String(datasetId) },
        json: { amountToCapture: payment.totalAmount, note: 'Goods dispatched' },
      },
    );
    expect(((await captured.json()) as { isError: boolean }).isError).toBe(false);

    // The receiver hears of it, signed.
    await expect
      .poll(
        () => receiver.received.filter((r) => r.body.type === 'payment.captured').length,
        settle,
      )
      .toBe(1);
    const first = receiver.received.find((r) => r.body.type === 'payment.captured')!;
    expect(first.body).toMatchObject({ datasetId, data: { id: payment.id, status: 'Paid' } });
    expect(first.headers['webhook-id']).toBe(first.body.id);
    expect(first.headers['webhook-signature']).toMatch(/^v1,/);

    // The delivery log shows it with its status code.
    await grid.getByRole('button', { name: `Open ${receiver.url}` }).click();
    const detail = page.getByRole('dialog', { name: `Endpoint ${receiver.url}` });
    const log = detail.getByRole('table', { name: 'Deliveries' });
    const row = log.getByRole('row').filter({ hasText: 'payment.captured' });
    await row.getByText('Succeeded').waitFor();
    await expect
      .poll(async () => (await row.getByRole('cell').allTextContents()).slice(1, 5), settle)
      .toEqual(['Succeeded', '200', expect.stringMatching(/^\d+ ms$/), '1']);

    // The secret is shown on demand.
    await detail.getByRole('button', { name: 'Show secret' }).click();
    await expect
      .poll(() => detail.getByTestId('web-hook-secret').textContent(), settle)
      .toMatch(/^whsec_/);

    // Resend: the same event once more, a second attempt in the log.
    await row.getByRole('button', { name: /^Resend payment\.captured / }).click();
    await page.getByText('The event will be sent again.').waitFor();
    await expect
      .poll(() => receiver.received.filter((r) => r.body.id === first.body.id).length, settle)
      .toBe(2);
    await expect
      .poll(async () => (await row.getByRole('cell').nth(4).textContent())?.trim(), settle)
      .toBe('2');
    const again = receiver.received.filter((r) => r.body.id === first.body.id)[1]!;
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
  });
});
