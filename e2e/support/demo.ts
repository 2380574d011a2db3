import type { BrowserContext, Page } from 'playwright-core';
import { callApi } from './sign-in.js';

/**
 * Creates a demo company (README: generated accounts, invoices, payment requests and payments, the
 * Sandbox as its provider) through the API with the signed-in context's session, as the journeys
 * do, and waits until it is Active. Returns its id.
 */
export async function createDemoCompany(
  context: BrowserContext,
  siteUrl: string,
  name: string,
  hostId: string,
): Promise<number> {
  const created = await callApi(context, siteUrl, '/api/v0/data-sets', {
    method: 'POST',
    json: {
      name,
      hostSystemName: 'Sage200Pro',
      hostId,
      customHostId: hostId,
      hostDemoSystem: true,
    },
  });
  if (created.status() !== 201)
    throw new Error(`creating ${name}: ${created.status()} ${await created.text()}`);
  const { id } = (await created.json()) as { id: number };
  const deadline = Date.now() + 90_000;
  for (;;) {
    const all = await callApi(context, siteUrl, '/api/v0/data-sets/all');
    const { items } = (await all.json()) as { items: { id: number; status: string }[] };
    if (items.find((dataset) => dataset.id === id)?.status === 'Active') return id;
    if (Date.now() > deadline) throw new Error(`${name} did not become Active in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Makes `companyId` the page's current company (what the company switcher stores) and reloads. */
export async function chooseCompany(page: Page, companyId: number): Promise<void> {
  await page.evaluate(
    (id) => window.localStorage.setItem('ledgerline.companyId', String(id)),
    companyId,
  );
  await page.reload();
}

/** A GET of the API in the company `companyId`, with the context's session. */
export async function getInCompany<T>(
  context: BrowserContext,
  siteUrl: string,
  companyId: number,
  path: string,
): Promise<T> {
  const response = await callApi(context, siteUrl, path, {
    headers: { 'dataset-id': String(companyId) },
  });
  if (!response.ok()) throw new Error(`GET ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}
