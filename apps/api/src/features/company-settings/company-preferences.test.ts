import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  companyPreferencesMessages as m,
  customHostIdMessages,
  paymentRequestSettingsMessages as rm,
} from '@ledgerline/contract';
import { accounts } from '../../db/schema-receivables.js';
import { auditActivities, users } from '../../db/schema.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { templateMessages } from '../transactions/custom-host-id.template.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let admin: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Preferences Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Preferences Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Preferences Ltd' });
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  await ctx.database.withTenant(admin.tenantId, (tx) =>
    generateReceivables(
      tx,
      { tenantId: admin.tenantId, datasetId: 1 },
      { accounts: 2, transactions: 2, paymentRequests: 0, paymentTransactions: 0, banks: 0 },
    ),
  );
});
afterAll(() => ctx.close());

const call = (who: SignedIn, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': '1' }),
    ...(payload === undefined ? {} : { payload }),
  });

const errorsOf = (response: { json(): { errors?: Record<string, string[]> } }) =>
  response.json().errors ?? {};

describe('company-settings/preferences', () => {
  it('reads the defaults before anything is saved: GB, Disable, Disable', async () => {
    const response = await call(admin, 'GET', 'company-settings/preferences');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      defaultSettlementConfigurationGroupId: null,
      defaultLatePaymentConfigurationId: null,
      defaultCountryId: 826,
      defaultEditPaymentStatus: 'Disable',
      allowTransactionCurrencyChange: 'Disable',
      defaultReminderScheduleId: null,
      reminderTime: '09:00',
      reminderTimeZone: 'Europe/London',
    });
  });

  it('saves the general preferences, keeps what is absent, and writes an activity', async () => {
    const saved = await call(admin, 'PUT', 'company-settings/preferences', {
      defaultCountryId: 372,
      defaultEditPaymentStatus: 'Allow',
      allowTransactionCurrencyChange: 'Allow',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      defaultCountryId: 372,
      defaultEditPaymentStatus: 'Allow',
      allowTransactionCurrencyChange: 'Allow',
    });
    const partial = await call(admin, 'PUT', 'company-settings/preferences', {
      defaultEditPaymentStatus: 'Disable',
    });
    expect(partial.json()).toMatchObject({
      defaultCountryId: 372,
      defaultEditPaymentStatus: 'Disable',
      allowTransactionCurrencyChange: 'Allow',
    });
    const activities = await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx
        .select()
        .from(auditActivities)
        .where(
          and(
            eq(auditActivities.tenantId, admin.tenantId),
            eq(auditActivities.operation, 'UpdateCompanyPreferences'),
          ),
        ),
    );
    expect(activities).toHaveLength(2);
  });

  it('refuses each bad value with its message and saves nothing', async () => {
    const cases: [object, string, string][] = [
      [{ defaultCountryId: 'GB' }, 'defaultCountryId', m.defaultCountryRequired],
      [{ defaultCountryId: 826.5 }, 'defaultCountryId', m.defaultCountryRequired],
      [{ defaultCountryId: 999 }, 'defaultCountryId', m.defaultCountryUnknown],
      [{ defaultEditPaymentStatus: 'Maybe' }, 'defaultEditPaymentStatus', m.editPaymentStatus],
      [
        { allowTransactionCurrencyChange: true },
        'allowTransactionCurrencyChange',
        m.currencyChange,
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await call(admin, 'PUT', 'company-settings/preferences', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.entries(errorsOf(response))).toContainEqual([
        expect.stringContaining(field),
        [message],
      ]);
    }
    expect((await call(admin, 'GET', 'company-settings/preferences')).json()).toMatchObject({
      defaultCountryId: 372,
      allowTransactionCurrencyChange: 'Allow',
    });
  });

  it("needs ConfigureSystemSettings to save; another tenant's company is not found", async () => {
    expect((await call(viewer, 'GET', 'company-settings/preferences')).statusCode).toBe(200);
    expect(
      (await call(viewer, 'PUT', 'company-settings/preferences', { defaultCountryId: 826 }))
        .statusCode,
    ).toBe(403);
    expect((await call(rival, 'GET', 'company-settings/preferences')).json().defaultCountryId).toBe(
      826,
    );
    const other = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/company-settings/preferences',
      headers: rival.headers({ 'dataset-id': '2' }),
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('company-settings/payment-request', () => {
  it('reads no expiry, Single and Long before anything is saved', async () => {
    expect((await call(admin, 'GET', 'company-settings/payment-request')).json()).toEqual({
      validUntilAddition: null,
      defaultUsageType: 'Single',
      linkSize: 'Long',
    });
  });

  it('caps the quantity by unit: 500 days, 24 weeks, 24 months, 5 years', async () => {
    for (const [unit, max, name] of [
      ['Day', 500, 'days'],
      ['Week', 24, 'weeks'],
      ['Month', 24, 'months'],
      ['Year', 5, 'years'],
    ] as const) {
      const ok = await call(admin, 'PUT', 'company-settings/payment-request', {
        validUntilAddition: { unit, quantity: max },
        defaultUsageType: 'Single',
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().validUntilAddition).toEqual({ unit, quantity: max });
      const over = await call(admin, 'PUT', 'company-settings/payment-request', {
        validUntilAddition: { unit, quantity: max + 1 },
        defaultUsageType: 'Single',
      });
      expect(over.statusCode).toBe(400);
      expect(Object.values(errorsOf(over))).toContainEqual([
        `Quantity must be at most ${max} ${name}`,
      ]);
    }
  });

  it('refuses a missing quantity, a unit that is not selectable, a short link and no usage type', async () => {
    const cases: [object, string][] = [
      [{ validUntilAddition: { unit: 'Week' }, defaultUsageType: 'Single' }, rm.quantity],
      [
        { validUntilAddition: { unit: 'Week', quantity: '2' }, defaultUsageType: 'Single' },
        rm.quantity,
      ],
      [
        { validUntilAddition: { unit: 'Week', quantity: 1.5 }, defaultUsageType: 'Single' },
        rm.quantityWhole,
      ],
      [
        { validUntilAddition: { unit: 'Week', quantity: -1 }, defaultUsageType: 'Single' },
        rm.quantityNegative,
      ],
      [{ validUntilAddition: { unit: 'Hour', quantity: 2 }, defaultUsageType: 'Single' }, rm.unit],
      [{ validUntilAddition: null, defaultUsageType: 'Single', linkSize: 'Short' }, rm.linkSize],
      [{ validUntilAddition: null }, rm.usageType],
    ];
    for (const [body, message] of cases) {
      const response = await call(admin, 'PUT', 'company-settings/payment-request', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.values(errorsOf(response)), JSON.stringify(body)).toContainEqual([message]);
    }
  });

  it('stores a quantity of 0 as no expiry', async () => {
    const response = await call(admin, 'PUT', 'company-settings/payment-request', {
      validUntilAddition: { unit: 'Day', quantity: 0 },
      defaultUsageType: 'Multiple',
    });
    expect(response.json()).toEqual({
      validUntilAddition: null,
      defaultUsageType: 'Multiple',
      linkSize: 'Long',
    });
  });

  it('feeds new requests: the default expiry and usage type, unless the caller names a valid-to', async () => {
    const saved = await call(admin, 'PUT', 'company-settings/payment-request', {
      validUntilAddition: { unit: 'Week', quantity: 2 },
      defaultUsageType: 'Multiple',
    });
    expect(saved.statusCode).toBe(200);
    const [account] = await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx.select().from(accounts).where(eq(accounts.tenantId, admin.tenantId)),
    );
    const before = Date.now();
    const dialog = await call(admin, 'POST', 'payment-requests', {
      requestType: 'Transaction',
      accountId: account!.id,
      currency: 'GBP',
      amount: 100,
      transactionDate: '2026-11-01',
      dueDate: '2026-12-01',
    });
    expect(dialog.statusCode).toBe(201);
    const fortnight = 14 * 24 * 3600 * 1000;
    const validUntil = Date.parse(dialog.json().validUntil);
    expect(validUntil).toBeGreaterThanOrEqual(before + fortnight);
    expect(validUntil).toBeLessThanOrEqual(Date.now() + fortnight);
    expect(dialog.json().options).toEqual({ usage: 'Multiple' });

    const accountRequest = {
      requestType: 'Account',
      captureType: 'Immediate',
      currency: 'GBP',
      amountToPay: 10,
      accountId: account!.id,
      validFrom: '2030-01-10T00:00:00.000Z',
    };
    const connector = await call(admin, 'POST', 'payment-requests', accountRequest);
    expect(connector.json().validUntil).toBe('2030-01-24T00:00:00.000Z');
    const noExpiry = await call(admin, 'POST', 'payment-requests', {
      ...accountRequest,
      validUntil: null,
    });
    expect(noExpiry.json().validUntil).toBeNull();
  });

  it('needs ConfigureSystemSettings to save', async () => {
    expect((await call(viewer, 'GET', 'company-settings/payment-request')).statusCode).toBe(200);
    expect(
      (
        await call(viewer, 'PUT', 'company-settings/payment-request', {
          validUntilAddition: null,
          defaultUsageType: 'Single',
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('company-settings/all-preferences: the one Save, all or nothing (spec 3 §2)', () => {
  const page = (changes: {
    preferences?: object;
    paymentRequest?: object;
    customHostId?: object;
  }) => ({
    preferences: {
      defaultCountryId: 250,
      defaultEditPaymentStatus: 'Allow',
      allowTransactionCurrencyChange: 'Disable',
      ...changes.preferences,
    },
    paymentRequest: {
      validUntilAddition: { unit: 'Week', quantity: 3 },
      defaultUsageType: 'Multiple',
      linkSize: 'Long',
      ...changes.paymentRequest,
    },
    customHostId: {
      createOption: 'AlwaysCreate',
      updateOption: 'CreateIfNull',
      trimWhiteSpace: true,
      parseValue: '{accountReference}-{transactionReference}',
      ...changes.customHostId,
    },
  });
  const everything = async () => ({
    preferences: (await call(admin, 'GET', 'company-settings/preferences')).json(),
    paymentRequest: (await call(admin, 'GET', 'company-settings/payment-request')).json(),
    customHostId: (await call(admin, 'GET', 'company-settings/custom-host-id')).json(),
  });

  it('saves the three parts in one call and writes one activity', async () => {
    const saved = await call(admin, 'PUT', 'company-settings/all-preferences', page({}));
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = {
      preferences: {
        defaultCountryId: 250,
        defaultEditPaymentStatus: 'Allow',
        allowTransactionCurrencyChange: 'Disable',
      },
      paymentRequest: {
        validUntilAddition: { unit: 'Week', quantity: 3 },
        defaultUsageType: 'Multiple',
        linkSize: 'Long',
      },
      customHostId: {
        createOption: 'AlwaysCreate',
        updateOption: 'CreateIfNull',
        trimWhiteSpace: true,
        parseValue: '{accountReference}-{transactionReference}',
      },
    };
    expect(saved.json()).toMatchObject(expected);
    expect(await everything()).toMatchObject(expected);
    const activities = await ctx.database.withTenant(admin.tenantId, (tx) =>
      tx
        .select()
        .from(auditActivities)
        .where(
          and(
            eq(auditActivities.tenantId, admin.tenantId),
            eq(auditActivities.operation, 'UpdatePreferences'),
          ),
        ),
    );
    expect(activities.map((a) => a.status)).toEqual([200]);
  });

  it('the last part fails after the first two were written: nothing is saved', async () => {
    const before = await everything();
    // The parse value passes the body's rules and is refused by the save itself, after the
    // general preferences and the payment request settings were written in the same transaction.
    const response = await call(
      admin,
      'PUT',
      'company-settings/all-preferences',
      page({
        preferences: { defaultCountryId: 276, allowTransactionCurrencyChange: 'Allow' },
        paymentRequest: { validUntilAddition: { unit: 'Day', quantity: 10 } },
        customHostId: { parseValue: '{nope}' },
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual({
      'customHostId.parseValue': [templateMessages.unknown('nope', 1)],
    });
    expect(await everything()).toEqual(before);
  });

  it('a refused first part saves nothing either, with its message under preferences', async () => {
    const before = await everything();
    const response = await call(
      admin,
      'PUT',
      'company-settings/all-preferences',
      page({ preferences: { defaultCountryId: 999 }, customHostId: { parseValue: '{currency}' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toEqual({
      'preferences.defaultCountryId': [m.defaultCountryUnknown],
    });
    expect(await everything()).toEqual(before);
  });

  it("each part's body rules, keyed by part: nothing saved", async () => {
    const before = await everything();
    const response = await call(
      admin,
      'PUT',
      'company-settings/all-preferences',
      page({
        paymentRequest: { validUntilAddition: { unit: 'Day', quantity: 501 } },
        customHostId: { parseValue: '' },
      }),
    );
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toMatchObject({
      'paymentRequest.validUntilAddition.quantity': [rm.quantityTooLarge('Day')],
      'customHostId.parseValue': [customHostIdMessages.parseValueRequired],
    });
    expect(await everything()).toEqual(before);
  });

  it("needs ConfigureSystemSettings; another tenant's company is not found", async () => {
    expect(
      (await call(viewer, 'PUT', 'company-settings/all-preferences', page({}))).statusCode,
    ).toBe(403);
    const other = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/company-settings/all-preferences',
      headers: rival.headers({ 'dataset-id': '2' }),
      payload: page({}),
    });
    expect(other.statusCode).toBe(404);
    // The rival's own company is untouched by the admin's saves.
    expect((await call(rival, 'GET', 'company-settings/preferences')).json().defaultCountryId).toBe(
      826,
    );
  });
});
