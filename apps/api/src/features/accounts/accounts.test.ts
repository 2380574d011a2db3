import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { auditActivities, users } from '../../db/schema.js';
import {
  accounts,
  payers,
  paymentRequests,
  paymentTransactions,
  transactions,
} from '../../db/schema-receivables.js';
import { reminders } from '../../db/schema-reminders.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { buildTestApp, signIn, type SignedIn, type TestContext, byKey, type Caller } from '../../../test/app.js';

type Method = 'GET' | 'POST' | 'PUT';
const company = (id: number) => ({ 'dataset-id': String(id) });

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let merchantKey: Caller;
let merchantKeyId: string;
let rivalKey: Caller;

const size = {
  accounts: 12,
  transactions: 30,
  paymentRequests: 10,
  paymentTransactions: 60,
  banks: 0,
};

function call(
  who: Caller,
  method: Method,
  url: string,
  payload?: object,
  headers: Record<string, string> = company(1),
) {
  return ctx.app.inject({ method, url: `/api/v0/${url}`, headers: who.headers(headers), payload });
}

async function createKey(who: SignedIn, name: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/access-keys',
    headers: who.headers(),
    payload: { name },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; accessKey: string };
}

async function accountRows(tenantId: string) {
  return ctx.database.db
    .select()
    .from(accounts)
    .where(and(eq(accounts.tenantId, tenantId), eq(accounts.datasetId, 1)))
    .orderBy(asc(accounts.accountReference));
}

async function activitiesOf(operation: string, resourceId: string) {
  return ctx.database.db
    .select()
    .from(auditActivities)
    .where(
      and(eq(auditActivities.operation, operation), eq(auditActivities.resourceId, resourceId)),
    );
}

let merchantAccounts: (typeof accounts.$inferSelect)[] = [];
/** An account of the merchant with a payer from the demo data (odd rows have one). */
let withPayer: typeof accounts.$inferSelect;
let demoPayer: typeof payers.$inferSelect;

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Accounts Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Accounts Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Accounts Ltd' });
  for (const who of [merchant, rival, viewer]) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId: 1 }, size),
    );
  }
  const key = await createKey(merchant, 'ERP connector');
  merchantKey = byKey(key.accessKey);
  merchantKeyId = key.id;
  rivalKey = byKey((await createKey(rival, 'Rival connector')).accessKey);
  await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
  merchantAccounts = await accountRows(merchant.tenantId);
  const [payer] = await ctx.database.db
    .select()
    .from(payers)
    .where(eq(payers.tenantId, merchant.tenantId))
    .limit(1);
  demoPayer = payer!;
  withPayer = merchantAccounts.find((account) => account.id === demoPayer.accountId)!;
});
afterAll(() => ctx.close());

const references = (body: { items: { accountReference: string }[] }) =>
  body.items.map((item) => item.accountReference);

const validAccount = { accountReference: 'NEW001', name: 'New Customer Ltd' };

