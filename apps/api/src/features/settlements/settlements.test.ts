import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settlementMessages } from '@ledgerline/contract';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { caller, insertAccount, makeViewer } from '../../../test/fixtures/money-rules.js';

let ctx: TestContext;
let merchant: SignedIn;
let rival: SignedIn;
let viewer: SignedIn;
let call: ReturnType<typeof caller>;

const percentage = {
  type: 'PercentageDiscount',
  description: '  Early bird  ',
  dateType: 'TransactionDate',
  numberOfDays: 10,
  percentageDiscount: 2,
  currency: null,
  filterGroup: { filterConfigurations: [] },
};

beforeAll(async () => {
  ctx = await buildTestApp();
  call = caller(ctx);
  merchant = await signIn(ctx, { tenantName: 'Settlements Ltd' });
  rival = await signIn(ctx, { tenantName: 'Rival Settlements Ltd' });
  viewer = await signIn(ctx, { tenantName: 'Viewer Settlements Ltd' });
  await makeViewer(ctx, viewer);
});
afterAll(() => ctx.close());

async function createGroup(who: SignedIn, name: string, extra: object = {}) {
  const response = await call(who, 'POST', 'settlement-configuration-groups', { name, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; name: string; configurations: { id: string }[] };
}

function errorsOf(response: { json(): unknown }) {
  return (response.json() as { errors: Record<string, string[]> }).errors;
}

describe('settlement configuration groups', () => {
  it('creates a group trimmed, reads it, pages by name ascending', async () => {
    const created = await createGroup(merchant, '  Zulu terms  ', { description: '  Net 30  ' });
    expect(created).toMatchObject({
      name: 'Zulu terms',
      description: 'Net 30',
      customerEnabled: true,
      isDefault: false,
      configurations: [],
    });
    await createGroup(merchant, 'Alpha terms');
    const page = await call(
      merchant,
      'GET',
      'settlement-configuration-groups?page=1&itemsPerPage=20',
    );
    expect(page.statusCode).toBe(200);
    const names = (page.json() as { items: { name: string }[] }).items.map((g) => g.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('Zulu terms');
    const one = await call(merchant, 'GET', `settlement-configuration-groups/${created.id}`);
    expect(one.json()).toMatchObject({ id: created.id, name: 'Zulu terms' });
  });

  it.each([
    [{ name: '' }, 'name', settlementMessages.nameRequired],
    [{ name: '    ' }, 'name', settlementMessages.nameRequired],
    [{}, 'name', settlementMessages.nameRequired],
    [{ name: 'x'.repeat(101) }, 'name', settlementMessages.nameTooLong],
    [
      { name: 'ok', description: 'x'.repeat(501) },
      'description',
      settlementMessages.groupDescriptionTooLong,
    ],
  ])('refuses group %j: %s', async (body, field, message) => {
    const response = await call(merchant, 'POST', 'settlement-configuration-groups', body);
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[field]).toContain(message);
  });

  it('accepts the limits exactly: name 100, description 500', async () => {
    await createGroup(merchant, 'n'.repeat(100), { description: 'd'.repeat(500) });
  });

  it('updates a group through PUT with its id', async () => {
    const group = await createGroup(merchant, 'Before');
    const response = await call(merchant, 'PUT', 'settlement-configuration-groups', {
      id: group.id,
      name: 'After',
      description: null,
      customerEnabled: false,
      transactionEnabled: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'After',
      customerEnabled: false,
      transactionEnabled: true,
    });
  });
});

describe('settlement configurations', () => {
  it('adds, edits and deletes a configuration; the answer is the whole group', async () => {
    const group = await createGroup(merchant, 'Configured');
    const added = await call(
      merchant,
      'POST',
      `settlement-configuration-groups/${group.id}/configurations`,
      percentage,
    );
    expect(added.statusCode, added.body).toBe(201);
    const [configuration] = (
      added.json() as { configurations: { id: string; description: string }[] }
    ).configurations;
    expect(configuration).toMatchObject({
      description: 'Early bird',
      percentageDiscount: 2,
      numberOfDays: 10,
      dateType: 'TransactionDate',
    });
    const edited = await call(
      merchant,
      'PUT',
      `settlement-configuration-groups/${group.id}/configurations`,
      {
        ...percentage,
        id: configuration!.id,
        type: 'AbsoluteDiscount',
        percentageDiscount: null,
        amount: 25,
        currency: 'GBP',
        dateType: 'DueDate',
        filterGroup: {
          filterConfigurations: [
            {
              filterType: 'TransactionAmount',
              isEnabled: true,
              amountType: 'OutstandingAmount',
              minimumTransactionValue: 100,
              maximumTransactionValue: null,
            },
            { filterType: 'Currencies', isEnabled: true, currencies: ['GBP'] },
          ],
        },
      },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as { configurations: object[] }).configurations[0]).toMatchObject({
      type: 'AbsoluteDiscount',
      amount: 25,
      percentageDiscount: null,
      currency: 'GBP',
      dateType: 'DueDate',
    });
    const deleted = await call(
      merchant,
      'DELETE',
      `settlement-configuration-groups/${group.id}/configurations/${configuration!.id}`,
    );
    expect(deleted.statusCode).toBe(204);
    const after = await call(merchant, 'GET', `settlement-configuration-groups/${group.id}`);
    expect((after.json() as { configurations: object[] }).configurations).toEqual([]);
  });

  it.each([
    [{ percentageDiscount: null }, 'percentageDiscount', settlementMessages.percentageRequired],
    [{ percentageDiscount: -0.01 }, 'percentageDiscount', settlementMessages.percentageRequired],
    [{ percentageDiscount: 100.01 }, 'percentageDiscount', settlementMessages.percentageRequired],
    [{ percentageDiscount: 'two' }, 'percentageDiscount', settlementMessages.percentageRequired],
    [{ numberOfDays: -1 }, 'numberOfDays', settlementMessages.daysRequired],
    [{ numberOfDays: null }, 'numberOfDays', settlementMessages.daysRequired],
    [{ numberOfDays: 1.5 }, 'numberOfDays', settlementMessages.daysRequired],
    [{ type: 'AbsoluteDiscount', amount: null }, 'amount', settlementMessages.amountRequired],
    [{ type: 'AbsoluteDiscount', amount: -1 }, 'amount', settlementMessages.amountRequired],
    [{ dateType: null }, 'dateType', settlementMessages.dateTypeRequired],
    [{ dateType: 'Someday' }, 'dateType', settlementMessages.dateTypeRequired],
    [
      { description: 'x'.repeat(256) },
      'description',
      settlementMessages.configurationDescriptionTooLong,
    ],
    [{ currency: 'POUNDS' }, 'currency', settlementMessages.currencyLength],
  ])('refuses configuration change %j: %s', async (change, field, message) => {
    const group = await createGroup(merchant, 'Limits');
    const response = await call(
      merchant,
      'POST',
      `settlement-configuration-groups/${group.id}/configurations`,
      { ...percentage, ...change },
    );
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[field]).toContain(message);
  });

  it('accepts the limits exactly: 0 and 100 percent, 0 days, amount 0, description 255', async () => {
    const group = await createGroup(merchant, 'Edges');
    for (const change of [
      { percentageDiscount: 0 },
      { percentageDiscount: 100, numberOfDays: 0 },
      { type: 'AbsoluteDiscount', amount: 0, currency: 'GBP' },
      { description: 'x'.repeat(255) },
    ]) {
      const response = await call(
        merchant,
        'POST',
        `settlement-configuration-groups/${group.id}/configurations`,
        { ...percentage, ...change },
      );
      expect(response.statusCode, JSON.stringify(change)).toBe(201);
    }
  });

  it('refuses a transaction-amount filter whose maximum is not above its minimum; NaN-free empties are null', async () => {
    const group = await createGroup(merchant, 'Filters');
    const response = await call(
      merchant,
      'POST',
      `settlement-configuration-groups/${group.id}/configurations`,
      {
        ...percentage,
        filterGroup: {
          filterConfigurations: [
            {
              filterType: 'TransactionAmount',
              isEnabled: true,
              amountType: 'TransactionAmount',
              minimumTransactionValue: 500,
              maximumTransactionValue: 500,
            },
          ],
        },
      },
    );
    expect(response.statusCode).toBe(400);
    expect(
      errorsOf(response)['filterGroup.filterConfigurations.0.maximumTransactionValue'] ??
        Object.values(errorsOf(response)).flat(),
    ).toContain(settlementMessages.minimumAboveMaximum);
  });
});

