import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startFakeCapitalise } from '../apps/api/test/fakes/fake-capitalise.js';
import type { FakeServer } from '../apps/api/test/fakes/fake-server.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser } from './support/sign-in.js';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#1c7ed6"/><circle cx="20" cy="20" r="10" fill="#fff"/></svg>';
const recipient = 'finance@northwind.example';

/** A Settings entry of the side menu: the group folds open first. */
async function openSettingsEntry(page: Page, name: string) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const settings = menu.getByRole('button', { name: 'Settings' });
  if ((await settings.getAttribute('aria-expanded')) !== 'true') await settings.click();
  await menu.getByRole('link', { name, exact: true }).click();
}

async function goHome(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Home' })
    .click();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

// A new administrator follows the dashboard's to-do list through the company settings.
describe('company settings', () => {
  let server: RunningServer;
  let capitalise: FakeServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    capitalise = await startFakeCapitalise();
    server = await startServer({
      env: {
        FEATURE_FLAGS: 'PermissionPolicy=true,NewAccessKeyPage=true,Capitalise=true',
        CAPITALISE_URL: capitalise.url,
        CAPITALISE_INTRODUCER_KEY: 'northwind-partner',
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
    await capitalise?.close();
  });

  it('fills the company details from the to-do list', async () => {
    const todo = page.getByTestId('todo-company-details');
    await todo.getByText('Complete your company details').waitFor();
    await todo.getByRole('link', { name: 'Fix' }).click();
    await page.waitForURL(`${server.url}/settings/details`);
    await page.getByRole('heading', { name: 'Company Details' }).waitFor();

    await page.getByRole('textbox', { name: 'Company name' }).fill('Northwind Traders Ltd');
    await page.getByRole('textbox', { name: 'Website' }).fill('http://northwind.example');
    await page.getByRole('textbox', { name: 'First names' }).fill('Nancy');
    await page.getByRole('textbox', { name: 'Surname' }).fill('Davolio');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('nancy@northwind.example');
    await page.getByRole('textbox', { name: 'Address line 1' }).fill('12 Harbour Road');
    await page.getByRole('textbox', { name: 'City' }).fill('Bristol');
    await page.getByRole('textbox', { name: 'Post code' }).fill('BS1 4RN');
    // The country starts at the company's default country (Preferences: GB until changed).
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Country' }).inputValue())
      .toBe('United Kingdom of Great Britain and Northern Ireland');
    await page.getByRole('textbox', { name: 'Country' }).fill('United Kingdom');
    await page
      .getByRole('option', { name: 'United Kingdom of Great Britain and Northern Ireland' })
      .click();
    await page.getByRole('textbox', { name: 'State' }).fill('England');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Website must be a valid URL and begin with https://').waitFor();

    await page.getByRole('textbox', { name: 'Website' }).fill('https://northwind.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Company details successfully updated').waitFor();

    const saved = await (
      await callApi(context, server.url, '/api/v0/company-settings', {
        headers: { 'dataset-id': '1' },
      })
    ).json();
    expect(saved.companyDetails).toMatchObject({
      name: 'Northwind Traders Ltd',
      website: 'https://northwind.example',
      mainAddress: {
        city: 'Bristol',
        state: 'England',
        country: 'United Kingdom of Great Britain and Northern Ireland',
      },
    });
  });

  it('uploads a logo and sees it in the header', async () => {
    await goHome(page);
    await page.getByTestId('todo-logo').getByText('Upload your logo').waitFor();
    await page.getByTestId('todo-company-details').waitFor({ state: 'detached' });
    await page.getByTestId('todo-logo').getByRole('link', { name: 'Fix' }).click();
    await page.waitForURL(`${server.url}/settings/customisation`);

    await page.locator('input[type="file"]').setInputFiles({
      name: 'northwind.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(logoSvg),
    });
    await page.getByText('Logo successfully uploaded').waitFor();
    const headerLogo = page.getByTestId('company-logo');
    await headerLogo.waitFor();
    await expect
      .poll(() =>
        headerLogo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await headerLogo.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('sets a default link expiry of 2 weeks and sees it in a New Request dialog', async () => {
    await openSettingsEntry(page, 'Preferences');
    await page.waitForURL(`${server.url}/settings/preferences`);
    const quantity = page.getByRole('textbox', { name: 'Default link expiry quantity' });
    expect(await quantity.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Default link expiry unit' }).click();
    await page.getByRole('option', { name: 'Weeks' }).click();
    await quantity.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Quantity must be a number').waitFor();
    await page.getByLabel('General has errors').waitFor();

    await quantity.fill('2');
    await page.getByText('The Payment Request link will expire after 2 weeks').waitFor();
    // One Save validates both tabs (spec 3 §2): a new company's Advanced tab needs its parse value.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByLabel('Advanced has errors').waitFor();
    await page.getByRole('textbox', { name: 'Parse value' }).fill('{transactionReference}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings successfully updated').waitFor();
    const saved = await (
      await callApi(context, server.url, '/api/v0/company-settings/payment-request', {
        headers: { 'dataset-id': '1' },
      })
    ).json();
    expect(saved.validUntilAddition).toEqual({ unit: 'Week', quantity: 2 });

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Payment Requests' })
      .click();
    await page.getByRole('button', { name: 'New Request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Request' });
    await dialog.getByText('The Payment Request link will expire after 2 weeks').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('adds an e-mail recipient for TenantPaymentSuccessful', async () => {
    await openSettingsEntry(page, 'Notifications');
    await page.waitForURL(`${server.url}/settings/notifications`);
    await page.getByRole('textbox', { name: 'E-mail address' }).fill(`  ${recipient}  `);
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Notification user successfully added').waitFor();

    const paymentSuccessful = page.getByRole('switch', {
      name: `Payment successful for ${recipient}`,
    });
    expect(await paymentSuccessful.isChecked()).toBe(false);
    await paymentSuccessful.click({ force: true });
    await expect.poll(() => paymentSuccessful.isChecked()).toBe(true);

    const { items } = await (
      await callApi(context, server.url, '/api/v0/notifications/users', {
        headers: { 'dataset-id': '1' },
      })
    ).json();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ type: 'EmailAddress', emailAddress: recipient });
    expect(items[0].notificationSettings).toContainEqual({
      notificationUserId: items[0].id,
      notificationName: 'TenantPaymentSuccessful',
      isEnabled: true,
    });
  });

  it("opens Funding Search and shows Capitalise's search in its frame", async () => {
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Funding Search' })
      .click();
    await page.waitForURL(`${server.url}/funding`);
    // The CSP's frame-src lets exactly the configured Capitalise host in.
    const search = page.frameLocator('iframe[title="Capitalise funding search"]');
    await search.getByRole('heading', { name: 'Find funding for your business' }).waitFor();
    await search.getByText('Introduced by northwind-partner').waitFor();
  });
});
