import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { customHostIdMessages as messages, type CustomHostIdSetting } from '@ledgerline/contract';
import { auditActivities, datasets, users } from '../../db/schema.js';
import { accounts, transactions } from '../../db/schema-receivables.js';
import { generateReceivables } from '../datasets/demo-data.js';
import { createCustomHostIdRebuild } from './custom-host-id.jobs.js';
import {
  createCustomHostIdRepository,
  type CustomHostIdSettingValues,
} from './custom-host-id.repository.js';
import { templateMessages } from './custom-host-id.template.js';
import type { Jobs } from '../../platform/jobs.js';
import { buildTestApp, signIn, type SignedIn, type TestContext, byKey, type Caller } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let standard: SignedIn;
let merchantKey: Caller;
/** The merchant's second company (spec 1 §3): its setting and transactions are its own. */
let secondCompany: number;
const size = {
  accounts: 4,
  transactions: 30,
  paymentRequests: 0,
  paymentTransactions: 0,
  banks: 0,
};

type Method = 'GET' | 'POST' | 'PUT';
function call(who: Caller, method: Method, url: string, payload?: object, datasetId = 1) {
  return ctx.app.inject({
    method,
    url: `/api/v0/${url}`,
    headers: who.headers({ 'dataset-id': String(datasetId) }),
    payload,
  });
}
const settingOf = (who: Caller, datasetId = 1) =>
  call(who, 'GET', 'company-settings/custom-host-id', undefined, datasetId);
const save = (who: Caller, body: object, datasetId = 1) =>
  call(who, 'PUT', 'company-settings/custom-host-id', body, datasetId);
const example = (who: Caller, body: object) =>
  call(who, 'POST', 'company-settings/custom-host-id/example', body);

const setting = {
  createOption: 'CreateIfNull',
  updateOption: 'NeverCreate',
  trimWhiteSpace: true,
  parseValue: '{accountReference}-{transactionReference}',
};

/** The company's transactions with their account's reference, by id. */
async function rowsOf(who: SignedIn, datasetId = 1) {
  return ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .select({
        id: transactions.id,
        transactionReference: transactions.transactionReference,
        accountReference: accounts.accountReference,
        customHostId: transactions.customHostId,
      })
      .from(transactions)
      .innerJoin(
        accounts,
        and(
          eq(accounts.tenantId, transactions.tenantId),
          eq(accounts.datasetId, transactions.datasetId),
          eq(accounts.id, transactions.accountId),
        ),
      )
      .where(and(eq(transactions.tenantId, who.tenantId), eq(transactions.datasetId, datasetId)))
      .orderBy(transactions.id),
  );
}

async function setRebuildState(who: SignedIn, datasetId: number, state: string) {
  await ctx.database.withTenant(who.tenantId, (tx) =>
    tx
      .update(datasets)
      .set({ rebuildStatus: state })
      .where(and(eq(datasets.tenantId, who.tenantId), eq(datasets.id, datasetId))),
  );
}

async function activities(who: SignedIn, operation: string) {
  return ctx.database.db
    .select()
    .from(auditActivities)
    .where(
      and(eq(auditActivities.tenantId, who.tenantId), eq(auditActivities.operation, operation)),
    );
}

async function waitForState(who: SignedIn, state: string, datasetId = 1) {
  return waitFor(async () => {
    const current = (await settingOf(who, datasetId)).json() as CustomHostIdSetting;
    return current.rebuildState === state ? current : undefined;
  });
}

