import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { waitForMail } from './support/mail.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, signInThroughBrowser, submitSignIn } from './support/sign-in.js';

/** How long a screen may take to show what the test waits for. */
const settle = { timeout: 10_000 };

const viewer = {
  name: 'Vera Viewer',
  email: 'vera.viewer@example.com',
  password: 'a-long-viewer-passphrase',
};
const companyName = 'Contoso Retail';
const keyName = 'Sage 200 connector';

/** The body rows of a grid (mantine-datatable), without the header row. */
function bodyRows(grid: Locator): Locator {
  return grid.locator('tbody').getByRole('row');
}

/** A Settings entry of the side menu: the group folds open first. */
async function openSettingsEntry(page: Page, name: string) {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const entry = menu.getByRole('link', { name, exact: true });
  const settings = menu.getByRole('button', { name: 'Settings' });
  if ((await settings.getAttribute('aria-expanded')) !== 'true') await settings.click();
  expect(await settings.getAttribute('aria-expanded')).toBe('true');
  // The group folds open with an animation; until it is done the entry is partly clipped. Click
  // once the entry itself is what a pointer at its middle would reach.
  await expect
    .poll(
      () =>
        entry.evaluate((link) => {
          // A long Settings group can put the entry below the menu's fold: scroll it into view.
          link.scrollIntoView({ block: 'nearest' });
          const box = link.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return hit !== null && link.contains(hit);
        }),
      settle,
    )
    .toBe(true);
  const path = await entry.getAttribute('href');
  await entry.click();
  // The route's chunk loads before the address changes (React Router lazy routes).
  await page.waitForURL((url) => url.pathname === path);
}

