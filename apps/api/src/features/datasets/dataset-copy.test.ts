import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accessKeys } from '../../db/schema.js';
import {
  companyDetails,
  companyLogos,
  customerNotificationSettings,
  notificationRecipients,
} from '../../db/schema-company.js';
import {
  companyPreferences,
  latePaymentConfigurations,
  settlementConfigurationGroups,
  settlementConfigurations,
} from '../../db/schema-money-rules.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { customHostIdSettings } from '../../db/schema-receivables.js';
import { webHookEndpoints } from '../../db/schema-web-hooks.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

/*
 * spec 1 §2.7: a company added with a copy-from company starts with that company's configuration:
 * preferences, payment request settings, custom host id setting, settlement groups with their
 * configurations, late-payment configurations, notification settings and company details. Never
 * its payment providers (credentials), access keys or web hooks. All in the creating transaction.
 */

let ctx: TestContext;
let admin: SignedIn;
const groupId = '0190a000-0000-7000-8000-000000000001';
const latePaymentId = '0190a000-0000-7000-8000-000000000002';

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Copy Source Ltd' });
  await configureSource(admin.tenantId);
});
afterAll(() => ctx.close());

/** Company 1 with one of everything a company can be configured with. */
async function configureSource(tenantId: string) {
  const source = { tenantId, datasetId: 1 };
  await ctx.database.withTenant(tenantId, async (tx) => {
    await tx.insert(settlementConfigurationGroups).values({
      ...source,
      id: groupId,
      name: 'Early payers',
      description: 'Two percent in ten days',
      customerEnabled: true,
    });
    await tx.insert(settlementConfigurations).values({
      ...source,
      id: '0190a000-0000-7000-8000-000000000003',
      groupId,
      type: 'Percentage',
      description: '2% within 10 days',
      dateType: 'InvoiceDate',
      numberOfDays: 10,
      percentageDiscount: '2.0000',
      filterGroup: { filterConfigurations: [{ field: 'currency', value: 'GBP' }] },
    });
    await tx.insert(latePaymentConfigurations).values({
      ...source,
      id: latePaymentId,
      type: 'UkStatutory',
      name: 'Statutory',
      gracePeriodInDays: 7,
    });
    await tx.insert(companyPreferences).values({
      ...source,
      defaultSettlementConfigurationGroupId: groupId,
      defaultLatePaymentConfigurationId: latePaymentId,
      defaultCountryId: 77,
      defaultEditPaymentStatus: 'Allow',
      allowTransactionCurrencyChange: 'Allow',
      validUntilUnit: 'Week',
      validUntilQuantity: 2,
      defaultUsageType: 'Multiple',
    });
    await tx.insert(customHostIdSettings).values({
      ...source,
      id: 'transaction',
      createOption: 'Always',
      updateOption: 'Never',
      trimWhiteSpace: true,
      parseValue: '{accountReference}-{transactionReference}',
    });
    await tx.insert(notificationRecipients).values([
      {
        ...source,
        id: '0190a000-0000-7000-8000-000000000004',
        type: 'User',
        userId: admin.userId,
        enabled: ['PaymentReceived'],
      },
      {
        ...source,
        id: '0190a000-0000-7000-8000-000000000005',
        type: 'Email',
        emailAddress: 'ar@source.example',
        enabled: ['PaymentFailed'],
      },
    ]);
    await tx
      .insert(customerNotificationSettings)
      .values({ ...source, notificationName: 'PaymentReceipt', isEnabled: false });
    await tx.insert(companyDetails).values({
      ...source,
      name: 'Source Trading Ltd',
      website: 'https://source.example',
      firstNames: 'Ada',
      surname: 'Lovelace',
      email: 'ada@source.example',
      address1: '1 Engine Street',
      city: 'London',
      state: '',
      postCode: 'N1 1AA',
      country: 'GB',
    });
    await tx.insert(companyLogos).values({
      ...source,
      fileName: 'logo.png',
      fileType: 'image/png',
      fileSize: 60,
      data: Buffer.alloc(60, 1),
    });
    await tx.insert(paymentProviders).values({
      ...source,
      id: '0190a000-0000-7000-8000-000000000006',
      providerName: 'Stripe',
      name: 'Card payments',
      enabled: true,
      isDefault: true,
      settings: { accountId: 'acct_source' },
      credentialsSealed: 'v1.k.iv.tag.secret-of-the-source',
    });
    await tx.insert(webHookEndpoints).values({
      ...source,
      id: '0190a000-0000-7000-8000-000000000007',
      url: 'https://hooks.source.example/ledgerline',
      secret: 'whsec_c291cmNlLXNlY3JldA==',
    });
    await tx.insert(accessKeys).values({
      tenantId,
      id: '0190a000-0000-7000-8000-000000000008',
      datasetId: 1,
      kind: 'access',
      name: 'ERP connector',
      prefix: 'llk_src',
      hash: 'hash-of-the-source-key',
    });
  });
}

