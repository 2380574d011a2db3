import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { freePort, startServer, type RunningServer } from './support/server.js';
import { loginPagePattern } from './support/sign-in.js';

/** A parent site on another origin (localhost against the server's 127.0.0.1) framing a page. */
async function startParent(port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const src = new URL(request.url ?? '/', 'http://parent').searchParams.get('src') ?? '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Parent ERP</title>
<h1>Parent ERP</h1>
<iframe id="ledgerline" title="Ledgerline" src="${src.replace(/"/g, '&quot;')}" style="width:1200px;height:800px"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return server;
}

// The site opened in a frame of an allowed origin, spec 3 §2 embedded view.
describe('embedded view in a parent site on another origin', () => {
  let server: RunningServer;
  let parent: Server;
  let stranger: Server;
  let parentOrigin: string;
  let strangerOrigin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const framed = (): Frame => page.frames().find((frame) => frame !== page.mainFrame())!;

  beforeAll(async () => {
    const parentPort = await freePort();
    const strangerPort = await freePort();
    parentOrigin = `http://localhost:${parentPort}`;
    strangerOrigin = `http://localhost:${strangerPort}`;
    parent = await startParent(parentPort);
    stranger = await startParent(strangerPort);
    server = await startServer({
      env: { FRAME_ANCESTORS: parentOrigin, COOKIE_SECURE: 'true' },
    });
    // Chromium here blocks third-party cookies and storage in the frame (as Incognito, Safari
    // and Firefox strict do): only partitioned cookies work, which is what the site relies on.
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    parent?.close();
    stranger?.close();
  });

  it('signs in inside the frame and shows no menu when asked', async () => {
    const site = `${server.url}/?limitview=true&parenturl=${encodeURIComponent(`${parentOrigin}/`)}&removeMenu=true`;
    await page.goto(`${parentOrigin}/?src=${encodeURIComponent(site)}`);
    await page.getByRole('heading', { name: 'Parent ERP' }).waitFor();
    const frame = page.frameLocator('#ledgerline');
    await expect.poll(() => framed().url(), { timeout: 20_000 }).toMatch(loginPagePattern);
    await frame.getByLabel('Email').fill(server.adminEmail);
    await frame.getByLabel('Password').fill(server.adminPassword);
    await frame.getByRole('button', { name: 'Sign in' }).click();
    await frame.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor({ timeout: 20_000 });
    expect(await frame.getByRole('navigation', { name: 'Main menu' }).count()).toBe(0);

    // The framed session's cookies are partitioned under the parent site, SameSite=None.
    const cookies = await context.cookies(server.url);
    const session = cookies.find((cookie) => cookie.name === '__Host-ledgerline_session');
    expect(session).toMatchObject({ sameSite: 'None', secure: true, httpOnly: true });
    expect((session as { partitionKey?: string }).partitionKey).toBe('http://localhost');
  });

  it('saves through the XSRF-protected API from inside the frame', async () => {
    await framed().goto(`${server.url}/settings/preferences`);
    const frame = page.frameLocator('#ledgerline');
    await frame.getByRole('tab', { name: 'General' }).waitFor();
    await frame.getByRole('switch', { name: 'Payments can be edited' }).click({ force: true });
    // One Save validates both tabs (spec 3 §2): the Advanced tab needs its parse value.
    await frame.getByRole('tab', { name: 'Advanced' }).click();
    await frame.getByRole('textbox', { name: 'Parse value' }).fill('{transactionReference}');
    await frame.getByRole('button', { name: 'Save' }).click();
    await frame.getByText('Settings successfully updated').waitFor();
  });

  it('lands on the 1000 page for a tenantId of another company', async () => {
    await framed().goto(`${server.url}/?tenantId=0195f0c2-0000-7000-8000-00000000abcd`);
    const frame = page.frameLocator('#ledgerline');
    await frame.getByText('Cannot access information. Please sign out and sign back in.').waitFor();
    expect(new URL(framed().url()).pathname).toBe('/error/1000');
  });

  it('refuses to be framed by an origin that is not listed', async () => {
    const other = await context.newPage();
    await other.goto(`${strangerOrigin}/?src=${encodeURIComponent(`${server.url}/`)}`);
    await other.getByRole('heading', { name: 'Parent ERP' }).waitFor();
    await other.waitForTimeout(1500);
    const child = other.frames().find((frame) => frame !== other.mainFrame());
    // Blocked by frame-ancestors: the frame shows the browser's error page, never the site.
    expect(child?.url().startsWith(server.url) && (await child.locator('#root').count()) > 0).toBe(
      false,
    );
    await other.close();
  });
});