async function goHomeAndWait(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main menu' })
    .getByRole('link', { name: 'Home' })
    .click();
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

// Issue "Administration": users and their invitations, roles, companies, access keys and the
// activity log (spec 1 §2.2, §2.6–§2.8, §4, §6; spec 3 §2 activities).
describe('administration', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    admin.setDefaultTimeout(15_000);
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await admin.newPage();
    await signInThroughBrowser(page, server.url, server.adminEmail, server.adminPassword);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('invites a Viewer from the users page', async () => {
    await openSettingsEntry(page, 'Users');
    await page.waitForURL(`${server.url}/settings/users`);
    await page.getByRole('heading', { name: 'Users' }).waitFor();

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(viewer.name);
    await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(viewer.email);
    await dialog.getByRole('textbox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Viewer' }).click();
    // The choice reaches the field on the Select's next render, not within the click.
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Role' }).inputValue())
      .toBe('Viewer');
    await dialog.getByRole('button', { name: 'Save' }).click();

    await page.getByText('New user successfully created and invited').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = bodyRows(page.getByRole('table', { name: 'Users' })).filter({
      hasText: viewer.email,
    });
    await row.waitFor();
    expect(await row.textContent()).toContain(viewer.name);
    expect(await row.textContent()).toContain('Viewer');
  });

  it('lets the invited Viewer set a password from the mail, sign in, and see only what a Viewer may', async () => {
    const mail = await waitForMail(server.dataDir, viewer.email);
    expect(mail.headers.get('subject')).toBe('Your invitation to Ledgerline');
    expect(mail.text).toContain(`Hello ${viewer.name},`);
    const link = /https?:\/\/\S+\/idp-login\/set-password\?\S+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeDefined();
    expect(new URL(link!).origin).toBe(server.url);

    // Someone else's browser: nothing shared with the administrator's context.
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    try {
      const invited = await context.newPage();
      await invited.goto(link!);
      await invited.getByRole('heading', { name: 'Set your password' }).waitFor();
      expect(await invited.getByText(`Choose a password for ${viewer.email}.`).count()).toBe(1);
      await invited.getByLabel('New password').fill(viewer.password);
      await invited.getByLabel('Confirm password').fill(viewer.password);
      await invited.getByRole('button', { name: 'Set password' }).click();

      // The link leads to the site, which asks for the new password.
      await submitSignIn(invited, server.url, viewer.email, viewer.password);
      await invited.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      // The greeting uses the forename: the embedded provider sends no given_name, so it is the
      // display name's first word (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md "Forename and surname").
      expect(await invited.getByText('Welcome, Vera.', { exact: false }).count()).toBe(1);

      // spec 1 §2.2: entries needing a permission the Viewer lacks are hidden.
      const menu = invited.getByRole('navigation', { name: 'Main menu' });
      await menu.getByRole('link', { name: 'Home' }).waitFor();
      await menu.getByRole('link', { name: 'Companies' }).waitFor();
      for (const hidden of ['Users', 'Access Keys', 'Activities']) {
        expect(
          await menu.getByRole('link', { name: hidden, exact: true, includeHidden: true }).count(),
          hidden,
        ).toBe(0);
      }
      // spec 1 §2.2: of the Settings group a Viewer keeps only Company Details (no permission);
      // every other entry needs one.
      expect(
        await menu.getByRole('button', { name: 'Settings', includeHidden: true }).count(),
      ).toBe(1);
      expect(
        await menu
          .getByRole('link', { name: 'Company Details', exact: true, includeHidden: true })
          .count(),
      ).toBe(1);
      for (const hidden of ['Customisation', 'Preferences', 'Payment Providers', 'Notifications']) {
        expect(
          await menu.getByRole('link', { name: hidden, exact: true, includeHidden: true }).count(),
          hidden,
        ).toBe(0);
      }

      // And the screens themselves answer with the forbidden page.
      await invited.goto(`${server.url}/settings/users`);
      await invited.getByRole('heading', { name: 'Forbidden request' }).waitFor();
      expect(new URL(invited.url()).pathname).toBe('/error/403');
      await invited.goto(`${server.url}/activities`);
      await invited.getByRole('heading', { name: 'Forbidden request' }).waitFor();
      // The server refuses too, whatever the site shows.
      expect((await callApi(context, server.url, '/api/v0/users/all')).status()).toBe(403);
    } finally {
      await context.close();
    }
  });

  it('adds a company, watches it become Active and switches to it', async () => {
    await page.goto(`${server.url}/settings/companies`);
    await page.getByRole('heading', { name: 'Companies' }).waitFor();
    // spec 1 §2.2: no company dropdown on the companies page.
    expect(await page.getByRole('button', { name: /^Company(: |$)/ }).count()).toBe(0);
    const grid = page.getByRole('table', { name: 'Companies' });
    await bodyRows(grid).filter({ hasText: 'Demo Ltd' }).waitFor();

    // Every status each company's row shows, recorded as the grid renders it, with its spinner.
    await page.evaluate(() => {
      const trails: Record<string, string[]> = {};
      (window as unknown as { statusTrails: typeof trails }).statusTrails = trails;
      const record = () => {
        for (const row of document.querySelectorAll('tbody tr')) {
          const cells = [...row.querySelectorAll('td')];
          const name = cells[1]?.textContent?.trim();
          const cell = cells[8];
          if (!name || !cell) continue;
          const spinner = cell.querySelector('.mantine-Loader-root') ? ' (spinner)' : '';
          const status = `${cell.textContent?.trim() ?? ''}${spinner}`;
          const trail = (trails[name] ??= []);
          if (trail.at(-1) !== status) trail.push(status);
        }
      };
      record();
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    const trailOf = (name: string) =>
      page.evaluate(
        (name) =>
          (window as unknown as { statusTrails: Record<string, string[]> }).statusTrails[name] ??
          [],
        name,
      );
    // What the server told the grid about each company, in order.
    const answers: Record<string, string[]> = {};
    page.on('response', async (response) => {
      if (response.request().method() !== 'GET' || !/\/api\/v0\/data-sets\?/.test(response.url()))
        return;
      const body = (await response.json().catch(() => null)) as {
        items?: { name: string; status: string }[];
      } | null;
      for (const dataset of body?.items ?? []) (answers[dataset.name] ??= []).push(dataset.status);
    });

    const addCompany = async (name: string) => {
      await page.getByRole('button', { name: 'Add Company' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Company' });
      await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      // spec 1 §2.7: the next free host id, the first host system and GBP are filled in.
      await expect
        .poll(
          () => dialog.getByRole('textbox', { name: 'Host id', exact: true }).inputValue(),
          settle,
        )
        .not.toBe('');
      expect(await dialog.getByRole('textbox', { name: 'Currency' }).inputValue()).toBe('GBP');
      expect(await dialog.getByRole('textbox', { name: 'ERP host system' }).inputValue()).not.toBe(
        '',
      );
      // With the demo warning open, Save stays in view at 900 px high.
      const demo = dialog.getByRole('checkbox', { name: 'Demo company' });
      await demo.check();
      await dialog.getByText('Demo company', { exact: true }).last().waitFor();
      const save = dialog.getByRole('button', { name: 'Save' });
      const saveBox = (await save.boundingBox())!;
      expect(saveBox.y + saveBox.height).toBeLessThanOrEqual(900);
      await demo.uncheck();
      const created = page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' && response.url().endsWith('/api/v0/data-sets'),
      );
      await save.click();
      // The server registers it in a working state and provisions it in the background.
      expect(((await (await created).json()) as { status: string }).status).toBe('Initialise');
      await page.getByText('Company successfully created').first().waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const row = bodyRows(grid).filter({ has: page.getByRole('cell', { name, exact: true }) });
      await row.getByText('Active', { exact: true }).waitFor({ timeout: 30_000 });
      const trail = await trailOf(name);
      expect(trail.at(-1)).toBe('Active');
      expect(trail).not.toContain('Error');
      return trail;
    };

    // spec 1 §4: first a working state with a spinner, then Active once provisioned. The server
    // answers the creation with Initialise (checked in addCompany) and provisions in a job that
    // starts as soon as it is queued, so an empty company is usually Active before the grid's
    // refetch asks; whatever working state the grid does show carries its spinner (the spinner
    // itself is the companies page's component test).
    const trail = await addCompany(companyName);
    const working = ['Initialise', 'Provisioning'];
    for (const status of trail.slice(0, -1))
      if (working.some((state) => status.startsWith(state)))
        expect(status, trail.join(' → ')).toMatch(/\(spinner\)$/);
    expect(answers[companyName]?.at(-1)).toBe('Active');

    // Switch to it from a page with the dropdown.
    await goHomeAndWait(page);
    const companyButton = page.getByRole('button', { name: /^Company(: |$)/ });
    await companyButton.click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('menu').getByRole('menuitem', { name: companyName, exact: true }).click(),
    ]);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await expect.poll(() => companyButton.textContent(), settle).toBe(companyName);
  });

  it('creates an access key, shows it once, and the key opens the API', async () => {
    await openSettingsEntry(page, 'Access Keys');
    await page.waitForURL(`${server.url}/settings/access-keys`);
    await page.getByRole('heading', { name: 'Access Keys' }).waitFor();

    await page.getByRole('button', { name: 'Create Access Key' }).click();
    const form = page.getByRole('dialog', { name: 'Create Access Key' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(keyName);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Access key successfully added').waitFor();

    const created = page.getByRole('dialog', { name: 'Access key created' });
    await created.getByText('Copy the key now').waitFor();
    const shown = await created.getByRole('textbox', { name: 'Access key' }).inputValue();
    expect(shown.length).toBeGreaterThanOrEqual(32);
    await created.getByRole('button', { name: 'Copy access key' }).click();
    // spec 2 §8: the copy says so in a toast.
    await page.getByRole('alert').filter({ hasText: 'Copied to clipboard' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await created.getByRole('button', { name: 'Close', exact: true }).click();
    await created.waitFor({ state: 'hidden' });

    // Never shown again: the grid has the name and the prefix only.
    const row = bodyRows(page.getByRole('table', { name: 'Access Keys' })).filter({
      hasText: keyName,
    });
    await row.waitFor();
    const rowText = (await row.textContent()) ?? '';
    expect(rowText).toContain('No expiration');
    expect(rowText).not.toContain(copied);
    expect(await page.getByText(copied).count()).toBe(0);

    // A machine client with nothing but the key.
    const response = await fetch(`${server.url}/api/v0/data-sets/all`, {
      headers: { authorization: `Bearer ${copied}` },
    });
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: { name: string; status: string }[] };
    expect(items.map((dataset) => dataset.name)).toEqual(
      expect.arrayContaining(['Demo Ltd', companyName]),
    );
    const wrong = await fetch(`${server.url}/api/v0/data-sets/all`, {
      headers: { authorization: `Bearer ${copied.slice(0, -2)}xx` },
    });
    expect(wrong.status).toBe(401);
  });

  it('lists those actions on the activities page, 15 a page with Next and Previous', async () => {
    type Activity = { operation: string; userName: string | null };
    const tenantActivities = async () => {
      const response = await callApi(admin, server.url, '/api/v0/audit-logs?itemsPerPage=100');
      expect(response.status()).toBe(200);
      const page = (await response.json()) as { items: Activity[]; next: string | null };
      expect(page.next).toBeNull();
      return page.items;
    };
    // More than one page of activity: personal settings saved with this session, up to 20 in all.
    const me = (await (await callApi(admin, server.url, '/api/v0/users/me')).json()) as {
      userSetting: unknown;
    };
    const extra = Math.max(1, 20 - (await tenantActivities()).length);
    for (let i = 0; i < extra; i++) {
      const saved = await callApi(admin, server.url, '/api/v0/users/me/settings', {
        method: 'PUT',
        json: me.userSetting,
      });
      expect(saved.status()).toBe(200);
    }
    // What the server holds for the tenant, newest first.
    const all = await tenantActivities();
    expect(all.length).toBeGreaterThan(15);
    expect(all.map((activity) => activity.operation)).toEqual(
      expect.arrayContaining([
        'Login',
        'CreateUser',
        'CreateDataset',
        'CreateAccessKey',
        'UpdateUserSettings',
      ]),
    );

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Activities' })
      .click();
    await page.waitForURL(`${server.url}/activities`);
    await page.getByRole('heading', { name: 'Activities' }).waitFor();
    await page.getByRole('tab', { name: 'Tenant' }).click();
    const grid = page.getByRole('table', { name: 'Tenant activities' });
    const rows = bodyRows(grid);
    // Action and user of each row shown, read in one go: a row locator of a grid that
    // re-renders would wait for a row that went.
    const shownRows = () =>
      rows.evaluateAll((shown) =>
        shown.map((row) =>
          [...row.querySelectorAll('td')]
            .slice(0, 2)
            .map((cell) => cell.textContent?.trim())
            .join(' | '),
        ),
      );
    // spec 3 §2: the operation spaced into words ('CreateUser' → 'Create User').
    const expected = (activities: Activity[]) =>
      activities.map(
        (activity) =>
          `${activity.operation.replace(/([a-z0-9])([A-Z])/g, '$1 $2')} | ${activity.userName ?? '-'}`,
      );
    const next = page.getByRole('button', { name: 'Next' });
    const previous = page.getByRole('button', { name: 'Previous' });

    // Page 1: the newest 15.
    const firstPage = expected(all.slice(0, 15));
    await expect.poll(shownRows, settle).toEqual(firstPage);
    expect(await previous.isDisabled()).toBe(true);
    expect(await next.isEnabled()).toBe(true);

    // Page 2: the older rest.
    await next.click();
    const secondPage = expected(all.slice(15));
    await expect.poll(shownRows, settle).toEqual(secondPage);
    expect(await next.isDisabled()).toBe(true);
    expect(await previous.isEnabled()).toBe(true);

    // Between them, this journey's actions, each by whoever did it.
    const listed = [...firstPage, ...secondPage].map((row) => row.split(' | '));
    const adminName = all.find((activity) => activity.operation === 'CreateUser')!.userName;
    expect(adminName).toBeTruthy();
    for (const action of [
      'Create User',
      'Create Dataset',
      'Create Access Key',
      'Update User Settings',
    ]) {
      expect(listed).toContainEqual([action, adminName]);
    }
    expect(listed).toContainEqual(['Login', adminName]);
    expect(listed).toContainEqual(['Login', viewer.name]);

    await previous.click();
    await expect.poll(shownRows, settle).toEqual(firstPage);
    expect(await previous.isDisabled()).toBe(true);
  });
});