describe('groups in use (docs/decisions.md)', () => {
  it('refuses to delete the company default or an account’s choice with 409, then deletes once released', async () => {
    const group = await createGroup(merchant, 'In use');
    await call(
      merchant,
      'POST',
      `settlement-configuration-groups/${group.id}/configurations`,
      percentage,
    );
    const setDefault = await call(merchant, 'PUT', 'company-settings/preferences', {
      defaultSettlementConfigurationGroupId: group.id,
    });
    expect(setDefault.statusCode).toBe(200);
    expect(
      (await call(merchant, 'GET', `settlement-configuration-groups/${group.id}`)).json(),
    ).toMatchObject({ isDefault: true });
    const refused = await call(merchant, 'DELETE', `settlement-configuration-groups/${group.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ errorCode: 'settlementGroupInUse' });
    expect((refused.json() as { detail: string }).detail).toContain('it is the company default');

    await call(merchant, 'PUT', 'company-settings/preferences', {
      defaultSettlementConfigurationGroupId: null,
    });
    const accountId = await insertAccount(ctx, merchant, {
      settlementConfigurationGroupId: group.id,
    });
    const stillUsed = await call(merchant, 'DELETE', `settlement-configuration-groups/${group.id}`);
    expect(stillUsed.statusCode).toBe(409);
    expect((stillUsed.json() as { detail: string }).detail).toContain('1 account uses it');
    expect(accountId).toBeTruthy();

    const free = await createGroup(merchant, 'Free');
    expect(
      (await call(merchant, 'DELETE', `settlement-configuration-groups/${free.id}`)).statusCode,
    ).toBe(204);
    expect(
      (await call(merchant, 'GET', `settlement-configuration-groups/${free.id}`)).statusCode,
    ).toBe(404);
  });
});

describe('permissions (spec 3 §6)', () => {
  it('lets a viewer read but not create, edit or delete', async () => {
    expect((await call(viewer, 'GET', 'settlement-configuration-groups')).statusCode).toBe(200);
    const group = await createGroup(merchant, 'Viewer target');
    const cases: [Parameters<typeof call>[1], string, object | undefined][] = [
      ['POST', 'settlement-configuration-groups', { name: 'No' }],
      ['PUT', 'settlement-configuration-groups', { id: group.id, name: 'No' }],
      ['DELETE', `settlement-configuration-groups/${group.id}`, undefined],
      ['POST', `settlement-configuration-groups/${group.id}/configurations`, percentage],
      [
        'PUT',
        `settlement-configuration-groups/${group.id}/configurations`,
        { ...percentage, id: group.id },
      ],
      [
        'DELETE',
        `settlement-configuration-groups/${group.id}/configurations/${group.id}`,
        undefined,
      ],
    ];
    for (const [method, url, body] of cases) {
      expect((await call(viewer, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

describe('cross-tenant', () => {
  it('answers 404 for every route given another tenant’s ids', async () => {
    const group = await createGroup(merchant, 'Private');
    const added = await call(
      merchant,
      'POST',
      `settlement-configuration-groups/${group.id}/configurations`,
      percentage,
    );
    const configurationId = (added.json() as { configurations: { id: string }[] })
      .configurations[0]!.id;
    const cases: [Parameters<typeof call>[1], string, object | undefined][] = [
      ['GET', `settlement-configuration-groups/${group.id}`, undefined],
      ['PUT', 'settlement-configuration-groups', { id: group.id, name: 'Taken' }],
      ['DELETE', `settlement-configuration-groups/${group.id}`, undefined],
      ['POST', `settlement-configuration-groups/${group.id}/configurations`, percentage],
      [
        'PUT',
        `settlement-configuration-groups/${group.id}/configurations`,
        { ...percentage, id: configurationId },
      ],
      [
        'DELETE',
        `settlement-configuration-groups/${group.id}/configurations/${configurationId}`,
        undefined,
      ],
    ];
    for (const [method, url, body] of cases) {
      expect((await call(rival, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    const rivalList = await call(rival, 'GET', 'settlement-configuration-groups');
    expect((rivalList.json() as { items: { id: string }[] }).items.map((g) => g.id)).not.toContain(
      group.id,
    );
    const setDefault = await call(rival, 'PUT', 'company-settings/preferences', {
      defaultSettlementConfigurationGroupId: group.id,
    });
    expect(setDefault.statusCode).toBe(400);
    expect(
      (await call(merchant, 'GET', `settlement-configuration-groups/${group.id}`)).json(),
    ).toMatchObject({ name: 'Private', configurations: [expect.anything()] });
  });
});
