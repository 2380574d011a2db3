import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  paymentProviderMessages as messages,
  secretSentinel,
  tranSafeTestCredentials,
} from '@ledgerline/contract';
import { auditActivities, datasets, users } from '../../db/schema.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { createSecretBox, parseSecretsKey } from '../../platform/secrets.js';
import {
  buildTestApp,
  byKey,
  signIn,
  type Caller,
  type SignedIn,
  type TestContext,
} from '../../../test/app.js';
import { makeDemoCompany, showBetaProviders } from '../../../test/feature-gates.js';
import { startFakeOpayo, type FakeOpayo } from '../../../test/fakes/fake-opayo.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let merchantKey: Caller;
/** An Opayo Server save registers the IP address with Opayo first (spec 3 §4). */
let opayoFake: FakeOpayo;
const opayoAdmin = (password: string) =>
  opayoFake.vendors.set('ledgerline', new Map([['admin', { password, admin: true }]]));

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(who: Caller, method: Method, url: string, payload?: object, datasetId = 1) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': String(datasetId) }),
    payload,
  });
}

const opayo = (name: string, extra: object = {}) => ({
  providerName: 'Opayo',
  name,
  description: 'Cards on the payment page',
  enabled: true,
  displayPriority: 10,
  settings: { useTestServer: true, integrationType: 'Server', vendorTxCodeType: 'PaymentRequest' },
  credentials: {
    vendorName: 'ledgerline',
    adminUser: 'admin',
    adminPassword: 'Opayo-Admin-Secret-1',
  },
  ...extra,
});
const sandbox = (name: string, extra: object = {}) => ({
  providerName: 'Sandbox',
  name,
  enabled: true,
  displayPriority: 0,
  ...extra,
});

async function create(who: Caller, body: object, datasetId = 1) {
  const response = await call(who, 'POST', 'providers', body, datasetId);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as {
    id: string;
    isDefault: boolean;
    credentials: Record<string, unknown>;
  } & Record<string, unknown>;
}

/** The stored credentials in clear, read as the server would. */
async function storedCredentials(tenantId: string, id: string) {
  const [row] = await ctx.database.db
    .select()
    .from(paymentProviders)
    .where(and(eq(paymentProviders.tenantId, tenantId), eq(paymentProviders.id, id)));
  return {
    sealed: row!.credentialsSealed,
    clear: JSON.parse(
      createSecretBox(parseSecretsKey(ctx.config.SECRETS_KEY!)).open(row!.credentialsSealed),
    ) as Record<string, unknown>,
  };
}

async function createKey(who: SignedIn) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/access-keys',
    headers: who.headers(),
    payload: { name: 'ERP connector' },
  });
  expect(response.statusCode).toBe(201);
  return byKey((response.json() as { accessKey: string }).accessKey);
}

beforeAll(async () => {
  opayoFake = await startFakeOpayo();
  opayoAdmin('Opayo-Admin-Secret-1');
  ctx = await buildTestApp({
    OPAYO_TEST_URL: opayoFake.url,
    OPAYO_LIVE_URL: opayoFake.url,
    OPAYO_SERVER_IP: '81.2.69.160',
  });
  merchant = await signIn(ctx, { tenantName: 'Providers Ltd' });
  // TrueLayer is a beta kind: it needs ShowBetaPaymentProviders.
  await showBetaProviders(ctx, merchant);
  // The Sandbox test provider belongs to demo companies.
  await makeDemoCompany(ctx, merchant);
  rival = await signIn(ctx, { tenantName: 'Rival Providers Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Providers Ltd' });
  await ctx.database.db.insert(datasets).values({
    tenantId: merchant.tenantId,
    id: 2,
    name: 'Providers Two',
    status: 'Active',
    hostId: '2',
    customHostId: '2',
    hostSystemName: 'Custom',
    currency: 'GBP',
    // The Sandbox test provider belongs to demo companies.
    type: 'Demo',
  });
  await makeDemoCompany(ctx, viewer);
  merchantKey = await createKey(merchant);
});
afterAll(async () => {
  await ctx.close();
  await opayoFake.close();
});

