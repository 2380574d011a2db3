import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundingMessages } from '@ledgerline/contract';
import { featureFlags } from '../../db/schema.js';
import { startFakeCapitalise } from '../../../test/fakes/fake-capitalise.js';
import type { FakeServer } from '../../../test/fakes/fake-server.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

describe('funding search (spec 3 §2 Funding, Capitalise)', () => {
  let capitalise: FakeServer;
  let configured: TestContext;
  let unconfigured: TestContext;
  let admin: SignedIn;
  let other: SignedIn;

  beforeAll(async () => {
    capitalise = await startFakeCapitalise();
    configured = await buildTestApp({
      CAPITALISE_INTRODUCER_KEY: 'ledgerline-partner-7',
      CAPITALISE_URL: capitalise.url,
    });
    unconfigured = await buildTestApp();
    admin = await signIn(configured, { tenantName: 'Funding Ltd' });
    other = await signIn(unconfigured, { tenantName: 'Unfunded Ltd' });
  });
  afterAll(async () => {
    await configured?.close();
    await unconfigured?.close();
    await capitalise?.close();
  });

  const search = (ctx: TestContext, who: SignedIn) =>
    ctx.app.inject({ method: 'GET', url: '/api/v0/funding/search', headers: who.headers() });

  it('is not found while the Capitalise flag is off', async () => {
    const response = await search(configured, admin);
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe(fundingMessages.notEnabled);
  });

  it("gives the frame's address with the introducer key, and the page is there", async () => {
    await configured.database.db.insert(featureFlags).values({ name: 'Capitalise', enabled: true });
    const response = await search(configured, admin);
    expect(response.statusCode).toBe(200);
    const { searchUrl } = response.json();
    expect(searchUrl).toBe(
      `${capitalise.url}/app/questionnaire/funding/search?introducer=ledgerline-partner-7`,
    );
    // The address is one the (fake) Capitalise host serves for framing.
    const page = await fetch(searchUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-introducer="ledgerline-partner-7"');
    // The CSP lets the site frame exactly that host.
    expect(String(response.headers['content-security-policy'])).toContain(
      `frame-src 'self' blob: ${new URL(capitalise.url).origin};`,
    );
  });

  it('says it is not set up without an introducer key', async () => {
    await unconfigured.database.db
      .insert(featureFlags)
      .values({ name: 'Capitalise', enabled: true });
    const response = await search(unconfigured, other);
    expect(response.json()).toEqual({ searchUrl: null });
    expect(String(response.headers['content-security-policy'])).toContain(
      "frame-src 'self' blob:;",
    );
  });

  it('needs a signed-in caller', async () => {
    const response = await configured.app.inject({ method: 'GET', url: '/api/v0/funding/search' });
    expect(response.statusCode).toBe(401);
  });
});