beforeAll(async () => {
  ctx = await buildTestApp();
  merchant = await signIn(ctx, { tenantName: 'Merchant Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Ltd' });
  standard = await signIn(ctx, { tenantName: 'Standard Ltd' });
  await ctx.database.db
    .update(users)
    .set({ role: 'Standard' })
    .where(eq(users.id, standard.userId));
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/data-sets',
    headers: merchant.headers(),
    payload: { name: 'Second', hostSystemName: 'Sage200Pro', hostId: 'H-2', customHostId: 'C-2' },
  });
  expect(created.statusCode, created.body).toBe(201);
  secondCompany = created.json().id as number;
  await waitFor(async () => {
    const dataset = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/data-sets/${secondCompany}`,
      headers: merchant.headers(),
    });
    return dataset.json().status === 'Active';
  });
  for (const [who, datasetId] of [
    [merchant, 1],
    [merchant, secondCompany],
    [rival, 1],
  ] as const) {
    await ctx.database.withTenant(who.tenantId, (tx) =>
      generateReceivables(tx, { tenantId: who.tenantId, datasetId }, size),
    );
  }
  const key = await ctx.app.inject({
    method: 'POST',
    url: '/api/v0/access-keys',
    headers: merchant.headers(),
    payload: { name: 'ERP connector' },
  });
  merchantKey = byKey(key.json().accessKey as string);
});
afterAll(() => ctx.close());

describe('GET company-settings/custom-host-id', () => {
  it('answers the default until one is saved: nothing is computed', async () => {
    const response = await settingOf(rival);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: 'transaction',
      createOption: 'NeverCreate',
      updateOption: 'NeverCreate',
      trimWhiteSpace: true,
      parseValue: null,
      rebuildState: 'None',
    });
  });

  it('needs a company: 400 without Dataset-Id, 404 for another tenant’s or no company', async () => {
    const none = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/company-settings/custom-host-id',
      headers: merchant.headers(),
    });
    expect(none.statusCode).toBe(400);
    expect((await settingOf(rival, secondCompany)).statusCode).toBe(404);
    expect((await settingOf(merchant, 999)).statusCode).toBe(404);
  });
});

describe('POST transactions (connector) without a setting', () => {
  it('keeps what was pushed, or nothing (the default computes nothing)', async () => {
    for (const [reference, customHostId] of [
      ['DEFAULT-1', undefined],
      ['DEFAULT-2', 'ERP-1'],
    ] as const) {
      const response = await call(
        merchantKey,
        'POST',
        'transactions',
        {
          accountReference: 'ACC000001',
          transactionReference: reference,
          transactionType: 'Invoice',
          transactionDate: '2026-03-01T10:00:00.000Z',
          currency: 'GBP',
          transactionAmount: 10,
          customHostId,
        },
        secondCompany,
      );
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().customHostId).toBe(customHostId ?? null);
    }
  });
});

describe('PUT company-settings/custom-host-id', () => {
  it.each([
    ['parseValue missing', { parseValue: undefined }, 'parseValue', messages.parseValueRequired],
    ['parseValue empty', { parseValue: '' }, 'parseValue', messages.parseValueRequired],
    ['parseValue not text', { parseValue: 42 }, 'parseValue', messages.parseValueRequired],
    [
      'parseValue over 500',
      { parseValue: `{transactionReference}${'x'.repeat(479)}` },
      'parseValue',
      messages.parseValueTooLong,
    ],
    [
      'trimWhiteSpace missing',
      { trimWhiteSpace: undefined },
      'trimWhiteSpace',
      messages.trimWhiteSpaceRequired,
    ],
    [
      'trimWhiteSpace not a boolean',
      { trimWhiteSpace: 'yes' },
      'trimWhiteSpace',
      messages.trimWhiteSpaceRequired,
    ],
    ['createOption unknown', { createOption: 'Sometimes' }, 'createOption', messages.createOption],
    ['updateOption missing', { updateOption: undefined }, 'updateOption', messages.updateOption],
    [
      'an unknown field',
      { parseValue: '{accountReference}/{invoiceNumber}' },
      'parseValue',
      templateMessages.unknown('invoiceNumber', 20),
    ],
    [
      'an unclosed brace',
      { parseValue: 'X-{transactionReference' },
      'parseValue',
      templateMessages.unclosed(3),
    ],
    [
      'a brace that closes nothing',
      { parseValue: '{transactionReference}}' },
      'parseValue',
      templateMessages.unopened(23),
    ],
    ['no field at all', { parseValue: 'INV' }, 'parseValue', templateMessages.noField],
  ])(
    'refuses %s with its message on the field, and saves nothing',
    async (_case, change, field, message) => {
      const response = await save(merchant, { ...setting, ...change }, secondCompany);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().errors).toEqual({ [field]: [message] });
      expect((await settingOf(merchant, secondCompany)).json().parseValue).toBeNull();
    },
  );

  it('takes exactly 500 characters and keeps spaces of the parse value; audits the save', async () => {
    const parseValue = ` {transactionReference}${'x'.repeat(476)} `;
    expect(parseValue).toHaveLength(500);
    const response = await save(merchant, { ...setting, parseValue }, secondCompany);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ parseValue, rebuildState: 'None' });
    const saved = await save(merchant, setting);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ id: 'transaction', ...setting, rebuildState: 'None' });
    expect((await settingOf(merchant)).json()).toEqual(saved.json());
    const audited = await activities(merchant, 'UpdateCustomHostIdSetting');
    expect(audited.map((activity) => activity.status)).toContain(200);
    expect(audited.map((activity) => activity.status)).toContain(400);
    expect(audited.find((activity) => activity.status === 200)).toMatchObject({
      datasetId: secondCompany,
      resourceType: 'CustomHostIdSetting',
      resourceId: 'transaction',
    });
  });

  it('keeps each company’s and each tenant’s setting apart', async () => {
    expect((await settingOf(merchant, secondCompany)).json().parseValue).not.toBe(
      setting.parseValue,
    );
    const rivalSave = await save(rival, { ...setting, parseValue: 'R-{transactionReference}' });
    expect(rivalSave.statusCode).toBe(200);
    expect((await settingOf(merchant)).json().parseValue).toBe(setting.parseValue);
    expect((await save(rival, setting, secondCompany)).statusCode).toBe(404);
    expect((await settingOf(rival)).json().parseValue).toBe('R-{transactionReference}');
  });

  it('needs ConfigureSystemSettings: a Standard user and an access key get 403; reading is open', async () => {
    const refused = await save(standard, setting);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('This needs the ConfigureSystemSettings permission.');
    expect((await settingOf(standard)).json().parseValue).toBeNull();
    expect((await save(merchantKey, { ...setting, parseValue: '{currency}' })).statusCode).toBe(
      403,
    );
    expect((await settingOf(merchantKey)).json().parseValue).toBe(setting.parseValue);
  });

  it('is copied to a new company made from this one', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/data-sets',
      headers: merchant.headers(),
      payload: {
        name: 'Copied',
        hostSystemName: 'Sage100',
        hostId: 'H-3',
        customHostId: 'C-3',
        copyFromDatasetId: 1,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const copied = await waitFor(async () => {
      const response = await settingOf(merchant, created.json().id as number);
      return response.statusCode === 200 && response.json().parseValue !== null
        ? response.json()
        : undefined;
    });
    expect(copied).toEqual({ id: 'transaction', ...setting, rebuildState: 'None' });
  });
});

describe('POST company-settings/custom-host-id/example (test parse)', () => {
  it('answers what the parse value gives the example transaction', async () => {
    const response = await example(standard, {
      parseValue: '  {accountReference}/{orderReference}/{transactionReference}  ',
      trimWhiteSpace: true,
      transaction: {
        accountReference: 'ACME',
        transactionReference: 'INV-1',
        orderReference: null,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ customHostId: 'ACME//INV-1' });
    const untrimmed = await example(merchant, {
      parseValue: ' {{{currency}}} ',
      trimWhiteSpace: false,
    });
    expect(untrimmed.json()).toEqual({ customHostId: ' {} ' });
  });

  it('answers an invalid parse value as 400 with the message on parseValue', async () => {
    const response = await example(merchant, { parseValue: '{reference}', trimWhiteSpace: true });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      status: 400,
      detail: templateMessages.unknown('reference', 1),
      errors: { parseValue: [templateMessages.unknown('reference', 1)] },
    });
    const missing = await example(merchant, { parseValue: '{currency}' });
    expect(missing.json().errors).toEqual({ trimWhiteSpace: [messages.trimWhiteSpaceRequired] });
    const long = await example(merchant, {
      parseValue: '{currency}',
      trimWhiteSpace: true,
      transaction: { currency: 'x'.repeat(101) },
    });
    expect(long.json().errors).toEqual({ 'transaction.currency': [messages.exampleField] });
  });
});

describe('POST transactions (connector) with the setting', () => {
  let counter = 0;
  async function push(customHostId: string | null, extra: object = {}, query = '') {
    counter += 1;
    const response = await call(merchantKey, 'POST', `transactions${query}`, {
      accountReference: 'ACC000001',
      transactionReference: `CHI-${counter}`,
      transactionType: 'Invoice',
      transactionDate: '2026-03-01T10:00:00.000Z',
      currency: 'GBP',
      transactionAmount: 10,
      customHostId,
      ...extra,
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json() as {
      id: string;
      transactionReference: string;
      customHostId: string | null;
    };
  }
  it('CreateIfNull computes only when nothing was pushed; NeverCreate keeps what is pushed on update', async () => {
    await save(merchant, setting);
    const computed = await push(null);
    expect(computed.customHostId).toBe(`ACC000001-${computed.transactionReference}`);
    expect((await push('ERP-7')).customHostId).toBe('ERP-7');
    // updateOption NeverCreate: the matched transaction takes what was pushed, even nothing.
    const matched = await call(merchantKey, 'POST', 'transactions?match-existing=true', {
      accountReference: 'ACC000001',
      transactionReference: computed.transactionReference,
      transactionType: 'Invoice',
      transactionDate: '2026-03-01T10:00:00.000Z',
      currency: 'GBP',
      transactionAmount: 11,
      customHostId: 'PUSHED',
    });
    expect(matched.statusCode).toBe(200);
    expect(matched.json()).toMatchObject({ id: computed.id, customHostId: 'PUSHED' });
  });

  it('AlwaysCreate computes over what was pushed, on create and on update; the account may be named by id', async () => {
    await save(merchant, {
      ...setting,
      createOption: 'AlwaysCreate',
      updateOption: 'AlwaysCreate',
    });
    const created = await push('ERP-8', {
      accountReference: undefined,
      accountId: await accountId(),
    });
    expect(created.customHostId).toBe(`ACC000001-${created.transactionReference}`);
    const updated = await push(
      'ERP-9',
      { transactionReference: created.transactionReference },
      '?match-existing=true',
    );
    expect(updated).toMatchObject({
      id: created.id,
      customHostId: `ACC000001-${created.transactionReference}`,
    });
  });

  it('CreateIfNull on update computes when the match sends nothing; NeverCreate on create keeps it', async () => {
    await save(merchant, {
      ...setting,
      createOption: 'NeverCreate',
      updateOption: 'CreateIfNull',
      parseValue: ' {orderReference} ',
    });
    const created = await push(null, { orderReference: 'PO-1' });
    expect(created.customHostId).toBeNull();
    const kept = await push(
      'ERP-10',
      { transactionReference: created.transactionReference, orderReference: 'PO-2' },
      '?match-existing=true',
    );
    expect(kept.customHostId).toBe('ERP-10');
    const computed = await push(
      '',
      { transactionReference: created.transactionReference, orderReference: 'PO-3' },
      '?match-existing=true',
    );
    expect(computed.customHostId).toBe('PO-3');
    await save(merchant, setting);
  });

  async function accountId() {
    const [row] = await ctx.database.withTenant(merchant.tenantId, (tx) =>
      tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(
          and(
            eq(accounts.tenantId, merchant.tenantId),
            eq(accounts.datasetId, 1),
            eq(accounts.accountReference, 'ACC000001'),
          ),
        ),
    );
    return row!.id;
  }
});

describe('rebuild', () => {
  it('refuses a company without a saved parse value (400 on parseValue)', async () => {
    const response = await call(standard, 'POST', 'transactions/custom-host-id/rebuild');
    expect(response.statusCode).toBe(403);
    const fresh = await signIn(ctx, { tenantName: 'Fresh Ltd' });
    const refused = await call(fresh, 'POST', 'company-settings/custom-host-id/rebuild');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      detail: messages.rebuildNoParseValue,
      errors: { parseValue: [messages.rebuildNoParseValue] },
    });
    expect((await settingOf(fresh)).json().rebuildState).toBe('None');
  });

  it('recomputes every transaction of the company in the background, Queued → Completed, and audits', async () => {
    const before = await rowsOf(merchant);
    const otherCompany = await rowsOf(merchant, secondCompany);
    const rivalRows = await rowsOf(rival);
    const response = await call(merchant, 'POST', 'transactions/custom-host-id/rebuild');
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toMatchObject({ ...setting, rebuildState: 'QueuedForRebuild' });
    await waitForState(merchant, 'Completed');
    const after = await rowsOf(merchant);
    expect(after).toHaveLength(before.length);
    for (const row of after)
      expect(row.customHostId).toBe(`${row.accountReference}-${row.transactionReference}`);
    // Another company of the tenant and another tenant are untouched.
    expect(await rowsOf(merchant, secondCompany)).toEqual(otherCompany);
    expect(await rowsOf(rival)).toEqual(rivalRows);
    expect((await settingOf(merchant, secondCompany)).json().rebuildState).toBe('None');
    // The companies grid shows the state (spec 1 §3 rebuildStatus).
    const company = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/1',
      headers: merchant.headers(),
    });
    expect(company.json().rebuildStatus).toBe('Completed');
    const [activity] = await activities(merchant, 'RebuildCustomHostIds');
    expect(activity).toMatchObject({
      status: 202,
      datasetId: 1,
      resourceType: 'CustomHostIdSetting',
    });
  });

  it('is the same action under company-settings, and can run again once Completed', async () => {
    await save(merchant, { ...setting, parseValue: '{transactionReference}@{currency}' });
    const response = await call(merchant, 'POST', 'company-settings/custom-host-id/rebuild');
    expect(response.statusCode).toBe(202);
    await waitForState(merchant, 'Completed');
    for (const row of await rowsOf(merchant))
      expect(row.customHostId).toBe(`${row.transactionReference}@GBP`);
  });

  it.each(['QueuedForRebuild', 'Rebuilding'])(
    'refuses while %s: 409 and the state stays',
    async (state) => {
      await setRebuildState(merchant, 1, state);
      for (const path of [
        'transactions/custom-host-id/rebuild',
        'company-settings/custom-host-id/rebuild',
      ]) {
        const response = await call(merchant, 'POST', path);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({
          detail: messages.rebuildBusy,
          errorCode: 'customHostIdRebuildBusy',
        });
      }
      expect((await settingOf(merchant)).json().rebuildState).toBe(state);
      await setRebuildState(merchant, 1, 'Completed');
    },
  );

  it('needs ConfigureSystemSettings on both paths, and another tenant’s company is not found', async () => {
    for (const path of [
      'transactions/custom-host-id/rebuild',
      'company-settings/custom-host-id/rebuild',
    ]) {
      expect((await call(standard, 'POST', path)).statusCode).toBe(403);
      expect((await call(merchantKey, 'POST', path)).statusCode).toBe(403);
      expect((await call(rival, 'POST', path, undefined, secondCompany)).statusCode).toBe(404);
    }
    expect((await settingOf(merchant, secondCompany)).json().rebuildState).toBe('None');
  });
});

describe('the rebuild job', () => {
  const noJobs = { send: async () => undefined } as unknown as Jobs;
  const scope = () => ({ tenantId: merchant.tenantId, datasetId: secondCompany });

  it('walks the company in batches, and starts over when the setting changes meanwhile', async () => {
    await save(merchant, { ...setting, parseValue: 'OLD-{transactionReference}' }, secondCompany);
    const repository = createCustomHostIdRepository();
    let batches = 0;
    const rebuild = createCustomHostIdRebuild({
      database: ctx.database,
      jobs: noJobs,
      log: ctx.app.log,
      batchSize: 7,
      repository: {
        ...repository,
        async rebuildBatch(...args: Parameters<typeof repository.rebuildBatch>) {
          batches += 1;
          const batch = await repository.rebuildBatch(...args);
          // A merchant's save between two batches (in the batch's transaction: PGlite is one
          // connection, so a call from here would wait for this transaction forever).
          if (batches === 2)
            await repository.save(args[0], args[1], {
              ...(setting as CustomHostIdSettingValues),
              parseValue: 'NEW-{transactionReference}',
            });
          return batch;
        },
      },
    });
    await setRebuildState(merchant, secondCompany, 'QueuedForRebuild');
    await rebuild.rebuild(scope());
    const rows = await rowsOf(merchant, secondCompany);
    expect(rows.length).toBeGreaterThan(14);
    for (const row of rows) expect(row.customHostId).toBe(`NEW-${row.transactionReference}`);
    // Two batches of the old value, then every batch of the new one plus the empty last one.
    expect(batches).toBe(2 + Math.ceil(rows.length / 7) + (rows.length % 7 === 0 ? 1 : 0));
    expect((await settingOf(merchant, secondCompany)).json().rebuildState).toBe('Completed');
  });

  it('leaves None after a failure, so the button is not stuck busy', async () => {
    const repository = createCustomHostIdRepository();
    const rebuild = createCustomHostIdRebuild({
      database: ctx.database,
      jobs: noJobs,
      log: ctx.app.log,
      repository: {
        ...repository,
        rebuildBatch: async () => {
          throw new Error('disk full');
        },
      },
    });
    await setRebuildState(merchant, secondCompany, 'QueuedForRebuild');
    await rebuild.rebuild(scope());
    expect((await settingOf(merchant, secondCompany)).json().rebuildState).toBe('None');
  });

  it('does nothing for a company that is not queued (a duplicate job)', async () => {
    const before = await rowsOf(merchant, secondCompany);
    await save(merchant, { ...setting, parseValue: 'DUP-{transactionReference}' }, secondCompany);
    const rebuild = createCustomHostIdRebuild({
      database: ctx.database,
      jobs: noJobs,
      log: ctx.app.log,
      repository: createCustomHostIdRepository(),
    });
    await rebuild.rebuild(scope());
    expect(await rowsOf(merchant, secondCompany)).toEqual(before);
  });
});

describe('OpenAPI', () => {
  it('documents the routes with their schemas', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v0/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v0/company-settings/custom-host-id',
        '/api/v0/company-settings/custom-host-id/example',
        '/api/v0/company-settings/custom-host-id/rebuild',
        '/api/v0/transactions/custom-host-id/rebuild',
      ]),
    );
    const refs = [...JSON.stringify(doc.paths).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(refs).toEqual(
      expect.arrayContaining(['CustomHostIdSetting', 'UpdateCustomHostIdSettingInput']),
    );
    expect(refs.filter((id) => !doc.components.schemas[id])).toEqual([]);
  });
});
