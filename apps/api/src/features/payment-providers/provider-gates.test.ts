import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { featureGateMessages } from '@ledgerline/contract';
import { datasets, featureFlags, tenantSettings } from '../../db/schema.js';
import { payMessages } from '../pay/pay.service.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';
import { caller } from '../../../test/fixtures/money-rules.js';
import { insertAccount, insertRequest } from '../../../test/fixtures/pay.js';

/*
 * The Sandbox (a test-only kind) belongs to demo companies; a beta kind
 * needs ShowBetaPaymentProviders, Opayo Pi the OpayoPi flag, and every kind its `<Name>Provider`
 * flag. The server refuses the configuration (422 on providerName or integrationType), and a
 * configuration whose kind is withheld is neither offered on the payer page nor takes a payment
 * (docs/decisions/101-feature-flags-and-tenant-settings-are-checked-by.md, "Feature flags and tenant settings are checked by the server").
 */

let ctx: TestContext;
let admin: SignedIn;
/** An Opayo Server save registers the IP address with Opayo first (spec 3 §4). */
let opayoFake: FakeOpayo;
let call: ReturnType<typeof caller>;
let accountId: string;

const sandbox = (name: string, extra: object = {}) => ({
  providerName: 'Sandbox',
  name,
  enabled: true,
  displayPriority: 1,
  isTest: true,
  ...extra,
});
const trueLayer = (name: string) => ({
  providerName: 'TrueLayer',
  name,
  enabled: true,
  displayPriority: 1,
  settings: {
    providerName: 'TrueLayer',
    beneficiaryName: 'Gates Ltd',
    beneficiaryReference: 'Invoice',
    remitterReference: 'Gates',
    beneficiaryBankAccount: {
      accountName: 'Gates Ltd',
      accountNumber: '12345678',
      sortCode: '200000',
      currency: 'GBP',
    },
  },
  credentials: { clientId: 'client', clientSecret: 'TrueLayer-Secret', useSandbox: true },
});
const opayo = (name: string, integrationType: 'Pi' | 'Server') => ({
  providerName: 'Opayo',
  name,
  enabled: true,
  displayPriority: 1,
  settings: { useTestServer: true, integrationType, vendorTxCodeType: 'PaymentRequest' },
  credentials: {
    vendorName: 'ledgerline',
    adminUser: 'admin',
    adminPassword: 'Opayo-Admin-Secret',
    ...(integrationType === 'Pi'
      ? { integrationKey: 'Opayo-Key', integrationPassword: 'Opayo-Pi-Secret' }
      : {}),
  },
});

/** The company's type, as fixed at its creation (spec 1 §3: the demo flag cannot change). */
async function companyIs(type: 'Demo' | 'Production') {
  await ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .update(datasets)
      .set({ type })
      .where(and(eq(datasets.tenantId, admin.tenantId), eq(datasets.id, 1))),
  );
}

/** An operator's `npm run admin -- flag …`; the payer page's few seconds of memory forgotten. */
async function flag(name: string, enabled: boolean) {
  await ctx.database.db
    .insert(featureFlags)
    .values({ name, enabled })
    .onConflictDoUpdate({ target: featureFlags.name, set: { enabled } });
  await ctx.database.withTenant(admin.tenantId, (tx) => tx.execute(sql`select 1`));
}

async function showBeta(value: 'true' | 'false') {
  await ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .update(tenantSettings)
      .set({ value })
      .where(
        and(
          eq(tenantSettings.tenantId, admin.tenantId),
          eq(tenantSettings.name, 'ShowBetaPaymentProviders'),
        ),
      ),
  );
}

async function refused(method: 'POST' | 'PUT', body: object, field: string, message: string) {
  const response = await call(admin, method, 'providers', body);
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json()).toMatchObject({ detail: message, errors: { [field]: [message] } });
}