async function createCopy(copyFromDatasetId: number, hostId: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/data-sets',
    headers: admin.headers(),
    payload: {
      name: `Copy ${hostId}`,
      hostSystemName: 'Sage200Pro',
      hostId,
      customHostId: `C-${hostId}`,
      copyFromDatasetId,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as number;
}

type CompanyTable =
  | typeof accessKeys
  | typeof companyDetails
  | typeof companyLogos
  | typeof companyPreferences
  | typeof customHostIdSettings
  | typeof customerNotificationSettings
  | typeof latePaymentConfigurations
  | typeof notificationRecipients
  | typeof paymentProviders
  | typeof settlementConfigurationGroups
  | typeof settlementConfigurations
  | typeof webHookEndpoints;

/** Rows of a company-owned table for one company, read as the tenant. */
function rowsOf<T extends CompanyTable>(table: T, datasetId: number) {
  return ctx.database.withTenant(admin.tenantId, (tx) =>
    tx
      .select()
      .from(table as typeof companyDetails)
      .where(and(eq(table.tenantId, admin.tenantId), eq(table.datasetId, datasetId))),
  ) as Promise<T['$inferSelect'][]>;
}

describe('POST data-sets with a copy-from company', () => {
  let copyId: number;
  beforeAll(async () => {
    // Read straight after the answer: the copy is part of the creation, not of the background job.
    copyId = await createCopy(1, 'COPY-1');
  });

  it('copies the settlement groups with their configurations, under new ids', async () => {
    const [group] = await rowsOf(settlementConfigurationGroups, copyId);
    expect(group).toMatchObject({
      name: 'Early payers',
      description: 'Two percent in ten days',
      customerEnabled: true,
      transactionEnabled: false,
    });
    expect(group!.id).not.toBe(groupId);
    const configurations = await rowsOf(settlementConfigurations, copyId);
    expect(configurations).toHaveLength(1);
    expect(configurations[0]).toMatchObject({
      groupId: group!.id,
      type: 'Percentage',
      description: '2% within 10 days',
      dateType: 'InvoiceDate',
      numberOfDays: 10,
      percentageDiscount: '2.0000',
      filterGroup: { filterConfigurations: [{ field: 'currency', value: 'GBP' }] },
    });
  });

  it('copies the late-payment configurations', async () => {
    const rows = await rowsOf(latePaymentConfigurations, copyId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'UkStatutory',
      name: 'Statutory',
      gracePeriodInDays: 7,
      enabled: true,
    });
    expect(rows[0]!.id).not.toBe(latePaymentId);
  });

  it('copies the preferences and payment request settings, the defaults pointing at the copies', async () => {
    const [group] = await rowsOf(settlementConfigurationGroups, copyId);
    const [latePayment] = await rowsOf(latePaymentConfigurations, copyId);
    const [preferences] = await rowsOf(companyPreferences, copyId);
    expect(preferences).toMatchObject({
      defaultSettlementConfigurationGroupId: group!.id,
      defaultLatePaymentConfigurationId: latePayment!.id,
      defaultCountryId: 77,
      defaultEditPaymentStatus: 'Allow',
      allowTransactionCurrencyChange: 'Allow',
      validUntilUnit: 'Week',
      validUntilQuantity: 2,
      defaultUsageType: 'Multiple',
    });
    // And the API answers them for the new company.
    const read = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/company-settings/preferences',
      headers: admin.headers({ 'dataset-id': String(copyId) }),
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(JSON.stringify(read.json())).toContain(group!.id);
  });

  it('copies the custom host id setting', async () => {
    const rows = await rowsOf(customHostIdSettings, copyId);
    expect(rows).toEqual([
      expect.objectContaining({
        id: 'transaction',
        createOption: 'Always',
        updateOption: 'Never',
        trimWhiteSpace: true,
        parseValue: '{accountReference}-{transactionReference}',
      }),
    ]);
  });

  it('copies the notification settings: recipients under new ids and the customer switches', async () => {
    const recipients = await rowsOf(notificationRecipients, copyId);
    expect(
      recipients
        .map(({ type, userId, emailAddress, enabled }) => ({ type, userId, emailAddress, enabled }))
        .sort((a, b) => a.type.localeCompare(b.type)),
    ).toEqual([
      {
        type: 'Email',
        userId: null,
        emailAddress: 'ar@source.example',
        enabled: ['PaymentFailed'],
      },
      { type: 'User', userId: admin.userId, emailAddress: null, enabled: ['PaymentReceived'] },
    ]);
    expect(recipients.map((recipient) => recipient.id)).not.toContain(
      '0190a000-0000-7000-8000-000000000004',
    );
    expect(await rowsOf(customerNotificationSettings, copyId)).toEqual([
      expect.objectContaining({ notificationName: 'PaymentReceipt', isEnabled: false }),
    ]);
  });

  it('copies the company details', async () => {
    expect(await rowsOf(companyDetails, copyId)).toEqual([
      expect.objectContaining({
        name: 'Source Trading Ltd',
        website: 'https://source.example',
        firstNames: 'Ada',
        surname: 'Lovelace',
        email: 'ada@source.example',
        address1: '1 Engine Street',
        city: 'London',
        postCode: 'N1 1AA',
        country: 'GB',
      }),
    ]);
  });

  it('copies no payment provider (credentials and configuration), web hook, access key or logo', async () => {
    expect(await rowsOf(paymentProviders, copyId)).toEqual([]);
    expect(await rowsOf(webHookEndpoints, copyId)).toEqual([]);
    expect(await rowsOf(accessKeys, copyId)).toEqual([]);
    expect(await rowsOf(companyLogos, copyId)).toEqual([]);
    const providers = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/providers',
      headers: admin.headers({ 'dataset-id': String(copyId) }),
    });
    expect(providers.statusCode, providers.body).toBe(200);
    expect(providers.json().items).toEqual([]);
  });

  it('leaves the source as it was', async () => {
    expect(await rowsOf(settlementConfigurationGroups, 1)).toHaveLength(1);
    expect(await rowsOf(notificationRecipients, 1)).toHaveLength(2);
    expect(await rowsOf(paymentProviders, 1)).toHaveLength(1);
  });
});

describe('POST data-sets without a copy-from company', () => {
  it('starts with no configuration at all', async () => {
    const id = await createCopy(0, 'EMPTY-1');
    for (const table of [
      settlementConfigurationGroups,
      latePaymentConfigurations,
      companyPreferences,
      customHostIdSettings,
      notificationRecipients,
      customerNotificationSettings,
      companyDetails,
    ] as const) {
      expect(await rowsOf(table, id)).toEqual([]);
    }
  });
});
