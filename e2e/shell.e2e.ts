import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { callApi, loginPagePattern, submitSignIn } from './support/sign-in.js';

/** The date part of `when` in Tokyo as dd.MM.yyyy. */
function tokyoDate(when: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Tokyo',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(when);
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('day')}.${part('month')}.${part('year')}`;
}

/** How long a screen may take to show what the test waits for. */
const settle = { timeout: 10_000 };

// Issue "Foundation": a new user's first visit, the shell and the personal settings (spec 1 §2, §4).
describe('the shell', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });

  it('sends a new visitor to the provider and, once signed in, shows the dashboard', async () => {
    await page.goto(server.url);
    // No session yet: the site hands over to the embedded provider's sign-in page.
    await page.waitForURL(loginPagePattern);
    expect(new URL(page.url()).origin).toBe(server.url);

    await submitSignIn(page, server.url, server.adminEmail, server.adminPassword);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.title()).toContain('Dashboard');
    // The side menu is there, and the default company (id 1) is the current one.
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Home' })
      .waitFor();
    await expect
      .poll(() => page.getByRole('button', { name: /^Company(: |$)/ }).textContent(), settle)
      .toBe('Demo Ltd');
  });

  it('switches to another company from the top bar: stored, reloaded and shown', async () => {
    const created = await callApi(context, server.url, '/api/v0/data-sets', {
      method: 'POST',
      json: {
        name: 'Northwind Trading',
        hostSystemName: 'Sage200Pro',
        hostId: 'NW-100',
        customHostId: 'NW-100',
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    // Provisioned in the background: a company in a working state cannot be chosen.
    await expect
      .poll(
        async () => {
          const all = await callApi(context, server.url, '/api/v0/data-sets/all');
          const { items } = (await all.json()) as { items: { id: number; status: string }[] };
          return items.find((dataset) => dataset.id === id)?.status;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe('Active');

    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const companyButton = page.getByRole('button', { name: /^Company(: |$)/ });
    await companyButton.click();
    const menu = page.getByRole('menu');
    const current = menu.getByRole('menuitem', { name: /Demo Ltd/ });
    await current.waitFor();
    expect(await current.getAttribute('aria-current')).toBe('true');

    // Choosing reloads the page: a marker on the old window is gone afterwards.
    await page.evaluate(
      () => ((window as unknown as { beforeSwitch: boolean }).beforeSwitch = true),
    );
    await Promise.all([
      page.waitForEvent('load'),
      menu.getByRole('menuitem', { name: 'Northwind Trading' }).click(),
    ]);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.evaluate(() => 'beforeSwitch' in window)).toBe(false);
    expect(await page.evaluate(() => window.localStorage.getItem('ledgerline.companyId'))).toBe(
      String(id),
    );
    await expect.poll(() => companyButton.textContent(), settle).toBe('Northwind Trading');
    await companyButton.click();
    const chosen = page.getByRole('menu').getByRole('menuitem', { name: 'Northwind Trading' });
    await chosen.waitFor();
    expect(await chosen.getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Escape');
  });

  // On a 390 px phone the whole top bar fits, the user menu included.
  it('keeps the user menu on screen on a 390 px phone', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      const avatar = page.getByRole('button', { name: 'User menu' });
      await expect.poll(async () => (await avatar.boundingBox())?.width ?? 0).toBeGreaterThan(30);
      const box = (await avatar.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      const company = (await page.getByRole('button', { name: /^Company(: |$)/ }).boundingBox())!;
      expect(company.x + company.width).toBeLessThanOrEqual(box.x);
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('shows the not-found page for an address that is no screen', async () => {
    await page.goto(`${server.url}/no-such-page`);
    await page.getByRole('heading', { name: "We can't find the requested page." }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/error/404');
    // The way home.
    await page.getByRole('link', { name: 'Go home' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it('saves my settings and shows dates in my own format and time zone', async () => {
    const clock = page.getByText(/\d{2}:\d{2}:\d{2} · \(UTC/);
    // Before: the defaults, yyyy/MM/dd in GMT Standard Time.
    await expect
      .poll(() => clock.textContent(), settle)
      .toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} · \(UTC\+00:00\) GMT Standard Time$/);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'My settings' }).click();
    await page.waitForURL(`${server.url}/my-settings`);
    await page.getByRole('heading', { name: 'My settings' }).waitFor();

    const form = page.getByRole('form', { name: 'Display settings' });
    await form.getByRole('textbox', { name: 'Time zone' }).click();
    await form.getByRole('textbox', { name: 'Time zone' }).fill('Tokyo');
    await page.getByRole('option', { name: '(UTC+09:00) Tokyo Standard Time' }).click();
    await form.getByRole('textbox', { name: 'Short date format' }).click();
    await page.getByRole('option', { name: /\(dd\.MM\.yyyy\)/ }).click();
    // The preview follows the choice before saving (8 April 2020 15:30).
    await expect
      .poll(() => form.getByText(/^08\.04\.2020 /).textContent(), settle)
      .toBe('08.04.2020 15:30:00');

    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('User settings successfully updated').waitFor();

    // The dashboard's clock now reads in the new format and zone.
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Home' })
      .click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    const newFormat =
      /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2} · \(UTC\+09:00\) Tokyo Standard Time$/;
    await expect.poll(() => clock.textContent(), settle).toMatch(newFormat);
    const before = new Date();
    const text = (await clock.textContent()) ?? '';
    const after = new Date();
    expect(text).toMatch(newFormat);
    // Today in Tokyo (either side of a midnight passing while reading).
    expect([tokyoDate(before), tokyoDate(after)]).toContain(text.slice(0, 10));

    // Kept on the server: a reload shows the same.
    await page.reload();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await expect.poll(() => clock.textContent(), settle).toMatch(newFormat);
  });

  // The shell's frame is in the page itself (painted before any script has
  // come), with the boot script, which the CSP allows by its hash and which names each screen's
  // files (all served); in the browser it starts the first calls without a CSP complaint.
  it('serves the shell frame and the boot script in the page itself', async () => {
    const answer = await context.request.get(`${server.url}/payment-requests`);
    const html = await answer.text();
    expect(html).toContain('data-boot-shell');
    // Signed in, the list's first screen is in the frame (docs/decisions/175-…); signed out, the
    // frame's own bones and status text.
    expect(html).toContain('>Payment Requests</h1>');
    expect(html).toContain('id="first-screen-answers"');
    const signedOut = await (await fetch(`${server.url}/payment-requests`)).text();
    expect(signedOut).toContain('data-boot-shell');
    expect(signedOut).toContain('Loading Ledgerline');
    expect(signedOut).not.toContain('id="first-screen-answers"');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(answer.headers()['content-security-policy']).toContain(`'sha256-${hash}'`);
    const routeFiles = JSON.parse(/var routeFiles = (\{.*\});/.exec(script)![1]!) as {
      files: string[];
      routes: [string, number[]][];
    };
    const list = routeFiles.routes.find(([path]) => path === '/payment-requests');
    expect(list?.[1].length).toBeGreaterThan(0);
    for (const index of list![1]) {
      const file = await context.request.get(`${server.url}/${routeFiles.files[index]}`);
      expect(file.status(), routeFiles.files[index]).toBe(200);
    }

    const errors: string[] = [];
    const listener = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    page.on('console', listener);
    try {
      await page.goto(`${server.url}/payment-requests`);
      await page.getByRole('heading', { name: 'Payment Requests', level: 1 }).waitFor();
      expect(await page.evaluate(() => '__ledgerlineEarly' in window)).toBe(true);
      expect(errors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    } finally {
      page.off('console', listener);
    }
  });

  it('signs out from the user menu and asks to sign in again', async () => {
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(loginPagePattern, { timeout: 20_000 });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The old session is gone on the server too.
    const me = await callApi(context, server.url, '/api/v0/users/me');
    expect(me.status()).toBe(401);
    // Opening the site again does not slip past the sign-in.
    await page.goto(`${server.url}/my-settings`);
    await page.waitForURL(loginPagePattern);
  });
});
