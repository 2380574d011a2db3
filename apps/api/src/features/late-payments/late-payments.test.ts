import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { latePaymentMessages } from '@ledgerline/contract';
import { tenantSettings } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, insertAccount, makeViewer } from '../../../test/fixtures/money-rules.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let call: ReturnType<typeof caller>;

const uk = {
  type: 'Uk',
  name: 'UK statutory',
  description: 'The Act',
  enabled: true,
  gracePeriodInDays: 5,
  applyCharges: true,
};

beforeAll(async () => {
  ctx = await buildTestApp();
  call = caller(ctx);
  merchant = await signIn(ctx, { tenantName: 'Late Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Late Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Late Ltd' });
  await makeViewer(ctx, viewer);
});
afterAll(() => ctx.close());

async function create(who: SignedIn, body: object = uk) {
  const response = await call(who, 'POST', 'late-payment-configurations', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

const errorsOf = (response: { json(): unknown }) =>
  (response.json() as { errors: Record<string, string[]> }).errors;

describe('late payment configurations', () => {
  it('creates with the defaults of spec 3 §9, reads, pages by name, updates', async () => {
    const created = await create(merchant, { type: 'Uk', name: '  Zeta  ', gracePeriodInDays: 0 });
    expect(created).toMatchObject({
      name: 'Zeta',
      enabled: true,
      applyCharges: true,
      gracePeriodInDays: 0,
      feeGroupType: 'LatePayment',
      isDefault: false,
    });
    await create(merchant, { ...uk, name: 'Alpha' });
    const page = await call(merchant, 'GET', 'late-payment-configurations?page=1&itemsPerPage=20');
    const names = (page.json() as { items: { name: string }[] }).items.map((c) => c.name);
    expect(names).toEqual(['Alpha', 'Zeta']);
    const updated = await call(merchant, 'PUT', 'late-payment-configurations', {
      ...uk,
      id: created.id,
      name: 'Zeta',
      gracePeriodInDays: 7,
      applyCharges: false,
    });
    expect(updated.json()).toMatchObject({ gracePeriodInDays: 7, applyCharges: false });
    expect(
      (await call(merchant, 'GET', `late-payment-configurations/${created.id}`)).json(),
    ).toMatchObject({ gracePeriodInDays: 7 });
  });

  it.each([
    [{ gracePeriodInDays: -1 }, 'gracePeriodInDays', latePaymentMessages.gracePeriodRequired],
    [{ gracePeriodInDays: null }, 'gracePeriodInDays', latePaymentMessages.gracePeriodRequired],
    [{ gracePeriodInDays: 2.5 }, 'gracePeriodInDays', latePaymentMessages.gracePeriodRequired],
    [{ name: '' }, 'name', latePaymentMessages.nameRequired],
    [{ name: 'x'.repeat(101) }, 'name', latePaymentMessages.nameTooLong],
    [{ description: 'x'.repeat(501) }, 'description', latePaymentMessages.descriptionTooLong],
    [{ type: 'Custom' }, 'type', latePaymentMessages.customNotAvailable],
  ])('refuses %j: %s', async (change, field, message) => {
    const response = await call(merchant, 'POST', 'late-payment-configurations', {
      ...uk,
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[field]).toContain(message);
  });

  it('gives today’s UK statutory information: 8 %, the Bank Rate, the reference rate and the charges', async () => {
    const response = await call(merchant, 'GET', 'late-payment-configurations/uk/info');
    expect(response.statusCode).toBe(200);
    const info = response.json() as {
      annualStatutoryInterestRate: number;
      currentBoEBaseRate: number;
      latePaymentsApplied: boolean;
      charges: object[];
    };
    expect(info.annualStatutoryInterestRate).toBe(8);
    expect(info.currentBoEBaseRate).toBeGreaterThanOrEqual(0);
    // New tenants start with AllowLatePayments 'true' (tenants.service.ts); the banner shows without it.
    expect(info.latePaymentsApplied).toBe(true);
    expect(info.charges).toEqual([
      { from: 0, to: 999.99, charge: 40 },
      { from: 1000, to: 9999.99, charge: 70 },
      { from: 10000, to: 0, charge: 100 },
    ]);
    await ctx.database.db
      .update(tenantSettings)
      .set({ value: 'false' })
      .where(
        and(
          eq(tenantSettings.tenantId, merchant.tenantId),
          eq(tenantSettings.name, 'AllowLatePayments'),
        ),
      );
    const off = await call(merchant, 'GET', 'late-payment-configurations/uk/info');
    expect(off.json()).toMatchObject({ latePaymentsApplied: false });
    await ctx.database.db
      .update(tenantSettings)
      .set({ value: 'true' })
      .where(
        and(
          eq(tenantSettings.tenantId, merchant.tenantId),
          eq(tenantSettings.name, 'AllowLatePayments'),
        ),
      );
  });

  it('refuses to delete the company default or an account’s choice (409), deletes a free one', async () => {
    const used = await create(merchant, { ...uk, name: 'Used' });
    expect(
      (
        await call(merchant, 'PUT', 'company-settings/preferences', {
          defaultLatePaymentConfigurationId: used.id,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call(merchant, 'GET', `late-payment-configurations/${used.id}`)).json(),
    ).toMatchObject({ isDefault: true });
    const refused = await call(merchant, 'DELETE', `late-payment-configurations/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ errorCode: 'latePaymentConfigurationInUse' });
    await call(merchant, 'PUT', 'company-settings/preferences', {
      defaultLatePaymentConfigurationId: null,
    });
    await insertAccount(ctx, merchant, { latePaymentConfigurationGroupId: used.id });
    expect(
      (await call(merchant, 'DELETE', `late-payment-configurations/${used.id}`)).statusCode,
    ).toBe(409);
    const free = await create(merchant, { ...uk, name: 'Free' });
    expect(
      (await call(merchant, 'DELETE', `late-payment-configurations/${free.id}`)).statusCode,
    ).toBe(204);
    expect((await call(merchant, 'GET', `late-payment-configurations/${free.id}`)).statusCode).toBe(
      404,
    );
  });
});

describe('company preferences', () => {
  it('reads null defaults first, keeps an absent field, refuses unknown ids with a message', async () => {
    const fresh = await signIn(ctx, { tenantName: 'Fresh prefs Ltd' });
    expect((await call(fresh, 'GET', 'company-settings/preferences')).json()).toEqual({
      defaultSettlementConfigurationGroupId: null,
      defaultLatePaymentConfigurationId: null,
      // The general preferences' defaults.
      defaultCountryId: 826,
      defaultEditPaymentStatus: 'Disable',
      allowTransactionCurrencyChange: 'Disable',
      // The reminder run's defaults: no default schedule, 09:00 London time.
      defaultReminderScheduleId: null,
      reminderTime: '09:00',
      reminderTimeZone: 'Europe/London',
    });
    const configuration = await create(fresh);
    await call(fresh, 'PUT', 'company-settings/preferences', {
      defaultLatePaymentConfigurationId: configuration.id,
    });
    const kept = await call(fresh, 'PUT', 'company-settings/preferences', {});
    expect(kept.json()).toMatchObject({ defaultLatePaymentConfigurationId: configuration.id });
    const unknown = await call(fresh, 'PUT', 'company-settings/preferences', {
      defaultSettlementConfigurationGroupId: configuration.id,
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorsOf(unknown).defaultSettlementConfigurationGroupId).toEqual([
      'No settlement configuration group of this company has this id',
    ]);
  });

  it('needs ConfigureSystemSettings to change', async () => {
    expect((await call(viewer, 'GET', 'company-settings/preferences')).statusCode).toBe(200);
    expect(
      (
        await call(viewer, 'PUT', 'company-settings/preferences', {
          defaultLatePaymentConfigurationId: null,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('permissions and cross-tenant', () => {
  it('lets a viewer read but not create, edit or delete', async () => {
    const target = await create(merchant, { ...uk, name: 'Viewer target' });
    expect((await call(viewer, 'GET', 'late-payment-configurations')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', 'late-payment-configurations/uk/info')).statusCode).toBe(200);
    expect((await call(viewer, 'POST', 'late-payment-configurations', uk)).statusCode).toBe(403);
    expect(
      (await call(viewer, 'PUT', 'late-payment-configurations', { ...uk, id: target.id }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(viewer, 'DELETE', `late-payment-configurations/${target.id}`)).statusCode,
    ).toBe(403);
  });

  it('answers 404 for another tenant’s configuration on every route', async () => {
    const target = await create(merchant, { ...uk, name: 'Private' });
    expect((await call(rival, 'GET', `late-payment-configurations/${target.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(rival, 'PUT', 'late-payment-configurations', { ...uk, id: target.id }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call(rival, 'DELETE', `late-payment-configurations/${target.id}`)).statusCode,
    ).toBe(404);
    const list = await call(rival, 'GET', 'late-payment-configurations');
    expect((list.json() as { items: { id: string }[] }).items.map((c) => c.id)).not.toContain(
      target.id,
    );
    expect(
      (
        await call(rival, 'PUT', 'company-settings/preferences', {
          defaultLatePaymentConfigurationId: target.id,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await call(merchant, 'GET', `late-payment-configurations/${target.id}`)).json(),
    ).toMatchObject({ name: 'Private', gracePeriodInDays: 5 });
  });
});
