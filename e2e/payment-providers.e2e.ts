import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeGoCardless,
  type FakeGoCardless,
} from '../apps/api/test/fakes/fake-gocardless.js';
import { startFakeOpayo, type FakeOpayo } from '../apps/api/test/fakes/fake-opayo.js';
import { startFakeStripe, type FakeStripe } from '../apps/api/test/fakes/fake-stripe.js';
import { launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { signInThroughBrowser } from './support/sign-in.js';

/** How long a screen may take to show what the test waits for. */
const settle = { timeout: 15_000 };

// Payment providers connected through the providers' own pages (local fakes that speak
// their wire formats), tested, and the company's default (spec 3 §2, §4, §8).
describe('payment providers', () => {
  let stripe: FakeStripe;
  let goCardless: FakeGoCardless;
  let opayo: FakeOpayo;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const providersUrl = () => `${server.url}/settings/payment-providers`;

  async function addProvider(displayName: string) {
    await page.goto(providersUrl());
    await page.getByRole('button', { name: 'Add Provider' }).click();
    await page
      .getByRole('dialog', { name: 'Add Payment Provider' })
      .getByRole('button', { name: `Select ${displayName}` })
      .click();
  }

  beforeAll(async () => {
    [stripe, goCardless, opayo] = await Promise.all([
      startFakeStripe(),
      startFakeGoCardless(),
      startFakeOpayo(),
    ]);
    opayo.vendors.set(
      'ledgerline',
      new Map([['admin', { password: 'Opayo-Admin-Password', admin: true }]]),
    );
    stripe.connectNext({ id: 'acct_1Journey00000001', displayName: 'Journey Shop Ltd' });
    server = await startServer({
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_CONNECT_CLIENT_ID: stripe.clientId,
        STRIPE_CONNECT_URL: stripe.url,
        STRIPE_API_URL: stripe.url,
        GOCARDLESS_CLIENT_ID: goCardless.clientId,
        GOCARDLESS_CLIENT_SECRET: goCardless.clientSecret,
        GOCARDLESS_CONNECT_URL: goCardless.url,
        GOCARDLESS_API_URL: goCardless.url,
        OPAYO_TEST_URL: opayo.url,
        OPAYO_LIVE_URL: opayo.url,
        OPAYO_SERVER_IP: '127.0.0.1',
      },
    });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    await Promise.all([stripe?.close(), goCardless?.close(), opayo?.close()]);
  });

  it('starts with no provider configured', async () => {
    await page.goto(providersUrl());
    await page
      .getByRole('alert')
      .filter({ hasText: 'No Payment Providers Configured' })
      .waitFor(settle);
  });

  it('connects a Stripe account through its authorisation page, then disconnects it', async () => {
    await addProvider('Stripe');
    await page.getByRole('button', { name: 'Connect with Stripe' }).click();
    await page.waitForURL(`${stripe.url}/oauth/authorize**`);
    await page.getByRole('link', { name: 'Connect my Stripe account' }).click();
    await page.getByText('Successfully connected to Stripe').waitFor(settle);
    await page.waitForURL(new RegExp(`${providersUrl()}/[0-9a-f-]{36}$`));
    const accountName = page.getByRole('textbox', { name: 'Account name' });
    await accountName.waitFor(settle);
    expect(await accountName.inputValue()).toBe('Journey Shop Ltd');

    await page.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect' });
    await confirm
      .getByText('Are you sure you want to disconnect from your Stripe account?')
      .waitFor();
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByRole('button', { name: 'Connect with Stripe' }).waitFor(settle);
    expect(stripe.deauthorized.has('acct_1Journey00000001')).toBe(true);
  });

  it('adds GoCardless through its authorisation and shows the creditor in review', async () => {
    await addProvider('GoCardless');
    await page.waitForURL(`${goCardless.url}/oauth/authorize**`);
    await page.getByRole('link', { name: 'Authorise' }).click();
    await page.getByText('Successfully authorised with GoCardless').waitFor(settle);
    await page.getByText('Fake Direct Debit Ltd').waitFor(settle);
    await page.getByText('In review').waitFor();
    await page.getByText('Organisation id: OR000FAKE0001').waitFor();
  });

  it('adds Opayo: Test Connection fails with the 0010 message, then passes; the save registers the IP', async () => {
    await addProvider('Opayo');
    await page.getByRole('heading', { name: 'Add Opayo Provider' }).waitFor(settle);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Opayo cards');
    await page.getByRole('textbox', { name: 'Vendor name', exact: true }).fill('ledgerline');
    await page.getByRole('textbox', { name: 'Admin user', exact: true }).fill('admin');
    const password = page.getByLabel(/^Admin password/);
    await password.fill('not-the-password');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await page.getByText('The admin password is wrong.').waitFor(settle);
    await password.fill('Opayo-Admin-Password');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await page.getByText('Connection successful.').waitFor(settle);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Payment provider successfully added').waitFor(settle);
    await page.waitForURL(providersUrl());
    expect(opayo.registeredIps).toEqual([
      { vendor: 'ledgerline', address: '127.000.000.001', mask: '255.255.255.255' },
    ]);
    for (const request of opayo.requests)
      expect(request.body).not.toContain('Opayo-Admin-Password');
  });

  it('the first provider became the default and the red banner is gone', async () => {
    await page.goto(providersUrl());
    const grid = page.getByRole('table', { name: 'Payment providers' });
    const stripeRow = grid.getByRole('row').filter({ hasText: 'Journey Shop Ltd' });
    await stripeRow.getByText('Default', { exact: true }).waitFor(settle);
    for (const name of ['GoCardless', 'Opayo cards']) {
      await grid
        .getByRole('row')
        .filter({ hasText: name })
        .getByRole('button', { name: `Make ${name} the default` })
        .waitFor();
    }
    // Neither banner (spec 3 §2: both are alerts above the grid), once the default has been read.
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