describe('GET accounts', () => {
  it('answers page 1 of 10 sorted by account reference ascending, with an exact total', async () => {
    const response = await call(merchant, 'GET', 'accounts');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalItems).toBe(12);
    expect(body.totalItemsEstimated).toBe(false);
    expect(references(body)).toEqual(
      merchantAccounts.slice(0, 10).map((row) => row.accountReference),
    );
    const first = merchantAccounts[0]!;
    expect(body.items[0]).toMatchObject({
      id: first.id,
      name: first.name,
      balance: Number(first.balance),
      creditLimit: Number(first.creditLimit),
      emailAddresses: [
        { emailAddress: expect.stringContaining('@'), type: 'Accounts', isDefault: true },
      ],
      accountSettings: {
        disableAutoApplySettlements: false,
        settlementConfigurationGroupId: null,
        editPaymentStatus: 'Default',
        editPaymentOverrideStatus: 'UseAccountStatus',
      },
    });
    expect(body.items[0]).not.toHaveProperty('counts');
  });

  it('pages and sorts by balance descending', async () => {
    const body = (
      await call(merchant, 'GET', 'accounts?page=2&itemsPerPage=5&sort=-balance')
    ).json();
    // Equal balances (demo accounts owing nothing) follow the id in the sort's own direction
    // (compile-sort.ts: the tie-breaker takes the last term's direction, for keyset paging).
    const expected = [...merchantAccounts].sort(
      (a, b) => Number(b.balance) - Number(a.balance) || (a.id < b.id ? 1 : -1),
    );
    expect(body.items.map((item: { id: string }) => item.id)).toEqual(
      expected.slice(5, 10).map((row) => row.id),
    );
  });

  it('filters on reference and name (contains, any case) and on numbers', async () => {
    const target = merchantAccounts[3]!;
    const byReference = (
      await call(
        merchant,
        'GET',
        `accounts?filter=${encodeURIComponent(`accountReference ct ${target.accountReference.slice(-3).toLowerCase()}`)}`,
      )
    ).json();
    expect(references(byReference)).toContain(target.accountReference);
    const part = target.name.slice(1, 5).toUpperCase();
    const byName = (
      await call(
        merchant,
        'GET',
        `accounts?itemsPerPage=100&filter=${encodeURIComponent(`name ct ${part}`)}`,
      )
    ).json();
    expect(references(byName)).toEqual(
      merchantAccounts
        .filter((row) => row.name.toUpperCase().includes(part))
        .map((row) => row.accountReference),
    );
    const limit = Number(merchantAccounts[5]!.creditLimit);
    const byLimit = (
      await call(
        merchant,
        'GET',
        `accounts?itemsPerPage=100&filter=${encodeURIComponent(`creditLimit ge ${limit},balance gt 0`)}`,
      )
    ).json();
    expect(byLimit.totalItems).toBe(
      merchantAccounts.filter((row) => Number(row.creditLimit) >= limit && Number(row.balance) > 0)
        .length,
    );
  });

  it.each([
    ['colour eq red', 'colour'],
    ['balance ct 5', 'ct'],
    ['createdOn gt yesterday', 'yesterday'],
  ])('refuses the filter %s with a 400 naming %s', async (filter, named) => {
    const response = await call(merchant, 'GET', `accounts?filter=${encodeURIComponent(filter)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toContain(named);
  });

  it('refuses an unknown sort and any expand on the list', async () => {
    expect((await call(merchant, 'GET', 'accounts?sort=colour')).statusCode).toBe(400);
    expect((await call(merchant, 'GET', 'accounts?expand=counts')).statusCode).toBe(400);
  });
});

describe('GET accounts/{id}', () => {
  it('reads one account with its settings, and its counts when expanded', async () => {
    const plain = await call(merchant, 'GET', `accounts/${withPayer.id}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).toMatchObject({
      id: withPayer.id,
      accountReference: withPayer.accountReference,
    });
    expect(plain.json()).not.toHaveProperty('counts');

    const expanded = (await call(merchant, 'GET', `accounts/${withPayer.id}?expand=Counts`)).json();
    const countOf = async (
      table:
        | typeof transactions
        | typeof paymentTransactions
        | typeof paymentRequests
        | typeof payers
        | typeof reminders,
    ) => {
      const [row] = await ctx.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(and(eq(table.tenantId, merchant.tenantId), eq(table.accountId, withPayer.id)));
      return { count: row!.n, estimated: false };
    };
    expect(expanded.counts).toEqual({
      transactions: await countOf(transactions),
      paymentTransactions: await countOf(paymentTransactions),
      paymentRequests: await countOf(paymentRequests),
      payers: await countOf(payers),
      reminders: await countOf(reminders),
    });
    expect(expanded.counts.payers.count).toBeGreaterThan(0);
  });

  it('refuses an unknown expand, a malformed id, and answers 404 for an unknown account', async () => {
    const unknownExpand = await call(merchant, 'GET', `accounts/${withPayer.id}?expand=payers`);
    expect(unknownExpand.statusCode).toBe(400);
    expect(unknownExpand.json().errors.expand).toEqual(["Unknown expand 'payers'. Use counts."]);
    expect((await call(merchant, 'GET', 'accounts/not-a-uuid')).statusCode).toBe(400);
    const missing = await call(merchant, 'GET', 'accounts/0199f0aa-0000-7000-8000-000000000999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe(
      'Account 0199f0aa-0000-7000-8000-000000000999 was not found.',
    );
  });
});

const validSettings = {
  disableAutoApplySettlements: false,
  settlementConfigurationGroupId: null,
  disableLatePayments: false,
  latePaymentConfigurationGroupId: null,
  editPaymentStatus: 'Default',
  editPaymentOverrideStatus: 'UseAccountStatus',
  defaultUsageType: null,
};
const groupId = '0199f0aa-0000-7000-8000-0000000000aa';

/** A settlement configuration group and a late payment configuration of `who`'s company 1. */
async function configurationsOf(who: SignedIn) {
  const group = await call(who, 'POST', 'settlement-configuration-groups', {
    name: `Group ${randomUUID().slice(0, 8)}`,
  });
  expect(group.statusCode, group.body).toBe(201);
  const latePayment = await call(who, 'POST', 'late-payment-configurations', {
    type: 'Uk',
    name: `UK ${randomUUID().slice(0, 8)}`,
    description: 'The Act',
    enabled: true,
    gracePeriodInDays: 5,
    applyCharges: true,
  });
  expect(latePayment.statusCode, latePayment.body).toBe(201);
  return { groupId: group.json().id as string, latePaymentId: latePayment.json().id as string };
}

