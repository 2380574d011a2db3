import type { APIResponse, BrowserContext, Page } from 'playwright-core';

/** The embedded provider's interaction pages (sign-in, set password) live under /idp-login. */
export const loginPagePattern = /\/idp-login\/[A-Za-z0-9_-]+$/;

/** True once the page is back on the site: its own origin, past the provider and the callback. */
export function onSite(siteUrl: string) {
  const origin = new URL(siteUrl).origin;
  return (url: URL) =>
    url.origin === origin &&
    !url.pathname.startsWith('/idp') &&
    !url.pathname.startsWith('/signin-callback');
}

/**
 * Fills in the provider's sign-in page the page is on and waits until the site has taken over
 * (the callback completed and the address it started from restored).
 */
export async function submitSignIn(
  page: Page,
  siteUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.waitForURL(loginPagePattern);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(onSite(siteUrl));
}

/**
 * Signs in as a person would: open the site (at `path`), get sent to the embedded provider's
 * sign-in page, fill in e-mail and password, submit, and land back on the site.
 */
export async function signInThroughBrowser(
  page: Page,
  siteUrl: string,
  email: string,
  password: string,
  path = '/',
): Promise<void> {
  await page.goto(new URL(path, siteUrl).href);
  await submitSignIn(page, siteUrl, email, password);
}

/**
 * A call to the API with the browser context's own session: its cookies plus the XSRF header
 * the site sends on unsafe methods.
 */
export async function callApi(
  context: BrowserContext,
  siteUrl: string,
  path: string,
  init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<APIResponse> {
  const cookies = await context.cookies(siteUrl);
  const xsrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value;
  const headers: Record<string, string> = { ...init.headers };
  if (xsrf) headers['x-xsrf-token'] = xsrf;
  return context.request.fetch(new URL(path, siteUrl).href, {
    method: init.method ?? 'GET',
    headers,
    data: init.json,
  });
}
