import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { featureFlags, users } from '../../db/schema.js';
import { paymentDisputes, paymentTransactions } from '../../db/schema-receivables.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { makeDemoCompany } from '../../../test/feature-gates.js';

let ctx: TestContext;
let admin: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Geo Ltd' });
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, admin);
  viewer = await signIn(ctx, { tenantName: 'Geo Viewer Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
});
afterAll(() => ctx.close());

const get = (who: SignedIn, url: string, datasetId = '1') =>
  ctx.app.inject({ method: 'GET', url, headers: who.headers({ 'dataset-id': datasetId }) });

describe('geo data', () => {
  it('lists every ISO 3166-1 country by name, GB as 826', async () => {
    const { items } = (await get(admin, '/api/v0/geo-data/countries')).json();
    expect(items.length).toBeGreaterThanOrEqual(249);
    expect(items).toContainEqual({
      id: 826,
      displayName: 'United Kingdom of Great Britain and Northern Ireland',
      alpha2Code: 'GB',
      alpha3Code: 'GBR',
    });
    expect(items.map((c: { displayName: string }) => c.displayName)).toEqual(
      [...items.map((c: { displayName: string }) => c.displayName)].sort((a, b) =>
        a.localeCompare(b, 'en'),
      ),
    );
    expect((await get(admin, '/api/v0/geo-data/countries/826')).json().alpha2Code).toBe('GB');
  });

  it("lists a country's subdivisions and finds one by its code", async () => {
    const { items } = (await get(admin, '/api/v0/geo-data/countries/840/states')).json();
    expect(items).toContainEqual({
      id: 'US-CA',
      displayName: 'California',
      alpha2Code: 'US',
      countryId: 840,
    });
    expect((await get(admin, '/api/v0/geo-data/states/GB-ENG')).json()).toMatchObject({
      displayName: 'England',
      countryId: 826,
    });
  });

  it('answers 404 for an unknown country or state and 400 for a malformed id', async () => {
    expect((await get(admin, '/api/v0/geo-data/countries/999')).statusCode).toBe(404);
    expect((await get(admin, '/api/v0/geo-data/countries/999/states')).statusCode).toBe(404);
    expect((await get(admin, '/api/v0/geo-data/states/GB-ZZZ')).statusCode).toBe(404);
    expect((await get(admin, '/api/v0/geo-data/states/england')).statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v0/geo-data/countries' })).statusCode,
    ).toBe(401);
  });
});