describe('a company without providers', () => {
  it('lists none and has no default', async () => {
    const list = await call(merchant, 'GET', 'providers');
    expect(list.json()).toEqual({ items: [], totalItems: 0 });
    expect((await call(merchant, 'GET', 'providers/default')).json()).toEqual({
      paymentProviderId: null,
    });
    expect((await call(merchant, 'GET', 'company-settings/payment-provider')).json()).toEqual({
      paymentProviderId: null,
    });
  });

  it('says GoCardless is not set up on a server without its partner credentials (422, not 500)', async () => {
    const start = await call(merchant, 'POST', 'gocardless/authorise/start');
    expect(start.statusCode).toBe(422);
    expect(start.json()).toMatchObject({
      errorCode: 'goCardlessNotConfigured',
      detail:
        'GoCardless is not set up on this server yet: ask the operator to set GOCARDLESS_CLIENT_ID and GOCARDLESS_CLIENT_SECRET.',
    });
  });

  it('offers the six provider kinds and the Sandbox test provider', async () => {
    const types = (await call(merchant, 'GET', 'providers/types')).json() as {
      providerName: string;
      isTestProvider: boolean;
      isBeta: boolean;
    }[];
    expect(types.map((t) => t.providerName)).toEqual([
      'TranSafe',
      'Opayo',
      'TrueLayer',
      'Oppwa',
      'Stripe',
      'GoCardless',
      'Sandbox',
    ]);
    expect(types.find((t) => t.providerName === 'Sandbox')!.isTestProvider).toBe(true);
    expect(types.filter((t) => t.isBeta).map((t) => t.providerName)).toEqual(['TrueLayer']);
  });
});