async function created(body: object): Promise<Record<string, unknown> & { id: string }> {
  const response = await call(admin, 'POST', 'providers', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** What the payer page offers for a new request of company 1, and what a start answers. */
async function payerSees(configurationId: string) {
  const requestId = await insertRequest(ctx, admin, { accountId });
  const page = (await ctx.app.inject({ method: 'GET', url: `/api/v0/pay/${requestId}` })).json();
  const start = await ctx.app.inject({
    method: 'POST',
    url: `/api/v0/pay/${requestId}/payments`,
    payload: { configurationId },
  });
  return {
    offered: (page.methods as { configurationId: string }[]).some(
      (m) => m.configurationId === configurationId,
    ),
    start,
  };
}

beforeAll(async () => {
  opayoFake = await startFakeOpayo();
  opayoFake.vendors.set(
    'ledgerline',
    new Map([['admin', { password: 'Opayo-Admin-Secret', admin: true }]]),
  );
  ctx = await buildTestApp({
    RATE_LIMIT_PAY_PER_MINUTE: '100000',
    OPAYO_TEST_URL: opayoFake.url,
    OPAYO_SERVER_IP: '81.2.69.160',
  });
  call = caller(ctx);
  admin = await signIn(ctx, { tenantName: 'Gates Ltd' });
  accountId = await insertAccount(ctx, admin, { name: 'Gated Customer Ltd' });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await opayoFake.close();
});

describe('the Sandbox test provider', () => {
  it('is refused outside a demo company (422) and added in one', async () => {
    await companyIs('Production');
    await refused(
      'POST',
      sandbox('Production sandbox'),
      'providerName',
      featureGateMessages.testProviderOutsideDemo('Sandbox'),
    );
    await companyIs('Demo');
    await created(sandbox('Demo sandbox'));
  });

  it('of a company that is not a demo is neither enabled nor offered, and takes no payment', async () => {
    await companyIs('Demo');
    const configuration = await created(sandbox('Sandbox before'));
    expect((await payerSees(configuration.id)).offered).toBe(true);
    // A configuration made before the rule (or in a company that is no longer a demo).
    await companyIs('Production');
    const { offered, start } = await payerSees(configuration.id);
    expect(offered).toBe(false);
    expect(start.statusCode, start.body).toBe(422);
    expect(start.json().detail).toBe(payMessages.methodUnavailable);
    // It can be switched off, never on.
    const saved = { ...configuration, credentials: {}, settings: {} };
    await refused(
      'PUT',
      { ...saved, enabled: true },
      'providerName',
      featureGateMessages.testProviderOutsideDemo('Sandbox'),
    );
    const off = await call(admin, 'PUT', 'providers', { ...saved, enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    await companyIs('Demo');
  });
});

describe('feature flags and tenant settings of provider kinds', () => {
  it('refuses a beta kind without ShowBetaPaymentProviders', async () => {
    await showBeta('false');
    await refused(
      'POST',
      trueLayer('Bank (beta)'),
      'providerName',
      featureGateMessages.providerBeta('TrueLayer'),
    );
    await showBeta('true');
    await created(trueLayer('Bank (beta)'));
    await showBeta('false');
  });

  it('refuses Opayo Pi with the OpayoPi flag off, but keeps a configuration that already uses it', async () => {
    await flag('OpayoPi', false);
    await refused(
      'POST',
      opayo('Opayo Pi', 'Pi'),
      'settings.integrationType',
      featureGateMessages.opayoPiOff,
    );
    await flag('OpayoPi', true);
    const pi = await created(opayo('Opayo Pi', 'Pi'));
    await flag('OpayoPi', false);
    // spec 3 §3: Pi stays offered where it is already chosen.
    const kept = await call(admin, 'PUT', 'providers', {
      ...opayo('Opayo Pi renamed', 'Pi'),
      id: pi.id,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const server = await created(opayo('Opayo Server', 'Server'));
    await refused(
      'PUT',
      { ...opayo('Opayo Server', 'Pi'), id: server.id },
      'settings.integrationType',
      featureGateMessages.opayoPiOff,
    );
  });

  it('refuses a kind whose <Name>Provider flag is off; its configurations are not offered and take no payment', async () => {
    await companyIs('Demo');
    const configuration = await created(sandbox('Sandbox switched off later'));
    await flag('SandboxProvider', false);
    await refused(
      'POST',
      sandbox('Sandbox while off'),
      'providerName',
      featureGateMessages.providerSwitchedOff('Sandbox'),
    );
    const { offered, start } = await payerSees(configuration.id);
    expect(offered).toBe(false);
    expect(start.statusCode, start.body).toBe(422);
    await flag('SandboxProvider', true);
    expect((await payerSees(configuration.id)).offered).toBe(true);
  });

  it('honours a kind switched off by the FEATURE_FLAGS default', async () => {
    const other = await buildTestApp({
      FEATURE_FLAGS: 'PermissionPolicy=true,SandboxProvider=false',
    });
    try {
      const merchant = await signIn(other, { tenantName: 'Defaults Ltd' });
      await other.database.db
        .update(datasets)
        .set({ type: 'Demo' })
        .where(eq(datasets.tenantId, merchant.tenantId));
      const response = await caller(other)(merchant, 'POST', 'providers', sandbox('Off'));
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().detail).toBe(featureGateMessages.providerSwitchedOff('Sandbox'));
    } finally {
      await other.close();
    }
  });
});