describe('dashboard to-do list', () => {
  it('lists what a new company has to do, each with the permission to fix it', async () => {
    const { items } = (await get(admin, '/api/v0/dashboard/to-do')).json();
    expect(items.map((item: { id: string }) => item.id)).toEqual([
      'payment-provider',
      'access-keys',
      'company-details',
      'logo',
      'website',
    ]);
    expect(items[0]).toMatchObject({
      severity: 'Critical',
      title: 'Configure a payment provider',
      url: '/settings/payment-providers',
      requiredPermissionToFix: 'ConfigurePaymentProvider',
    });
    expect(items[2]).toMatchObject({
      severity: 'Warning',
      title: 'Complete your company details',
      url: '/settings/details',
      requiredPermissionToFix: 'ConfigureSystemSettings',
    });
  });

  // spec 1 §3 To-do result: severity, title, message, url, requiredPermissionToFix.
  const fixOf = (item: { id: string; url: string; requiredPermissionToFix: string | null }) => ({
    id: item.id,
    url: item.url,
    requiredPermissionToFix: item.requiredPermissionToFix,
  });

  it('gives every item of a new company the url that fixes it and the permission it needs', async () => {
    const fresh = await signIn(ctx, { tenantName: 'To Do Kinds Ltd' });
    const { items } = (await get(fresh, '/api/v0/dashboard/to-do')).json();
    expect(items.map(fixOf)).toEqual([
      {
        id: 'payment-provider',
        url: '/settings/payment-providers',
        requiredPermissionToFix: 'ConfigurePaymentProvider',
      },
      {
        id: 'access-keys',
        url: '/settings/access-keys',
        requiredPermissionToFix: 'ManageAccessKeys',
      },
      {
        id: 'company-details',
        url: '/settings/details',
        requiredPermissionToFix: 'ConfigureSystemSettings',
      },
      {
        id: 'logo',
        url: '/settings/customisation',
        requiredPermissionToFix: 'ConfigureSystemSettings',
      },
      {
        id: 'website',
        url: '/settings/details',
        requiredPermissionToFix: 'ConfigureSystemSettings',
      },
    ]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(
        ['id', 'message', 'requiredPermissionToFix', 'severity', 'title', 'url'].sort(),
      );
    }
  });

  it('asks for a subscription key, fixed with ManageSubscriptionKeys, while NewAccessKeyPage is off', async () => {
    const fresh = await signIn(ctx, { tenantName: 'Subscription To Do Ltd' });
    await ctx.database.db
      .insert(featureFlags)
      .values({ name: 'NewAccessKeyPage', enabled: false })
      .onConflictDoUpdate({ target: featureFlags.name, set: { enabled: false } });
    try {
      const { items } = (await get(fresh, '/api/v0/dashboard/to-do')).json();
      expect(items.map(fixOf)).toContainEqual({
        id: 'subscription-keys',
        url: '/settings/access-keys',
        requiredPermissionToFix: 'ManageSubscriptionKeys',
      });
      expect(items.map((item: { id: string }) => item.id)).not.toContain('access-keys');
    } finally {
      await ctx.database.db.delete(featureFlags).where(eq(featureFlags.name, 'NewAccessKeyPage'));
    }
  });

  it('drops the items that are done', async () => {
    const details = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/company-settings',
      headers: admin.headers({ 'dataset-id': '1' }),
      payload: {
        companyDetails: {
          name: 'Geo Ltd',
          mainAddress: {
            firstNames: 'G',
            surname: 'Eo',
            email: 'geo@geo.example',
            address1: '1 Map St',
            city: 'York',
            state: 'England',
            postCode: 'YO1 1AA',
            country: 'United Kingdom',
          },
        },
      },
    });
    expect(details.statusCode).toBe(200);
    expect(
      (await get(admin, '/api/v0/dashboard/to-do'))
        .json()
        .items.map((item: { id: string }) => item.id),
    ).toEqual(['payment-provider', 'access-keys', 'logo', 'website']);
    const key = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/access-keys',
      headers: admin.headers(),
      payload: { name: 'ERP' },
    });
    expect([200, 201]).toContain(key.statusCode);
    expect(
      (await get(admin, '/api/v0/dashboard/to-do'))
        .json()
        .items.map((item: { id: string }) => item.id),
    ).toEqual(['payment-provider', 'logo', 'website']);
  });

  it('asks staff to answer open disputes, refund duplicated payments and capture reservations that are ending', async () => {
    const owner = await signIn(ctx, { tenantName: 'Money To Do Ltd' });
    const ids = async () =>
      (await get(owner, '/api/v0/dashboard/to-do'))
        .json()
        .items.filter((item: { id: string }) =>
          ['open-disputes', 'duplicated-payments', 'expiring-reservations'].includes(item.id),
        );
    expect(await ids()).toEqual([]);
    const scope = { tenantId: owner.tenantId, datasetId: 1 };
    const payment = (status: string, extra: object = {}) => ({
      ...scope,
      id: randomUUID(),
      type: 'Payment',
      status,
      ledgerlineReference: `LL${randomUUID().slice(0, 8)}`,
      statusDateTime: new Date(),
      totalAmount: '100',
      currency: 'GBP',
      paymentProviderName: 'Sandbox',
      ...extra,
    });
    const duplicated = payment('Duplicated');
    const disputed = payment('Disputed');
    await ctx.database.withTenant(owner.tenantId, async (tx) => {
      await tx.insert(paymentTransactions).values([
        duplicated,
        disputed,
        // One reservation ends tomorrow, another in a week: only the first is asked about.
        payment('Pending', { authorisationExpiresOn: new Date(Date.now() + 86_400_000) }),
        payment('Pending', { authorisationExpiresOn: new Date(Date.now() + 7 * 86_400_000) }),
      ]);
      await tx.insert(paymentDisputes).values({
        ...scope,
        id: randomUUID(),
        paymentTransactionId: disputed.id,
        disputeReference: 'dp_1',
        amount: '100',
        currency: 'GBP',
        reason: 'fraudulent',
        stage: 'Opened',
        respondBy: new Date(Date.now() + 10 * 86_400_000),
      });
    });
    const items = await ids();
    expect(items).toEqual([
      expect.objectContaining({
        id: 'open-disputes',
        severity: 'Warning',
        title: 'Answer 1 open dispute',
        url: '/disputes',
        requiredPermissionToFix: null,
      }),
      expect.objectContaining({
        id: 'duplicated-payments',
        title: 'Refund 1 duplicated payment',
        url: `/payment-transactions/${duplicated.id}`,
        requiredPermissionToFix: 'RefundPayment',
      }),
      expect.objectContaining({
        id: 'expiring-reservations',
        title: 'Capture or cancel 1 reservation',
        url: '/payment-transactions/reservations',
        requiredPermissionToFix: 'CapturePendingPayment',
      }),
    ]);
    // Another tenant sees none of it.
    expect(
      (await get(admin, '/api/v0/dashboard/to-do'))
        .json()
        .items.filter(
          (item: { id: string }) =>
            item.id === 'open-disputes' || item.id === 'duplicated-payments',
        ),
    ).toEqual([]);
  });

  it('asks for a payment provider, then for a default one, then for neither', async () => {
    const ids = async () =>
      (await get(admin, '/api/v0/dashboard/to-do'))
        .json()
        .items.map((item: { id: string }) => item.id)
        .filter((id: string) => id.includes('payment-provider'));
    expect(await ids()).toEqual(['payment-provider']);
    const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      ctx.app.inject({
        method,
        url: `/api/v0/${url}`,
        headers: admin.headers({ 'dataset-id': '1' }),
        ...(payload ? { payload } : {}),
      });
    const sandbox = (name: string) => ({
      providerName: 'Sandbox',
      name,
      enabled: true,
      displayPriority: 0,
    });
    // The first configuration of a company becomes its default (spec 3 §4).
    const first = await call('POST', 'providers', sandbox('Sandbox one'));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().isDefault).toBe(true);
    expect(await ids()).toEqual([]);
    const second = await call('POST', 'providers', sandbox('Sandbox two'));
    expect(second.json().isDefault).toBe(false);
    expect((await call('DELETE', `providers/${first.json().id}`)).statusCode).toBeLessThan(300);
    expect(await ids()).toEqual(['default-payment-provider']);
    const chooseDefault = (await get(admin, '/api/v0/dashboard/to-do'))
      .json()
      .items.find((item: { id: string }) => item.id === 'default-payment-provider');
    expect(chooseDefault).toMatchObject({
      url: '/settings/payment-providers',
      requiredPermissionToFix: 'ConfigurePaymentProvider',
    });
    const defaulted = await call('PUT', 'providers/default', {
      paymentProviderId: second.json().id,
    });
    expect(defaulted.statusCode, defaulted.body).toBeLessThan(300);
    expect(await ids()).toEqual([]);
  });

  it("answers 404 for another tenant's company and reads for a viewer", async () => {
    expect((await get(admin, '/api/v0/dashboard/to-do', '2')).statusCode).toBe(404);
    expect((await get(viewer, '/api/v0/dashboard/to-do')).statusCode).toBe(200);
  });
});