describe('adding, reading and saving', () => {
  let first: { id: string; credentials: Record<string, unknown> };

  it('the first configuration becomes the default; its secret reads back as the sentinel and is sealed at rest', async () => {
    first = await create(merchant, opayo('Opayo cards'));
    expect(first).toMatchObject({
      providerName: 'Opayo',
      name: 'Opayo cards',
      isDefault: true,
      isTest: true,
      filterCount: 0,
    });
    expect(first.credentials).toEqual({
      vendorName: 'ledgerline',
      adminUser: 'admin',
      adminPassword: secretSentinel,
      integrationKey: null,
      integrationPassword: null,
    });
    expect(
      (first as unknown as { paymentMethodConfigurations: unknown }).paymentMethodConfigurations,
    ).toEqual([{ paymentMethodType: 'Card', enabled: true, filterGroup: null }]);
    const stored = await storedCredentials(merchant.tenantId, first.id);
    expect(stored.sealed).not.toContain('Opayo-Admin-Secret-1');
    expect(stored.sealed).not.toContain('ledgerline');
    expect(stored.sealed).toMatch(/^v1\./);
    expect(stored.clear.adminPassword).toBe('Opayo-Admin-Secret-1');
    expect((await call(merchant, 'GET', 'providers/default')).json()).toEqual({
      paymentProviderId: first.id,
    });
    const read = await call(merchant, 'GET', `providers/${first.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain('Opayo-Admin-Secret-1');
    expect(read.json().credentials.adminPassword).toBe(secretSentinel);
  });

  it('a second one does not take the default; set default moves it and is-default follows', async () => {
    const second = await create(merchant, sandbox('Demo sandbox'));
    expect(second.isDefault).toBe(false);
    expect((await call(merchant, 'GET', `providers/${second.id}/is-default`)).json()).toEqual({
      isDefault: false,
    });
    const set = await call(merchant, 'PUT', 'providers/default', { paymentProviderId: second.id });
    expect(set.json()).toEqual({ paymentProviderId: second.id });
    expect((await call(merchant, 'GET', `providers/${second.id}/is-default`)).json()).toEqual({
      isDefault: true,
    });
    expect((await call(merchant, 'GET', `providers/${first.id}/is-default`)).json()).toEqual({
      isDefault: false,
    });
    const viaSettings = await call(merchant, 'PUT', 'company-settings/payment-provider', {
      paymentProviderId: first.id,
    });
    expect(viaSettings.json()).toEqual({ paymentProviderId: first.id });
    expect((await call(merchant, 'GET', 'company-settings/payment-provider')).json()).toEqual({
      paymentProviderId: first.id,
    });
    const audited = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.tenantId, merchant.tenantId),
          eq(auditActivities.operation, 'SetDefaultPaymentProvider'),
        ),
      );
    expect(audited.map((a) => a.status)).toEqual([200, 200]);
  });

  it('lists by name ascending without credentials, and finds a name with name eq whatever its case', async () => {
    const list = await call(merchant, 'GET', 'providers');
    const body = list.json() as {
      items: { name: string; isDefault: boolean }[];
      totalItems: number;
    };
    expect(body.items.map((i) => i.name)).toEqual(['Demo sandbox', 'Opayo cards']);
    expect(body.items.map((i) => i.isDefault)).toEqual([false, true]);
    expect(list.body).not.toContain('credentials');
    const byName = await call(
      merchant,
      'GET',
      `providers?filter=${encodeURIComponent('name eq opayo CARDS')}`,
    );
    expect((byName.json() as { items: { id: string }[] }).items.map((i) => i.id)).toEqual([
      first.id,
    ]);
    const sorted = await call(merchant, 'GET', 'providers?sort=-displayPriority');
    expect((sorted.json() as { items: { name: string }[] }).items.map((i) => i.name)).toEqual([
      'Opayo cards',
      'Demo sandbox',
    ]);
  });

  it('the sentinel sent back keeps the stored secret; a new value replaces it', async () => {
    const read = (await call(merchant, 'GET', `providers/${first.id}`)).json();
    // The save registers the IP with these credentials: admin2 is another Opayo admin user.
    opayoFake.vendors
      .get('ledgerline')!
      .set('admin2', { password: 'Opayo-Admin-Secret-1', admin: true });
    const kept = await call(merchant, 'PUT', 'providers', {
      ...read,
      description: 'Renamed',
      credentials: { ...read.credentials, adminUser: 'admin2' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().description).toBe('Renamed');
    expect((await storedCredentials(merchant.tenantId, first.id)).clear).toMatchObject({
      adminUser: 'admin2',
      adminPassword: 'Opayo-Admin-Secret-1',
    });
    // The merchant changed the admin password at Opayo (and the next tests use the first again).
    opayoAdmin('Opayo-Admin-Secret-2');
    const changed = await call(merchant, 'PUT', 'providers', {
      ...read,
      credentials: { ...read.credentials, adminPassword: 'Opayo-Admin-Secret-2' },
    });
    opayoAdmin('Opayo-Admin-Secret-1');
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toContain('Opayo-Admin-Secret-2');
    expect((await storedCredentials(merchant.tenantId, first.id)).clear.adminPassword).toBe(
      'Opayo-Admin-Secret-2',
    );
  });

  it('counts the filters in force of a configuration', async () => {
    const filtered = await create(
      merchant,
      sandbox('Filtered sandbox', {
        paymentMethodConfigurations: [
          {
            paymentMethodType: 'Card',
            enabled: true,
            filterGroup: {
              filterConfigurations: [
                {
                  filterType: 'PaymentAmount',
                  isEnabled: true,
                  minimumPaymentValue: 1,
                  maximumPaymentValue: 500,
                },
                { filterType: 'Currencies', isEnabled: true, currencies: ['GBP', 'EUR'] },
              ],
            },
          },
        ],
      }),
    );
    expect(filtered).toMatchObject({ filterCount: 2 });
  });

  it('TranSafe in test mode stores the fixed test credentials', async () => {
    const tranSafe = await create(merchant, {
      providerName: 'TranSafe',
      name: 'TranSafe test',
      enabled: true,
      displayPriority: 1,
      settings: { useTestSite: true },
      credentials: {},
    });
    expect(tranSafe).toMatchObject({
      isTest: true,
      credentials: { userName: tranSafeTestCredentials.userName, password: secretSentinel },
    });
    expect((await storedCredentials(merchant.tenantId, tranSafe.id)).clear).toEqual(
      tranSafeTestCredentials,
    );
  });

  it('a deleted configuration is gone; deleting the default leaves the company without one', async () => {
    const doomed = await create(merchant, sandbox('Doomed'), 2);
    expect(doomed.isDefault).toBe(true);
    const removed = await call(merchant, 'DELETE', `providers/${doomed.id}`, undefined, 2);
    expect(removed.statusCode).toBe(204);
    expect((await call(merchant, 'GET', `providers/${doomed.id}`, undefined, 2)).statusCode).toBe(
      404,
    );
    expect((await call(merchant, 'GET', 'providers/default', undefined, 2)).json()).toEqual({
      paymentProviderId: null,
    });
    expect(
      (await call(merchant, 'DELETE', `providers/${doomed.id}`, undefined, 2)).statusCode,
    ).toBe(404);
  });
});

describe('spec 3 §5 rules, broken one at a time', () => {
  async function errorsOf(method: 'POST' | 'PUT', body: object) {
    const response = await call(merchant, method, 'providers', body);
    expect(response.statusCode, response.body).toBe(400);
    return (response.json() as { errors: Record<string, string[]> }).errors;
  }

  it.each([
    ['name missing', { name: undefined }, 'name', messages.nameRequired],
    ['name blank', { name: '   ' }, 'name', messages.nameRequired],
    ['name of 101 characters', { name: 'n'.repeat(101) }, 'name', messages.nameTooLong],
    [
      'description of 1001 characters',
      { description: 'd'.repeat(1001) },
      'description',
      messages.descriptionTooLong,
    ],
    [
      'priority missing',
      { displayPriority: undefined },
      'displayPriority',
      messages.priorityRequired,
    ],
    ['priority 101', { displayPriority: 101 }, 'displayPriority', messages.priorityRange],
    ['priority -1', { displayPriority: -1 }, 'displayPriority', messages.priorityRange],
    ['enabled missing', { enabled: undefined }, 'enabled', messages.enabledRequired],
    ['unknown provider', { providerName: 'PayPal' }, 'providerName', messages.providerNameUnknown],
  ])('%s', async (_label, change, field, message) => {
    const errors = await errorsOf('POST', { ...opayo('Rules'), ...change });
    expect(errors[field]).toEqual([message]);
  });

  it("the unique-name lookup (spec 3 §5, GET providers `name eq`) sees only the company's own names", async () => {
    const lookup = (who: Caller, name: string, datasetId = 1) =>
      call(
        who,
        'GET',
        `providers?filter=${encodeURIComponent(`name eq ${name}`)}`,
        undefined,
        datasetId,
      );
    const own = await lookup(merchant, 'OPAYO cards');
    expect(own.statusCode).toBe(200);
    expect((own.json() as { totalItems: number }).totalItems).toBe(1);
    // Another tenant, and another company of the same tenant, do not see the name.
    expect((await lookup(rival, 'Opayo cards')).json()).toEqual({ items: [], totalItems: 0 });
    expect((await lookup(merchant, 'Opayo cards', 2)).json()).toEqual({ items: [], totalItems: 0 });
    // A company of another tenant named in Dataset-Id is not found.
    expect((await lookup(rival, 'Opayo cards', 2)).statusCode).toBe(404);
    // A comma is escaped in the filter: the name is looked up whole.
    expect((await lookup(merchant, 'Opayo\\, cards')).json()).toEqual({ items: [], totalItems: 0 });
  });

  it('a name already used in the company (any case) is a 409', async () => {
    const response = await call(merchant, 'POST', 'providers', opayo('OPAYO CARDS'));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      detail: messages.nameExists,
      errorCode: 'PaymentProviderNameExists',
    });
    // The same name in another company is fine.
    await create(merchant, opayo('Opayo cards'), 2);
  });

  it('filter dialog: amounts of 0 or more, maximum above minimum', async () => {
    const withFilter = (filter: object) =>
      sandbox('Filters', {
        paymentMethodConfigurations: [
          {
            paymentMethodType: 'Card',
            enabled: true,
            filterGroup: {
              filterConfigurations: [{ filterType: 'PaymentAmount', isEnabled: true, ...filter }],
            },
          },
        ],
      });
    const prefix = 'paymentMethodConfigurations.0.filterGroup.filterConfigurations.0';
    expect(
      (await errorsOf('POST', withFilter({ minimumPaymentValue: 10, maximumPaymentValue: 10 })))[
        `${prefix}.maximumPaymentValue`
      ],
    ).toEqual([messages.maximumNotAboveMinimum]);
    expect(
      (await errorsOf('POST', withFilter({ minimumPaymentValue: -1, maximumPaymentValue: null })))[
        `${prefix}.minimumPaymentValue`
      ],
    ).toEqual([messages.minimumPaymentAmount]);
    expect(
      (await errorsOf('POST', withFilter({ minimumPaymentValue: null, maximumPaymentValue: -5 })))[
        `${prefix}.maximumPaymentValue`
      ],
    ).toEqual([messages.maximumPaymentAmount]);
    const currencies = {
      filterConfigurations: [{ filterType: 'Currencies', isEnabled: true, currencies: ['GBX'] }],
    };
    const errors = await errorsOf(
      'POST',
      sandbox('Filters', {
        paymentMethodConfigurations: [
          { paymentMethodType: 'Card', enabled: true, filterGroup: currencies },
        ],
      }),
    );
    expect(
      errors['paymentMethodConfigurations.0.filterGroup.filterConfigurations.0.currencies.0'],
    ).toEqual([messages.currencyCode]);
  });

  it('a method type the provider does not support, or the same one twice', async () => {
    const errors = await errorsOf(
      'POST',
      sandbox('Methods', {
        paymentMethodConfigurations: [
          { paymentMethodType: 'BankDebit', enabled: true },
          { paymentMethodType: 'Card' },
          { paymentMethodType: 'Card' },
        ],
      }),
    );
    expect(errors['paymentMethodConfigurations.0.paymentMethodType']).toEqual([
      messages.methodTypeUnsupported,
    ]);
    expect(errors['paymentMethodConfigurations.2.paymentMethodType']).toEqual([
      messages.methodTypeTwice,
    ]);
  });

  it('card gateway: user name and password outside test mode only', async () => {
    const errors = await errorsOf('POST', {
      providerName: 'TranSafe',
      name: 'TranSafe live',
      enabled: true,
      displayPriority: 0,
      settings: { useTestSite: false },
      credentials: {},
    });
    expect(errors).toEqual({
      'credentials.userName': ['User name is required.'],
      'credentials.password': ['Password is required.'],
    });
    const long = await errorsOf('POST', {
      providerName: 'TranSafe',
      name: 'TranSafe live',
      enabled: true,
      displayPriority: 0,
      settings: {},
      credentials: { userName: 'u'.repeat(101), password: 'p' },
    });
    expect(long['credentials.userName']).toEqual(['User name must be at most 100 characters.']);
  });

  it('UK card provider: vendor, admin user and password always; integration key and password for Pi', async () => {
    const errors = await errorsOf('POST', opayo('Opayo rules', { credentials: {} }));
    expect(errors).toEqual({
      'credentials.vendorName': ['Vendor name is required.'],
      'credentials.adminUser': ['Admin user is required.'],
      'credentials.adminPassword': ['Admin password is required.'],
    });
    const pi = await errorsOf(
      'POST',
      opayo('Opayo Pi', { settings: { useTestServer: true, integrationType: 'Pi' } }),
    );
    expect(pi).toEqual({
      'credentials.integrationKey': ['Integration key is required.'],
      'credentials.integrationPassword': ['Integration password is required.'],
    });
    const type = await errorsOf('POST', opayo('Opayo type', { settings: { useTestServer: true } }));
    expect(type['settings.integrationType']).toEqual(['Integration type is required.']);
  });

  it('the sentinel on a new configuration is no stored secret', async () => {
    const errors = await errorsOf(
      'POST',
      opayo('Opayo sentinel', {
        credentials: { vendorName: 'v', adminUser: 'a', adminPassword: secretSentinel },
      }),
    );
    expect(errors).toEqual({ 'credentials.adminPassword': ['Admin password is required.'] });
  });

  it('bank transfer: 8-digit account number, 6-digit sort code, references and GBP', async () => {
    const trueLayer = (bank: object, settings: object = {}) => ({
      providerName: 'TrueLayer',
      name: 'Bank transfer',
      enabled: true,
      displayPriority: 0,
      settings: {
        beneficiaryName: 'Ledgerline Ltd',
        beneficiaryReference: '{accountReference}',
        remitterReference: '{companyName}',
        beneficiaryBankAccount: { accountNumber: '12345678', sortCode: '123456', ...bank },
        ...settings,
      },
      credentials: { clientId: 'client', clientSecret: 'TrueLayer-Secret', useSandbox: true },
    });
    const errors = await errorsOf(
      'POST',
      trueLayer(
        { accountNumber: '1234567', sortCode: '12345', currency: 'EUR' },
        { beneficiaryName: 'x'.repeat(31), remitterReference: '' },
      ),
    );
    expect(errors).toEqual({
      'settings.beneficiaryName': ['Payees Name must be at most 30 characters.'],
      'settings.remitterReference': ['Payees Reference is required.'],
      'settings.beneficiaryBankAccount.accountNumber': [messages.accountNumber],
      'settings.beneficiaryBankAccount.sortCode': [messages.sortCode],
      'settings.beneficiaryBankAccount.currency': [messages.bankCurrency],
    });
    const created = await create(merchant, trueLayer({ sortCode: '12-34-56' }));
    expect(created).toMatchObject({
      isTest: true,
      settings: { beneficiaryBankAccount: { sortCode: '123456', currency: 'GBP', iban: null } },
      credentials: { clientId: 'client', clientSecret: secretSentinel, useSandbox: true },
    });
  });

  it('card processor: entity id and access token 1 to 100; brands; save-card only with store-card', async () => {
    const oppwa = (credentials: object, settings: object = {}) => ({
      providerName: 'Oppwa',
      name: 'Card processor',
      enabled: true,
      displayPriority: 0,
      settings,
      credentials: { useSandbox: true, ...credentials },
    });
    const errors = await errorsOf(
      'POST',
      oppwa({ entityId: 'e'.repeat(101) }, { brands: ['VISA', 'PAYPAL'] }),
    );
    expect(errors).toEqual({
      'settings.brands.1': [messages.brandUnknown],
      'credentials.entityId': ['Entity ID must be at most 100 characters.'],
      'credentials.accessToken': ['Access token is required.'],
    });
    const created = await create(
      merchant,
      oppwa(
        {
          entityId: '8a8294174b7ecb28014b9699220015ca',
          accessToken: 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c3k2S0pzVDg=',
        },
        { saveCardOptionDefault: true },
      ),
    );
    expect(created.settings).toEqual({
      storePayerPaymentMethod: false,
      saveCardOptionDefault: false,
      brands: ['VISA', 'VISADEBIT', 'MASTER', 'MASTERDEBIT'],
    });
  });

  it('card account link: store-card forced off without use-customer; GoCardless comes through its authorisation', async () => {
    const stripe = await create(merchant, {
      providerName: 'Stripe',
      name: 'Stripe cards',
      enabled: true,
      displayPriority: 0,
      settings: { useStripeCustomer: false },
      credentials: { stripeAccountId: 'acct_forged' },
    });
    expect(stripe.settings).toEqual({
      useStripeCustomer: false,
      storePayerPaymentMethod: false,
      saveCardOptionDefault: false,
    });
    // The account id is the connection flow's to set, never a form's.
    expect(stripe.credentials).toEqual({ stripeAccountId: null, connectClientId: null });
    const errors = await errorsOf('POST', {
      providerName: 'GoCardless',
      name: 'Direct debit',
      enabled: true,
      displayPriority: 0,
    });
    expect(errors).toEqual({ providerName: [messages.addedByAuthorisation] });
  });

  it('the provider of a saved configuration cannot change', async () => {
    const [row] = (
      await call(merchant, 'GET', `providers?filter=${encodeURIComponent('name eq Demo sandbox')}`)
    ).json().items;
    const errors = await errorsOf('PUT', { ...opayo('Demo sandbox'), id: row.id });
    expect(errors).toEqual({ providerName: [messages.providerNameChanged] });
  });
});

describe('tenancy and permissions', () => {
  let mine: { id: string };
  beforeAll(async () => {
    mine = await create(merchant, sandbox('Mine'));
  });

  it('another tenant, or another company of the same tenant, gets 404 for every call on an id', async () => {
    for (const [who, datasetId] of [
      [rival, 1],
      [merchant, 2],
    ] as const) {
      expect(
        (await call(who, 'GET', `providers/${mine.id}`, undefined, datasetId)).statusCode,
      ).toBe(404);
      expect(
        (await call(who, 'GET', `providers/${mine.id}/is-default`, undefined, datasetId))
          .statusCode,
      ).toBe(404);
      expect(
        (await call(who, 'PUT', 'providers', { ...sandbox('Taken over'), id: mine.id }, datasetId))
          .statusCode,
      ).toBe(404);
      expect(
        (await call(who, 'PUT', 'providers/default', { paymentProviderId: mine.id }, datasetId))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await call(
            who,
            'PUT',
            'company-settings/payment-provider',
            { paymentProviderId: mine.id },
            datasetId,
          )
        ).statusCode,
      ).toBe(404);
      expect(
        (await call(who, 'DELETE', `providers/${mine.id}`, undefined, datasetId)).statusCode,
      ).toBe(404);
      const list = (await call(who, 'GET', 'providers', undefined, datasetId)).json() as {
        items: { id: string }[];
      };
      expect(list.items.map((i) => i.id)).not.toContain(mine.id);
    }
    // Still there, unchanged.
    expect((await call(merchant, 'GET', `providers/${mine.id}`)).json()).toMatchObject({
      name: 'Mine',
    });
    // A company of another tenant is not found at all.
    expect((await call(rival, 'GET', 'providers', undefined, 2)).statusCode).toBe(404);
  });

  it('a Viewer reads the list and the default but not a configuration, and changes nothing', async () => {
    const own = await create(viewer, sandbox('Viewer own'));
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    expect((await call(viewer, 'GET', 'providers')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', 'providers/types')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', 'providers/default')).statusCode).toBe(200);
    expect((await call(viewer, 'GET', `providers/${own.id}/is-default`)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['GET', `providers/${own.id}`, undefined],
      ['POST', 'providers', sandbox('Viewer two')],
      ['PUT', 'providers', { ...sandbox('Viewer own'), id: own.id }],
      ['PUT', 'providers/default', { paymentProviderId: own.id }],
      ['PUT', 'company-settings/payment-provider', { paymentProviderId: own.id }],
      ['DELETE', `providers/${own.id}`, undefined],
    ] as const) {
      expect((await call(viewer, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('an access key (the Standard role) cannot configure providers', async () => {
    expect((await call(merchantKey, 'GET', 'providers')).statusCode).toBe(200);
    expect((await call(merchantKey, 'POST', 'providers', sandbox('By key'))).statusCode).toBe(403);
    expect((await call(merchantKey, 'GET', `providers/${mine.id}`)).statusCode).toBe(403);
  });

  it("row-level security hides another tenant's configurations even without a tenant filter", async () => {
    const seen = await ctx.database.withTenant(rival.tenantId, (tx) =>
      tx.select({ tenantId: paymentProviders.tenantId }).from(paymentProviders),
    );
    expect(seen.every((row) => row.tenantId === rival.tenantId)).toBe(true);
    const mineSeen = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx.select({ id: paymentProviders.id }).from(paymentProviders),
    );
    expect(mineSeen.map((row) => row.id)).toContain(mine.id);
    // FORCE row-level security on the table: foundation/row-level-security.test.ts checks every tenant table.
  });
});