describe('PUT accounts/{id}/settings', () => {
  it("changes the settings, keeps the connector's fields, and audits UpdateAccountSettings", async () => {
    const account = merchantAccounts[1]!;
    const { latePaymentId } = await configurationsOf(merchant);
    const settings = {
      disableAutoApplySettlements: true,
      settlementConfigurationGroupId: null,
      disableLatePayments: false,
      latePaymentConfigurationGroupId: latePaymentId,
      editPaymentStatus: 'Allow',
      editPaymentOverrideStatus: 'UsePaymentRequest',
      defaultUsageType: null,
    };
    const response = await call(merchant, 'PUT', `accounts/${account.id}/settings`, settings);
    expect(response.statusCode).toBe(200);
    expect(response.json().accountSettings).toEqual(settings);
    expect(response.json()).toMatchObject({ name: account.name, balance: Number(account.balance) });
    expect((await call(merchant, 'GET', `accounts/${account.id}`)).json().accountSettings).toEqual(
      settings,
    );
    const [activity] = await activitiesOf('UpdateAccountSettings', account.id);
    expect(activity).toMatchObject({
      tenantId: merchant.tenantId,
      datasetId: 1,
      status: 200,
      resourceType: 'Account',
      userId: merchant.userId,
    });
    // Back to the company defaults ('default' on both).
    const reset = await call(merchant, 'PUT', `accounts/${account.id}/settings`, validSettings);
    expect(reset.json().accountSettings).toEqual(validSettings);
  });

  const brokenSettings: [string, object, string, string][] = [
    [
      'auto-apply disabled with a group',
      {
        ...validSettings,
        disableAutoApplySettlements: true,
        settlementConfigurationGroupId: groupId,
      },
      'settlementConfigurationGroupId',
      'Choose either auto-apply disabled or a settlement configuration group, not both.',
    ],
    [
      'late payments disabled with a group',
      { ...validSettings, disableLatePayments: true, latePaymentConfigurationGroupId: groupId },
      'latePaymentConfigurationGroupId',
      'Choose either late payments disabled or a late-payment configuration group, not both.',
    ],
    [
      'a group id that is not a UUID',
      { ...validSettings, settlementConfigurationGroupId: 'group-1' },
      'settlementConfigurationGroupId',
      'A configuration group id must be a UUID.',
    ],
    [
      'a late-payment group id that is not a UUID',
      { ...validSettings, latePaymentConfigurationGroupId: 7 },
      'latePaymentConfigurationGroupId',
      'A configuration group id must be a UUID.',
    ],
    [
      'an unknown edit payment status',
      { ...validSettings, editPaymentStatus: 'Maybe' },
      'editPaymentStatus',
      'Edit payment status must be one of Default, Allow, Disable.',
    ],
    [
      'an unknown override',
      { ...validSettings, editPaymentOverrideStatus: 'UseNothing' },
      'editPaymentOverrideStatus',
      'Edit payment override must be one of UseAccountStatus, UsePaymentRequest.',
    ],
    [
      'auto-apply missing',
      { ...validSettings, disableAutoApplySettlements: undefined },
      'disableAutoApplySettlements',
      'Disable auto-apply settlements must be true or false.',
    ],
    [
      'late payments as text',
      { ...validSettings, disableLatePayments: 'yes' },
      'disableLatePayments',
      'Disable late payments must be true or false.',
    ],
  ];
  it.each(brokenSettings)(
    'refuses %s with its message and changes nothing',
    async (_rule, body, field, message) => {
      const account = merchantAccounts[2]!;
      const response = await call(merchant, 'PUT', `accounts/${account.id}/settings`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toEqual([message]);
      expect(
        (await call(merchant, 'GET', `accounts/${account.id}`)).json().accountSettings,
      ).toEqual(validSettings);
    },
  );

  it("chooses a settlement group and a late payment configuration of the company, and refuses unknown and another tenant's ones with 422", async () => {
    const account = merchantAccounts[2]!;
    const ours = await configurationsOf(merchant);
    const theirs = await configurationsOf(rival);
    const chosen = {
      ...validSettings,
      settlementConfigurationGroupId: ours.groupId,
      latePaymentConfigurationGroupId: ours.latePaymentId,
    };
    const accepted = await call(merchant, 'PUT', `accounts/${account.id}/settings`, chosen);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().accountSettings).toEqual(chosen);

    const groupMessage = 'No settlement configuration group of this company has this id.';
    const latePaymentMessage = 'No late payment configuration of this company has this id.';
    const refusals: [object, Record<string, string[]>][] = [
      [
        { ...validSettings, settlementConfigurationGroupId: groupId },
        { settlementConfigurationGroupId: [groupMessage] },
      ],
      [
        { ...validSettings, latePaymentConfigurationGroupId: groupId },
        { latePaymentConfigurationGroupId: [latePaymentMessage] },
      ],
      [
        {
          ...validSettings,
          settlementConfigurationGroupId: theirs.groupId,
          latePaymentConfigurationGroupId: theirs.latePaymentId,
        },
        {
          settlementConfigurationGroupId: [groupMessage],
          latePaymentConfigurationGroupId: [latePaymentMessage],
        },
      ],
      // The ids swapped: a late payment configuration is not a settlement group, nor the reverse.
      [
        {
          ...validSettings,
          settlementConfigurationGroupId: ours.latePaymentId,
          latePaymentConfigurationGroupId: ours.groupId,
        },
        {
          settlementConfigurationGroupId: [groupMessage],
          latePaymentConfigurationGroupId: [latePaymentMessage],
        },
      ],
    ];
    for (const [body, errors] of refusals) {
      const response = await call(merchant, 'PUT', `accounts/${account.id}/settings`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json()).toMatchObject({
        status: 422,
        detail:
          'The chosen settlement configuration group or late payment configuration does not exist in this company.',
      });
      expect(response.json().errors).toEqual(errors);
      // Nothing changed.
      expect(
        (await call(merchant, 'GET', `accounts/${account.id}`)).json().accountSettings,
      ).toEqual(chosen);
    }
    const statuses = (await activitiesOf('UpdateAccountSettings', account.id)).map((a) => a.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(refusals.length);
    // The rival's own account takes its own configurations.
    const rivalAccount = (
      await call(rivalKey, 'POST', 'accounts', { ...validAccount, accountReference: 'RIV-SET-1' })
    ).json();
    const rivals = await call(rival, 'PUT', `accounts/${rivalAccount.id}/settings`, {
      ...validSettings,
      settlementConfigurationGroupId: theirs.groupId,
      latePaymentConfigurationGroupId: theirs.latePaymentId,
    });
    expect(rivals.statusCode, rivals.body).toBe(200);
    // Put back what the other tests of this account expect.
    expect(
      (await call(merchant, 'PUT', `accounts/${account.id}/settings`, validSettings)).statusCode,
    ).toBe(200);
  });

  it('answers 404 for an unknown account and audits the refusal', async () => {
    const id = '0199f0aa-0000-7000-8000-000000000998';
    const response = await call(merchant, 'PUT', `accounts/${id}/settings`, validSettings);
    expect(response.statusCode).toBe(404);
    const [activity] = await activitiesOf('UpdateAccountSettings', id);
    expect(activity).toMatchObject({ status: 404 });
  });
});

describe('POST accounts', () => {
  it('creates an account with trimmed values, answers 201 and audits CreateAccount', async () => {
    const response = await call(merchantKey, 'POST', 'accounts', {
      accountReference: '  ERP-100  ',
      name: '  Widgets & Co  ',
      shortName: ' WIDG ',
      accountType: '',
      currency: ' EUR ',
      balance: 1250.5,
      overdueAmount: 100,
      creditLimit: 5000,
      emailAddresses: [
        { emailAddress: ' ap@widgets.example ', type: ' Accounts ', isDefault: true },
        { emailAddress: 'boss@widgets.example' },
      ],
      contacts: [{ firstNames: ' Jo ', surname: 'Bloggs', jobTitle: '' }],
      addresses: [
        { type: 'Billing', address1: '1 High Street', city: 'Leeds', postCode: 'LS1 1AA' },
      ],
    });
    expect(response.statusCode).toBe(201);
    const account = response.json();
    expect(account).toMatchObject({
      accountReference: 'ERP-100',
      name: 'Widgets & Co',
      shortName: 'WIDG',
      accountType: 'Customer',
      currency: 'EUR',
      balance: 1250.5,
      overdueAmount: 100,
      disputedAmount: 0,
      creditLimit: 5000,
      emailAddresses: [
        { emailAddress: 'ap@widgets.example', type: 'Accounts', isDefault: true },
        { emailAddress: 'boss@widgets.example', type: null, isDefault: false },
      ],
      contacts: [{ firstNames: 'Jo', surname: 'Bloggs', jobTitle: null }],
      addresses: [
        {
          type: 'Billing',
          address1: '1 High Street',
          address2: null,
          city: 'Leeds',
          postCode: 'LS1 1AA',
          country: null,
        },
      ],
      accountSettings: validSettings,
    });
    const [row] = await ctx.database.db.select().from(accounts).where(eq(accounts.id, account.id));
    expect(row).toMatchObject({ tenantId: merchant.tenantId, datasetId: 1, balance: '1250.5000' });
    const [activity] = await activitiesOf('CreateAccount', account.id);
    expect(activity).toMatchObject({
      status: 201,
      resourceType: 'Account',
      accessKeyId: merchantKeyId,
      userId: null,
    });
  });

  it('refuses a reference the company already has with 409, and audits the refusal', async () => {
    const taken = merchantAccounts[0]!.accountReference;
    const response = await call(merchantKey, 'POST', 'accounts', {
      ...validAccount,
      accountReference: ` ${taken} `,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      detail: `An account with reference '${taken}' already exists in this company.`,
      errorCode: 'AccountReferenceTaken',
    });
    const refused = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.operation, 'CreateAccount'), eq(auditActivities.status, 409)));
    expect(refused.length).toBeGreaterThan(0);
  });

  it('answers 409 to the loser of two creates of one reference at once', async () => {
    const body = { ...validAccount, accountReference: 'RACE-1' };
    const answers = await Promise.all([
      call(merchantKey, 'POST', 'accounts', body),
      call(merchant, 'POST', 'accounts', body),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((answer) => answer.statusCode === 409)!;
    expect(loser.json().detail).toBe(
      "An account with reference 'RACE-1' already exists in this company.",
    );
  });

  it('answers an Idempotency-Key retry with the first answer and creates once', async () => {
    const headers = { ...company(1), 'idempotency-key': 'create-account-1' };
    const body = { ...validAccount, accountReference: 'IDEM-1' };
    const first = await call(merchantKey, 'POST', 'accounts', body, headers);
    const again = await call(merchantKey, 'POST', 'accounts', body, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await call(merchantKey, 'POST', 'accounts', { ...body, name: 'Else' }, headers);
    expect(other.statusCode).toBe(422);
    const rows = await ctx.database.db
      .select()
      .from(accounts)
      .where(
        and(eq(accounts.tenantId, merchant.tenantId), eq(accounts.accountReference, 'IDEM-1')),
      );
    expect(rows).toHaveLength(1);
  });
});

/** Every validation rule of the account body, broken once, with the message the caller gets. */
const brokenAccountRules: [string, object, string, string][] = [
  [
    'reference missing',
    { name: 'No reference' },
    'accountReference',
    'Account reference is required.',
  ],
  [
    'reference blank',
    { ...validAccount, accountReference: '   ' },
    'accountReference',
    'Account reference is required.',
  ],
  [
    'reference of 51',
    { ...validAccount, accountReference: 'R'.repeat(51) },
    'accountReference',
    'Account reference must be at most 50 characters.',
  ],
  ['name missing', { accountReference: 'X1' }, 'name', 'Name is required.'],
  ['name blank', { ...validAccount, name: ' ' }, 'name', 'Name is required.'],
  [
    'name of 256',
    { ...validAccount, name: 'n'.repeat(256) },
    'name',
    'Name must be at most 255 characters.',
  ],
  [
    'short name of 101',
    { ...validAccount, shortName: 's'.repeat(101) },
    'shortName',
    'Short name must be at most 100 characters.',
  ],
  [
    'account type of 51',
    { ...validAccount, accountType: 't'.repeat(51) },
    'accountType',
    'Account type must be at most 50 characters.',
  ],
  [
    'currency in lower case',
    { ...validAccount, currency: 'gbp' },
    'currency',
    'Currency must be three capital letters, e.g. GBP.',
  ],
  [
    'currency not in ISO 4217',
    { ...validAccount, currency: 'XYZ' },
    'currency',
    'Currency must be an ISO 4217 currency code, e.g. GBP.',
  ],
  [
    'balance as text',
    { ...validAccount, balance: '12' },
    'balance',
    'Balance must be a number between -999999999999999 and 999999999999999 with at most 4 decimals.',
  ],
  [
    'balance with 5 decimals',
    { ...validAccount, balance: 1.23456 },
    'balance',
    'Balance must be a number between -999999999999999 and 999999999999999 with at most 4 decimals.',
  ],
  [
    'overdue amount too large',
    { ...validAccount, overdueAmount: 1e16 },
    'overdueAmount',
    'Overdue amount must be a number between -999999999999999 and 999999999999999 with at most 4 decimals.',
  ],
  [
    'disputed amount as text',
    { ...validAccount, disputedAmount: 'none' },
    'disputedAmount',
    'Disputed amount must be a number between -999999999999999 and 999999999999999 with at most 4 decimals.',
  ],
  [
    'negative credit limit',
    { ...validAccount, creditLimit: -1 },
    'creditLimit',
    'Credit limit must be 0 or more.',
  ],
  [
    'email address invalid',
    { ...validAccount, emailAddresses: [{ emailAddress: 'not an email' }] },
    'emailAddresses.0.emailAddress',
    'Email address must be a valid email address, e.g. accounts@example.com.',
  ],
  [
    'email address of 1001',
    { ...validAccount, emailAddresses: [{ emailAddress: `${'a'.repeat(990)}@example.com` }] },
    'emailAddresses.0.emailAddress',
    'Email address must be at most 1000 characters.',
  ],
  [
    'two default email addresses',
    {
      ...validAccount,
      emailAddresses: [
        { emailAddress: 'a@x.example', isDefault: true },
        { emailAddress: 'b@x.example', isDefault: true },
      ],
    },
    'emailAddresses',
    'Only one email address can be the default.',
  ],
  [
    '21 email addresses',
    {
      ...validAccount,
      emailAddresses: Array.from({ length: 21 }, (_, i) => ({ emailAddress: `a${i}@x.example` })),
    },
    'emailAddresses',
    'An account can have at most 20 email addresses.',
  ],
  [
    'email type of 256',
    { ...validAccount, emailAddresses: [{ emailAddress: 'a@x.example', type: 't'.repeat(256) }] },
    'emailAddresses.0.type',
    'Email type must be at most 255 characters.',
  ],
  [
    '21 contacts',
    { ...validAccount, contacts: Array.from({ length: 21 }, () => ({ surname: 'Smith' })) },
    'contacts',
    'An account can have at most 20 contacts.',
  ],
  [
    'contact surname of 256',
    { ...validAccount, contacts: [{ surname: 's'.repeat(256) }] },
    'contacts.0.surname',
    'Surname must be at most 255 characters.',
  ],
  [
    'contact job title as a number',
    { ...validAccount, contacts: [{ jobTitle: 3 }] },
    'contacts.0.jobTitle',
    'Job title must be text.',
  ],
  [
    '11 addresses',
    { ...validAccount, addresses: Array.from({ length: 11 }, () => ({ city: 'Leeds' })) },
    'addresses',
    'An account can have at most 10 addresses.',
  ],
  [
    'address city of 256',
    { ...validAccount, addresses: [{ city: 'c'.repeat(256) }] },
    'addresses.0.city',
    'City must be at most 255 characters.',
  ],
];

async function accountCount(tenantId: string) {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(accounts)
    .where(eq(accounts.tenantId, tenantId));
  return row!.n;
}

describe('account validation', () => {
  it.each(brokenAccountRules)('POST refuses %s', async (_rule, body, field, message) => {
    const before = await accountCount(merchant.tenantId);
    const response = await call(merchantKey, 'POST', 'accounts', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
    expect(await accountCount(merchant.tenantId)).toBe(before);
  });

  it.each(brokenAccountRules.filter(([, , field]) => field !== 'accountReference'))(
    'PUT by-reference refuses %s',
    async (_rule, body, field, message) => {
      const { accountReference: _ignored, ...rest } = { accountReference: '', ...body } as Record<
        string,
        unknown
      >;
      const response = await call(merchantKey, 'PUT', 'accounts/by-reference/RULES-1', rest);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toEqual([message]);
    },
  );

  it('PUT by-reference refuses a reference of 51 in the path', async () => {
    const response = await call(merchantKey, 'PUT', `accounts/by-reference/${'R'.repeat(51)}`, {
      name: 'Long',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.accountReference).toEqual([
      'Account reference must be at most 50 characters.',
    ]);
  });
});

describe('PUT accounts/{id}', () => {
  it("replaces the connector's fields, keeps the settings, and audits UpdateAccount", async () => {
    const created = (
      await call(merchantKey, 'POST', 'accounts', {
        ...validAccount,
        accountReference: 'UPD-1',
        emailAddresses: [{ emailAddress: 'old@x.example' }],
      })
    ).json();
    await call(merchant, 'PUT', `accounts/${created.id}/settings`, {
      ...validSettings,
      editPaymentStatus: 'Disable',
    });
    const response = await call(merchantKey, 'PUT', `accounts/${created.id}`, {
      accountReference: 'UPD-1B',
      name: 'Renamed Ltd',
      balance: 10,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      accountReference: 'UPD-1B',
      name: 'Renamed Ltd',
      balance: 10,
      emailAddresses: [],
      createdOn: created.createdOn,
      accountSettings: { ...validSettings, editPaymentStatus: 'Disable' },
    });
    const [activity] = await activitiesOf('UpdateAccount', created.id);
    expect(activity).toMatchObject({
      status: 200,
      resourceType: 'Account',
      accessKeyId: merchantKeyId,
    });
  });

  it("refuses another account's reference with 409 and an unknown account with 404", async () => {
    const target = merchantAccounts[4]!;
    const taken = await call(merchantKey, 'PUT', `accounts/${target.id}`, {
      accountReference: merchantAccounts[5]!.accountReference,
      name: 'Clash',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().detail).toBe(
      `An account with reference '${merchantAccounts[5]!.accountReference}' already exists in this company.`,
    );
    const same = await call(merchantKey, 'PUT', `accounts/${target.id}`, {
      accountReference: target.accountReference,
      name: target.name,
      balance: Number(target.balance),
      overdueAmount: Number(target.overdueAmount),
      disputedAmount: Number(target.disputedAmount),
      creditLimit: Number(target.creditLimit),
    });
    expect(same.statusCode).toBe(200);
    const missing = await call(
      merchantKey,
      'PUT',
      'accounts/0199f0aa-0000-7000-8000-000000000997',
      validAccount,
    );
    expect(missing.statusCode).toBe(404);
  });
});

describe('PUT accounts/by-reference/{accountReference}', () => {
  it('creates (201) and then replaces (200) the account with that reference, auditing UpsertAccount', async () => {
    const first = await call(merchantKey, 'PUT', 'accounts/by-reference/SYNC-1', {
      name: 'Synced Ltd',
      contacts: [{ firstNames: 'Ann', surname: 'Lee' }],
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      accountReference: 'SYNC-1',
      name: 'Synced Ltd',
      contacts: [{ firstNames: 'Ann', surname: 'Lee', jobTitle: null }],
    });
    const second = await call(merchantKey, 'PUT', 'accounts/by-reference/SYNC-1', {
      name: 'Synced Again Ltd',
      emailAddresses: [{ emailAddress: 'ar@synced.example', isDefault: true }],
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      id: first.json().id,
      name: 'Synced Again Ltd',
      contacts: [],
      emailAddresses: [{ emailAddress: 'ar@synced.example', type: null, isDefault: true }],
    });
    const activities = await activitiesOf('UpsertAccount', first.json().id);
    expect(activities.map((activity) => activity.status).sort()).toEqual([200, 201]);
  });
});

describe('payers', () => {
  it('lists the payers of an account, newest first, with their count', async () => {
    const older = (
      await call(merchantKey, 'POST', `accounts/${withPayer.id}/payers`, {
        firstNames: 'Old',
        surname: 'Payer',
      })
    ).json();
    await ctx.database.db
      .update(payers)
      .set({ createdOn: new Date('2020-01-01T00:00:00Z') })
      .where(eq(payers.id, older.id));
    const newest = (
      await call(merchantKey, 'POST', `accounts/${withPayer.id}/payers`, {
        emailAddress: 'new@payer.example',
      })
    ).json();
    const response = await call(merchant, 'GET', `accounts/${withPayer.id}/payers`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totalItems).toBe(3);
    expect(body.items.map((payer: { id: string }) => payer.id)).toEqual([
      newest.id,
      demoPayer.id,
      older.id,
    ]);
    expect(body.items[1]).toEqual({
      id: demoPayer.id,
      accountId: withPayer.id,
      createdOn: demoPayer.createdOn.toISOString(),
      details: expect.objectContaining({
        companyName: demoPayer.companyName,
        emailAddress: demoPayer.emailAddress,
        postCode: demoPayer.postCode,
      }),
    });
    expect((await call(merchant, 'GET', `accounts/${withPayer.id}/payers/count`)).json()).toEqual({
      count: 3,
      estimated: false,
    });
    const filtered = (
      await call(
        merchant,
        'GET',
        `accounts/${withPayer.id}/payers?filter=${encodeURIComponent('surname eq Payer')}`,
      )
    ).json();
    expect(filtered.items.map((payer: { id: string }) => payer.id)).toEqual([older.id]);
    expect(
      (await call(merchant, 'GET', `accounts/${withPayer.id}/payers?sort=colour`)).statusCode,
    ).toBe(400);
  });

  it('reads one payer only through its own account', async () => {
    const response = await call(merchant, 'GET', `accounts/${withPayer.id}/payers/${demoPayer.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: demoPayer.id,
      details: { firstNames: demoPayer.firstNames, surname: demoPayer.surname },
    });
    const otherAccount = merchantAccounts.find((account) => account.id !== withPayer.id)!;
    const wrong = await call(merchant, 'GET', `accounts/${otherAccount.id}/payers/${demoPayer.id}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().detail).toBe(`Payer ${demoPayer.id} was not found.`);
  });

  it('answers 404 for the payers of an unknown account', async () => {
    const id = '0199f0aa-0000-7000-8000-000000000996';
    expect((await call(merchant, 'GET', `accounts/${id}/payers`)).statusCode).toBe(404);
    expect((await call(merchant, 'GET', `accounts/${id}/payers/count`)).statusCode).toBe(404);
    expect(
      (await call(merchantKey, 'POST', `accounts/${id}/payers`, { surname: 'Nobody' })).statusCode,
    ).toBe(404);
  });

  it('creates a payer with trimmed values and audits CreatePayer, idempotently', async () => {
    const account = merchantAccounts[6]!;
    const headers = { ...company(1), 'idempotency-key': 'payer-1' };
    const body = {
      companyName: ' Payer Co ',
      firstNames: ' Sam ',
      surname: 'Jones',
      emailAddress: ' sam@payer.example ',
      address1: '2 Mill Lane',
      postCode: 'LS2 2BB',
      country: '',
    };
    const response = await call(
      merchantKey,
      'POST',
      `accounts/${account.id}/payers`,
      body,
      headers,
    );
    expect(response.statusCode).toBe(201);
    const payer = response.json();
    expect(payer).toMatchObject({
      accountId: account.id,
      details: {
        companyName: 'Payer Co',
        firstNames: 'Sam',
        surname: 'Jones',
        emailAddress: 'sam@payer.example',
        address1: '2 Mill Lane',
        address2: null,
        postCode: 'LS2 2BB',
        country: null,
      },
    });
    const again = await call(merchantKey, 'POST', `accounts/${account.id}/payers`, body, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(payer.id);
    const [activity] = await activitiesOf('CreatePayer', payer.id);
    expect(activity).toMatchObject({
      status: 201,
      resourceType: 'Payer',
      accessKeyId: merchantKeyId,
    });
  });

  const brokenPayerRules: [string, object, string, string][] = [
    [
      'no name, company or email',
      { city: 'Leeds' },
      'companyName',
      'A payer needs a company name, a first name, a surname or an email address.',
    ],
    [
      'only blanks',
      { companyName: '  ', surname: ' ' },
      'companyName',
      'A payer needs a company name, a first name, a surname or an email address.',
    ],
    [
      'an invalid email',
      { surname: 'Smith', emailAddress: 'smith at example' },
      'emailAddress',
      'Email address must be a valid email address, e.g. jo@example.com.',
    ],
    [
      'company name of 501',
      { companyName: 'c'.repeat(501) },
      'companyName',
      'Company name must be at most 500 characters.',
    ],
    [
      'first names of 256',
      { firstNames: 'f'.repeat(256) },
      'firstNames',
      'First names must be at most 255 characters.',
    ],
    [
      'post code of 256',
      { surname: 'Smith', postCode: 'p'.repeat(256) },
      'postCode',
      'Post code must be at most 255 characters.',
    ],
    [
      'address 4 as a number',
      { surname: 'Smith', address4: 4 },
      'address4',
      'Address 4 must be text.',
    ],
  ];
  it.each(brokenPayerRules)('POST payers refuses %s', async (_rule, body, field, message) => {
    const response = await call(
      merchantKey,
      'POST',
      `accounts/${merchantAccounts[7]!.id}/payers`,
      body,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
  });
});

describe('the company (Dataset-Id)', () => {
  it('is required on every route: 400 naming Dataset-Id', async () => {
    const id = merchantAccounts[0]!.id;
    for (const [method, url, payload] of [
      ['GET', 'accounts', undefined],
      ['GET', `accounts/${id}`, undefined],
      ['PUT', `accounts/${id}/settings`, validSettings],
      ['GET', `accounts/${id}/payers`, undefined],
      ['POST', 'accounts', validAccount],
    ] as [Method, string, object | undefined][]) {
      const response = await call(merchant, method, url, payload, {});
      expect(response.statusCode, `${method} ${url}`).toBe(400);
      expect(response.json().errors['Dataset-Id']).toEqual(['The Dataset-Id header is required.']);
    }
  });
});

describe("another tenant's user and key", () => {
  /** Every route of the area aimed at the merchant's records. */
  const routes = (): [Method, string, object | undefined][] => {
    const account = withPayer.id;
    return [
      ['GET', `accounts/${account}`, undefined],
      ['GET', `accounts/${account}?expand=counts`, undefined],
      ['PUT', `accounts/${account}/settings`, { ...validSettings, editPaymentStatus: 'Disable' }],
      ['PUT', `accounts/${account}`, { accountReference: 'STOLEN', name: 'Stolen' }],
      ['GET', `accounts/${account}/payers`, undefined],
      ['GET', `accounts/${account}/payers/count`, undefined],
      ['GET', `accounts/${account}/payers/${demoPayer.id}`, undefined],
      ['POST', `accounts/${account}/payers`, { surname: 'Intruder' }],
    ];
  };

  it('get 404 on every route aimed at the merchant, never its data, and change nothing', async () => {
    const before = await accountRows(merchant.tenantId);
    const payersBefore = await ctx.database.db
      .select()
      .from(payers)
      .where(eq(payers.tenantId, merchant.tenantId));
    for (const who of [rival, rivalKey]) {
      for (const [method, url, payload] of routes()) {
        const response = await call(who, method, url, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.body).not.toContain(withPayer.name);
        expect(response.body).not.toContain(withPayer.accountReference);
      }
    }
    expect(await accountRows(merchant.tenantId)).toEqual(before);
    expect(
      await ctx.database.db.select().from(payers).where(eq(payers.tenantId, merchant.tenantId)),
    ).toEqual(payersBefore);
  });

  it("list only their own accounts, and their upsert by the merchant's reference creates their own", async () => {
    const merchantIds = new Set((await accountRows(merchant.tenantId)).map((row) => row.id));
    for (const who of [rival, rivalKey]) {
      const list = (await call(who, 'GET', 'accounts?itemsPerPage=1000')).json();
      expect(list.items.length).toBeGreaterThan(0);
      for (const item of list.items) expect(merchantIds.has(item.id)).toBe(false);
    }
    const reference = 'SYNC-CROSS';
    const mine = (
      await call(merchantKey, 'PUT', `accounts/by-reference/${reference}`, { name: 'Mine' })
    ).json();
    const theirs = await call(rivalKey, 'PUT', `accounts/by-reference/${reference}`, {
      name: 'Theirs',
    });
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().id).not.toBe(mine.id);
    expect((await call(merchant, 'GET', `accounts/${mine.id}`)).json().name).toBe('Mine');
    // The rival's demo data shares the merchant's ACC references; a reference only the merchant has:
    await call(merchantKey, 'POST', 'accounts', {
      accountReference: 'ONLY-MERCHANT',
      name: 'Merchant only',
    });
    const created = await call(rivalKey, 'POST', 'accounts', {
      accountReference: 'ONLY-MERCHANT',
      name: 'Same reference, other tenant',
    });
    expect(created.statusCode).toBe(201);
  });
});

describe('a Viewer', () => {
  it('reads accounts and payers', async () => {
    const list = await call(viewer, 'GET', 'accounts');
    expect(list.statusCode).toBe(200);
    const account = (await accountRows(viewer.tenantId)).find(
      (row) => row.accountReference === 'ACC000001',
    )!;
    expect((await call(viewer, 'GET', `accounts/${account.id}?expand=counts`)).statusCode).toBe(
      200,
    );
    const payerList = await call(viewer, 'GET', `accounts/${account.id}/payers`);
    expect(payerList.statusCode).toBe(200);
    expect((await call(viewer, 'GET', `accounts/${account.id}/payers/count`)).statusCode).toBe(200);
    const [payer] = payerList.json().items;
    expect(
      (await call(viewer, 'GET', `accounts/${account.id}/payers/${payer.id}`)).statusCode,
    ).toBe(200);
  });

  it('gets 403 on every write, which changes nothing and is audited', async () => {
    const before = await accountRows(viewer.tenantId);
    const account = before[0]!;
    for (const [method, url, payload] of [
      ['PUT', `accounts/${account.id}/settings`, { ...validSettings, editPaymentStatus: 'Allow' }],
      ['POST', 'accounts', validAccount],
      [
        'PUT',
        `accounts/${account.id}`,
        { accountReference: account.accountReference, name: 'Renamed' },
      ],
      ['PUT', 'accounts/by-reference/VIEW-1', { name: 'Viewer' }],
      ['POST', `accounts/${account.id}/payers`, { surname: 'Viewer' }],
    ] as [Method, string, object][]) {
      const response = await call(viewer, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await accountRows(viewer.tenantId)).toEqual(before);
    const refused = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.userId, viewer.userId), eq(auditActivities.status, 403)));
    expect(refused.map((activity) => activity.operation).sort()).toEqual([
      'CreateAccount',
      'CreatePayer',
      'UpdateAccount',
      'UpdateAccountSettings',
      'UpsertAccount',
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents every call with a summary and a description', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' })).json();
    const expected: [string, string][] = [
      ['/api/v0/accounts', 'get'],
      ['/api/v0/accounts', 'post'],
      ['/api/v0/accounts/{id}', 'get'],
      ['/api/v0/accounts/{id}', 'put'],
      ['/api/v0/accounts/{id}/settings', 'put'],
      ['/api/v0/accounts/by-reference/{accountReference}', 'put'],
      ['/api/v0/accounts/{id}/payers', 'get'],
      ['/api/v0/accounts/{id}/payers', 'post'],
      ['/api/v0/accounts/{id}/payers/count', 'get'],
      ['/api/v0/accounts/{id}/payers/{payerId}', 'get'],
    ];
    for (const [path, method] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary).toEqual(expect.any(String));
      expect(operation.description).toEqual(expect.any(String));
    }
    const headers = document.paths['/api/v0/accounts'].post.parameters.map(
      (parameter: { name: string }) => parameter.name,
    );
    expect(headers).toContain('idempotency-key');
  });
});
