import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { baseCurrencies, type Dataset, type DatasetStatus } from '@ledgerline/contract';
import { auditActivities, datasets, users } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';
import { waitFor } from '../../../test/wait.js';

let ctx: TestContext;
let admin: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await signIn(ctx, { tenantName: 'Companies Ltd' });
  other = await signIn(ctx, { tenantName: 'Rival Ltd' });
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const call = (user: SignedIn, method: Method, url: string, payload?: object) =>
  ctx.app.inject({ method, url, headers: user.headers(), payload });
const get = (user: SignedIn, url: string) => call(user, 'GET', url);
const create = (user: SignedIn, payload: object) =>
  call(user, 'POST', '/api/v0/data-sets', payload);
const update = (user: SignedIn, payload: object) => call(user, 'PUT', '/api/v0/data-sets', payload);
const remove = (user: SignedIn, id: number) => call(user, 'DELETE', `/api/v0/data-sets/${id}`);
const reset = (user: SignedIn, id: number) => call(user, 'POST', `/api/v0/data-sets/${id}/reset`);

let hostCounter = 0;
/** A valid create payload with host ids no other test uses. */
function newCompany(overrides: object = {}) {
  hostCounter++;
  return {
    name: `Company ${hostCounter}`,
    hostSystemName: 'Sage200Pro',
    hostId: `H-${hostCounter}`,
    customHostId: `C-${hostCounter}`,
    ...overrides,
  };
}

/** The edit payload of a company as the edit dialog sends it. */
function editOf(dataset: Dataset, overrides: object = {}) {
  const { id, name, shortName, description, hostSystemName, hostId, customHostId } = dataset;
  return { id, name, shortName, description, hostSystemName, hostId, customHostId, ...overrides };
}

async function waitForStatus(user: SignedIn, id: number, status: DatasetStatus, seen?: string[]) {
  return waitFor(async () => {
    const response = await get(user, `/api/v0/data-sets/${id}`);
    if (response.statusCode !== 200) return undefined;
    const dataset = response.json() as Dataset;
    seen?.push(dataset.status);
    return dataset.status === status ? dataset : undefined;
  });
}

/** Registers a company and waits until its provisioning job made it Active. */
async function createActive(user: SignedIn, overrides: object = {}): Promise<Dataset> {
  const response = await create(user, newCompany(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return waitForStatus(user, response.json().id, 'Active');
}

/** A company put straight into the database in a given state; no job ever picks it up. */
async function insertCompany(
  tenantId: string,
  id: number,
  fields: Partial<typeof datasets.$inferInsert> = {},
) {
  await ctx.database.db.insert(datasets).values({
    tenantId,
    id,
    name: `Stored ${id}`,
    status: 'Active',
    hostId: `stored-${id}`,
    customHostId: `stored-custom-${id}`,
    hostSystemName: 'Custom',
    currency: 'GBP',
    ...fields,
  });
}

async function setStatus(tenantId: string, id: number, status: DatasetStatus) {
  await ctx.database.db
    .update(datasets)
    .set({ status })
    .where(and(eq(datasets.tenantId, tenantId), eq(datasets.id, id)));
}

async function storedCompany(tenantId: string, id: number) {
  const [row] = await ctx.database.db
    .select()
    .from(datasets)
    .where(and(eq(datasets.tenantId, tenantId), eq(datasets.id, id)));
  return row;
}

async function companyCount(tenantId: string) {
  return (await ctx.database.db.select().from(datasets).where(eq(datasets.tenantId, tenantId)))
    .length;
}

/** The audit activity a call wrote, found by the request id the server echoes. */
async function activityOf(response: LightMyRequestResponse) {
  const requestId = response.headers['x-request-id'];
  expect(requestId).toBeDefined();
  const rows = await ctx.database.db
    .select()
    .from(auditActivities)
    .where(eq(auditActivities.requestId, String(requestId)));
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** A fresh tenant whose only user has the given role. */
async function userWithRole(role: 'Standard' | 'Viewer', tenantName: string) {
  const user = await signIn(ctx, { tenantName });
  await ctx.database.db.update(users).set({ role }).where(eq(users.id, user.userId));
  return user;
}

describe('reference lists', () => {
  it('offers the ERP host systems without the default one', async () => {
    const response = await get(admin, '/api/v0/data-sets/host-systems');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ items: ['Sage100', 'Sage200Pro', 'Custom'] });
  });

  it('offers the supported base currencies', async () => {
    const response = await get(admin, '/api/v0/data-sets/base-currencies');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ items: ['GBP', 'USD', 'EUR', 'CAD', 'SGD', 'THB', 'ZAR'] });
  });
});

describe('registering a company', () => {
  it('stores it trimmed in Initialise with GBP, no copy-from, Production; audits it; provisions it to Active', async () => {
    const response = await create(admin, {
      name: '  Northwind Trading  ',
      shortName: '  NWT ',
      description: '  The northern branch.  ',
      hostSystemName: 'Sage100',
      hostId: '  NW-100 ',
      customHostId: ' NW-CUSTOM  ',
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as Dataset;
    expect(created).toMatchObject({
      name: 'Northwind Trading',
      shortName: 'NWT',
      description: 'The northern branch.',
      hostSystemName: 'Sage100',
      hostId: 'NW-100',
      customHostId: 'NW-CUSTOM',
      currency: 'GBP',
      status: 'Initialise',
      rebuildStatus: 'None',
      lastSync: null,
      copyFromDatasetId: null,
      type: 'Production',
    });
    expect(created.id).toBeGreaterThan(1);

    const activity = await activityOf(response);
    expect(activity).toMatchObject({
      tenantId: admin.tenantId,
      operation: 'CreateDataset',
      resourceType: 'Dataset',
      resourceId: String(created.id),
      userId: admin.userId,
      status: 201,
    });

    const seen: string[] = [];
    const active = await waitForStatus(admin, created.id, 'Active', seen);
    expect(active).toEqual({ ...created, status: 'Active' });
    // Only the lifecycle's own states show on the way (spec 1 §4).
    expect(seen.every((s) => ['Initialise', 'Provisioning', 'Active'].includes(s))).toBe(true);
  });

  it('stores an empty or blank short name and description as none', async () => {
    const response = await create(admin, newCompany({ shortName: '   ', description: '' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ shortName: null, description: null });
    await waitForStatus(admin, response.json().id, 'Active');
  });

  it('accepts every supported base currency', async () => {
    for (const currency of baseCurrencies) {
      const response = await create(admin, newCompany({ currency }));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().currency).toBe(currency);
      await waitForStatus(admin, response.json().id, 'Active');
    }
  });

  it('accepts each limit exactly (after trimming)', async () => {
    const response = await create(admin, {
      name: ` ${'N'.repeat(100)} `,
      shortName: ` ${'S'.repeat(100)} `,
      description: ` ${'D'.repeat(500)} `,
      hostSystemName: 'Custom',
      hostId: ` ${'h'.repeat(100)} `,
      customHostId: ` ${'c'.repeat(100)} `,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      name: 'N'.repeat(100),
      shortName: 'S'.repeat(100),
      description: 'D'.repeat(500),
      hostId: 'h'.repeat(100),
      customHostId: 'c'.repeat(100),
    });
    await waitForStatus(admin, response.json().id, 'Active');
  });

  it('makes a demo company when asked; the flag defaults to a production one', async () => {
    const demo = await create(admin, newCompany({ hostDemoSystem: true }));
    expect(demo.statusCode, demo.body).toBe(201);
    expect(demo.json().type).toBe('Demo');
    await waitForStatus(admin, demo.json().id, 'Active');
    const production = await create(admin, newCompany({ hostDemoSystem: false }));
    expect(production.json().type).toBe('Production');
    await waitForStatus(admin, production.json().id, 'Active');
  });

  it('copies from a company of the tenant; 0 or nothing means none', async () => {
    const copied = await create(admin, newCompany({ copyFromDatasetId: 1 }));
    expect(copied.statusCode, copied.body).toBe(201);
    expect(copied.json().copyFromDatasetId).toBe(1);
    await waitForStatus(admin, copied.json().id, 'Active');
    for (const copyFromDatasetId of [0, null]) {
      const none = await create(admin, newCompany({ copyFromDatasetId }));
      expect(none.statusCode, none.body).toBe(201);
      expect(none.json().copyFromDatasetId).toBeNull();
      await waitForStatus(admin, none.json().id, 'Active');
    }
  });

  it('refuses to copy from a company that does not exist', async () => {
    const before = await companyCount(admin.tenantId);
    const response = await create(admin, newCompany({ copyFromDatasetId: 999 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ copyFromDatasetId: ['Company 999 was not found.'] });
    expect(await companyCount(admin.tenantId)).toBe(before);
    expect(await activityOf(response)).toMatchObject({ operation: 'CreateDataset', status: 400 });
  });

  it.each([
    [{ name: undefined }, 'name', 'Name is required.'],
    [{ name: '' }, 'name', 'Name is required.'],
    [{ name: '    ' }, 'name', 'Name is required.'],
    [{ name: 'N'.repeat(101) }, 'name', 'Name must be at most 100 characters.'],
    [{ shortName: 'S'.repeat(101) }, 'shortName', 'Short name must be at most 100 characters.'],
    [
      { description: 'D'.repeat(501) },
      'description',
      'Description must be at most 500 characters.',
    ],
    [{ hostId: undefined }, 'hostId', 'Host id is required.'],
    [{ hostId: '' }, 'hostId', 'Host id is required.'],
    [{ hostId: '   ' }, 'hostId', 'Host id is required.'],
    [{ hostId: 'h'.repeat(101) }, 'hostId', 'Host id must be at most 100 characters.'],
    [{ customHostId: undefined }, 'customHostId', 'Custom host id is required.'],
    [{ customHostId: '' }, 'customHostId', 'Custom host id is required.'],
    [{ customHostId: '  ' }, 'customHostId', 'Custom host id is required.'],
    [
      { customHostId: 'c'.repeat(101) },
      'customHostId',
      'Custom host id must be at most 100 characters.',
    ],
    [{ hostSystemName: undefined }, 'hostSystemName', 'Choose an ERP host system.'],
    [{ hostSystemName: 'Default' }, 'hostSystemName', 'Choose an ERP host system.'],
    [{ hostSystemName: 'SAP' }, 'hostSystemName', 'Choose an ERP host system.'],
    [{ currency: 'JPY' }, 'currency', 'Choose a supported currency.'],
    [{ currency: 'gbp' }, 'currency', 'Choose a supported currency.'],
    [{ copyFromDatasetId: -1 }, 'copyFromDatasetId', 'Choose a company to copy from, or none.'],
    [{ copyFromDatasetId: 1.5 }, 'copyFromDatasetId', 'Choose a company to copy from, or none.'],
    [{ copyFromDatasetId: '1' }, 'copyFromDatasetId', 'Choose a company to copy from, or none.'],
    [
      { copyFromDatasetId: 2147483648 },
      'copyFromDatasetId',
      'Choose a company to copy from, or none.',
    ],
    [{ hostDemoSystem: 'yes' }, 'hostDemoSystem', 'Demo company must be true or false.'],
  ])('refuses %j', async (overrides, field, message) => {
    const before = await companyCount(admin.tenantId);
    const response = await create(admin, newCompany(overrides));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
    expect(await companyCount(admin.tenantId)).toBe(before);
  });

  it('refuses a call without a body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/data-sets',
      headers: admin.headers(),
    });
    expect(response.statusCode).toBe(400);
  });

  it('gives each company of the tenant its own small id, even when registered at once', async () => {
    const responses = await Promise.all([1, 2, 3].map(() => create(admin, newCompany())));
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const ids = responses.map((r) => r.json().id as number);
    expect(new Set(ids).size).toBe(3);
    await Promise.all(ids.map((id) => waitForStatus(admin, id, 'Active')));
  });
});

describe('duplicate host ids (spec 1 §5)', () => {
  it('shows both messages when both host ids are taken, trimmed values included', async () => {
    // Company 1 uses '1' for both.
    const before = await companyCount(admin.tenantId);
    const response = await create(admin, newCompany({ hostId: ' 1 ', customHostId: '1' }));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      status: 409,
      errorCode: 'datasetHostIdExists',
      errors: {
        hostId: ['datasetHostIdExists'],
        customHostId: ['datasetCustomHostIdExists'],
      },
    });
    expect(await companyCount(admin.tenantId)).toBe(before);
    expect(await activityOf(response)).toMatchObject({ operation: 'CreateDataset', status: 409 });
  });

  it('names only the host id, or only the custom host id, when only that one is taken', async () => {
    const taken = await createActive(admin, { hostId: 'DUP-HOST', customHostId: 'DUP-CUSTOM' });
    const host = await create(admin, newCompany({ hostId: taken.hostId }));
    expect(host.statusCode).toBe(409);
    expect(host.json().errors).toEqual({ hostId: ['datasetHostIdExists'] });
    expect(host.json().errorCode).toBe('datasetHostIdExists');
    const custom = await create(admin, newCompany({ customHostId: taken.customHostId }));
    expect(custom.statusCode).toBe(409);
    expect(custom.json().errors).toEqual({ customHostId: ['datasetCustomHostIdExists'] });
    expect(custom.json().errorCode).toBe('datasetCustomHostIdExists');
  });

  it('lets another tenant use the same host ids', async () => {
    const mine = await createActive(admin);
    const theirs = await create(
      other,
      newCompany({ hostId: mine.hostId, customHostId: mine.customHostId }),
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    await waitForStatus(other, theirs.json().id, 'Active');
  });

  it('lets only one of several simultaneous registrations with the same host id through', async () => {
    const hostId = 'RACE-HOST';
    const responses = await Promise.all(
      [1, 2, 3, 4].map(() => create(admin, newCompany({ hostId }))),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const stored = await ctx.database.db
      .select()
      .from(datasets)
      .where(and(eq(datasets.tenantId, admin.tenantId), eq(datasets.hostId, hostId)));
    expect(stored).toHaveLength(1);
    await waitForStatus(admin, stored[0]!.id, 'Active');
  });
});

describe('simultaneous changes', () => {
  it('lets only one of two simultaneous edits to the same host id through', async () => {
    const first = await createActive(admin);
    const second = await createActive(admin);
    const [a, b] = await Promise.all([
      update(admin, editOf(first, { hostId: 'RACE-EDIT' })),
      update(admin, editOf(second, { hostId: 'RACE-EDIT' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((a.statusCode === 409 ? a : b).json().errors).toEqual({
      hostId: ['datasetHostIdExists'],
    });
    const stored = await ctx.database.db
      .select()
      .from(datasets)
      .where(and(eq(datasets.tenantId, admin.tenantId), eq(datasets.hostId, 'RACE-EDIT')));
    expect(stored).toHaveLength(1);
  });

  it('accepts only one of two simultaneous deletes', async () => {
    const company = await createActive(admin);
    const responses = await Promise.all([remove(admin, company.id), remove(admin, company.id)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    const refused = responses.find((r) => r.statusCode === 409)!;
    expect(refused.json()).toMatchObject({
      errorCode: 'datasetStatus',
      detail: `Company ${company.id} is Deleting; this needs it to be Active or Inactive or Error.`,
    });
    await waitFor(async () => (await storedCompany(admin.tenantId, company.id)) === undefined);
  });

  it('never answers Resetting for a demo company that is being deleted', async () => {
    const demo = await createActive(admin, { hostDemoSystem: true });
    const [deleted, resetted] = await Promise.all([remove(admin, demo.id), reset(admin, demo.id)]);
    // Whichever came first wins; the other is refused rather than told it started.
    expect([deleted.statusCode, resetted.statusCode].sort()).toEqual([202, 409]);
    if (deleted.statusCode === 202) {
      expect(resetted.json().errorCode).toBe('datasetStatus');
      await waitFor(async () => (await storedCompany(admin.tenantId, demo.id)) === undefined);
    } else {
      expect(deleted.json().errorCode).toBe('datasetStatus');
      await waitForStatus(admin, demo.id, 'Active');
    }
  });
});

describe('reading companies', () => {
  let reader: SignedIn;

  beforeAll(async () => {
    reader = await signIn(ctx, { tenantName: 'Alpha Reading Ltd' });
    const rows: [string, string, 'Production' | 'Demo', DatasetStatus, string][] = [
      ['Kilo Foods', 'Sage100', 'Production', 'Active', 'USD'],
      ['Bravo Metals', 'Sage200Pro', 'Demo', 'Inactive', 'EUR'],
      ['Echo Print', 'Custom', 'Production', 'Error', 'GBP'],
      ['Delta Farms', 'Sage100', 'Demo', 'Active', 'ZAR'],
      ['Golf Shoes', 'Custom', 'Production', 'Active', 'CAD'],
      ['Hotel Linen', 'Sage200Pro', 'Production', 'Active', 'SGD'],
      ['India Tea', 'Sage100', 'Production', 'Active', 'THB'],
      ['Juliet Glass', 'Custom', 'Production', 'Active', 'GBP'],
      ['Foxtrot Toys', 'Sage100', 'Production', 'Active', 'GBP'],
      ['Charlie Wood', 'Custom', 'Production', 'Active', 'GBP'],
      ['Lima Stone', 'Custom', 'Production', 'Active', 'GBP'],
    ];
    // Stored out of id order, so the default sort has something to do.
    const ids = [7, 3, 12, 2, 9, 5, 11, 4, 8, 6, 10];
    for (const [index, [name, hostSystemName, type, status, currency]] of rows.entries()) {
      await insertCompany(reader.tenantId, ids[index]!, {
        name,
        hostSystemName,
        type,
        status,
        currency,
        lastSync: index === 0 ? new Date('2026-01-02T03:04:05Z') : null,
      });
    }
  });

  const page = (query: string) => get(reader, `/api/v0/data-sets${query}`);
  const names = (response: LightMyRequestResponse) =>
    response.json().items.map((d: Dataset) => d.name);

  it('pages by id ascending, 10 at a time, by default', async () => {
    const first = await page('');
    expect(first.statusCode).toBe(200);
    expect(first.json().totalItems).toBe(12);
    expect(first.json().items.map((d: Dataset) => d.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(first.json().items[0]).toMatchObject({
      id: 1,
      name: 'Alpha Reading Ltd',
      hostSystemName: 'Default',
      status: 'Active',
    });
    expect(first.json().items[6]).toMatchObject({
      id: 7,
      name: 'Kilo Foods',
      currency: 'USD',
      lastSync: '2026-01-02T03:04:05.000Z',
    });
    const second = await page('?page=2');
    expect(second.json()).toMatchObject({ totalItems: 12 });
    expect(second.json().items.map((d: Dataset) => d.id)).toEqual([11, 12]);
    const small = await page('?page=3&itemsPerPage=4');
    expect(small.json().items.map((d: Dataset) => d.id)).toEqual([9, 10, 11, 12]);
    const beyond = await page('?page=9&itemsPerPage=4');
    expect(beyond.json()).toEqual({ items: [], totalItems: 12 });
  });

  it('sorts by any grid column, descending with a leading minus', async () => {
    const byIdDescending = await page('?sort=-id&itemsPerPage=3');
    expect(byIdDescending.json().items.map((d: Dataset) => d.id)).toEqual([12, 11, 10]);
    const byName = await page('?sort=name&itemsPerPage=4');
    expect(names(byName)).toEqual([
      'Alpha Reading Ltd',
      'Bravo Metals',
      'Charlie Wood',
      'Delta Farms',
    ]);
    const byStatusThenName = await page('?sort=-status,name&itemsPerPage=3');
    // Statuses sort as text: Inactive > Error > Active.
    expect(names(byStatusThenName)).toEqual(['Bravo Metals', 'Echo Print', 'Alpha Reading Ltd']);
    const byCurrency = await page('?sort=currency,-id&itemsPerPage=2');
    expect(byCurrency.json().items.map((d: Dataset) => d.currency)).toEqual(['CAD', 'EUR']);
  });

  it('filters by grid columns, all items applying', async () => {
    const demos = await page('?filter=type%20eq%20Demo');
    expect(demos.json().totalItems).toBe(2);
    expect(names(demos)).toEqual(['Delta Farms', 'Bravo Metals']);
    const sage = await page(
      `?filter=${encodeURIComponent('hostSystemName eq Sage100,status eq Active')}`,
    );
    expect(names(sage)).toEqual(['Delta Farms', 'Kilo Foods', 'Foxtrot Toys', 'India Tea']);
    const named = await page(`?filter=${encodeURIComponent('name ct oo')}&sort=name`);
    expect(names(named)).toEqual(['Charlie Wood', 'Kilo Foods']);
    const ids = await page(`?filter=${encodeURIComponent('id gt 10')}`);
    expect(ids.json().items.map((d: Dataset) => d.id)).toEqual([11, 12]);
    const synced = await page(`?filter=${encodeURIComponent('lastSync ge 2026-01-02')}`);
    expect(names(synced)).toEqual(['Kilo Foods']);
    const byHost = await page(`?filter=${encodeURIComponent('hostId eq stored-3')}`);
    expect(names(byHost)).toEqual(['Bravo Metals']);
  });

  it.each([
    ['filter=secret%20eq%201', 'filter', "Unknown filter field 'secret'"],
    ['filter=id%20gt%20many', 'filter', "'many' is not a valid number for 'id'"],
    ['filter=name%20gt%20x', 'filter', "Operator 'gt' is not allowed for string field 'name'"],
    ['filter=status%20eq%20Sleeping', 'filter', "'Sleeping' is not a valid value for 'status'"],
    ['filter=name', 'filter', "Filter item 'name' must be written as 'field operator value'"],
    ['sort=password', 'sort', "Unknown sort field 'password'"],
    ['page=0', 'page', 'Page must be a whole number'],
    ['itemsPerPage=1001', 'itemsPerPage', 'Items per page must be a whole number from 1 to 1000.'],
  ])('refuses ?%s with 400 naming it', async (query, parameter, message) => {
    const response = await page(`?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[parameter][0]).toContain(message);
  });

  it('lists all companies of the tenant by id', async () => {
    const response = await get(reader, '/api/v0/data-sets/all');
    expect(response.statusCode).toBe(200);
    expect(response.json().items.map((d: Dataset) => d.id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
  });

  it('reads one company, and says whether one exists', async () => {
    const one = await get(reader, '/api/v0/data-sets/3');
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      id: 3,
      name: 'Bravo Metals',
      shortName: null,
      description: null,
      status: 'Inactive',
      hostId: 'stored-3',
      customHostId: 'stored-custom-3',
      hostSystemName: 'Sage200Pro',
      currency: 'EUR',
      rebuildStatus: 'None',
      lastSync: null,
      copyFromDatasetId: null,
      type: 'Demo',
    });
    const exists = await get(reader, '/api/v0/data-sets/3/exists');
    expect(exists.statusCode).toBe(204);
    expect(exists.body).toBe('');
  });

  it('answers 404 for a company that does not exist', async () => {
    const one = await get(reader, '/api/v0/data-sets/13');
    expect(one.statusCode).toBe(404);
    expect(one.json()).toMatchObject({ status: 404, detail: 'Company 13 was not found.' });
    const exists = await get(reader, '/api/v0/data-sets/13/exists');
    expect(exists.statusCode).toBe(404);
    expect(exists.json().detail).toBe('Company 13 was not found.');
  });

  it.each(['abc', '0', '-1', '1.5', '2147483648'])('refuses the id %s with 400', async (id) => {
    for (const url of [`/api/v0/data-sets/${id}`, `/api/v0/data-sets/${id}/exists`]) {
      const response = await get(reader, url);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.id).toBeDefined();
    }
  });

  it('lets a Viewer read every list', async () => {
    const viewer = await userWithRole('Viewer', 'Viewing Ltd');
    for (const url of [
      '/api/v0/data-sets',
      '/api/v0/data-sets/all',
      '/api/v0/data-sets/1',
      '/api/v0/data-sets/host-systems',
      '/api/v0/data-sets/base-currencies',
    ]) {
      expect((await get(viewer, url)).statusCode).toBe(200);
    }
    expect((await get(viewer, '/api/v0/data-sets/1/exists')).statusCode).toBe(204);
  });

  it('needs a sign-in for every route', async () => {
    for (const [method, url] of [
      ['GET', '/api/v0/data-sets'],
      ['GET', '/api/v0/data-sets/all'],
      ['GET', '/api/v0/data-sets/host-systems'],
      ['GET', '/api/v0/data-sets/base-currencies'],
      ['GET', '/api/v0/data-sets/1'],
      ['GET', '/api/v0/data-sets/1/exists'],
      ['POST', '/api/v0/data-sets'],
      ['PUT', '/api/v0/data-sets'],
      ['DELETE', '/api/v0/data-sets/2'],
      ['POST', '/api/v0/data-sets/2/reset'],
    ] as const) {
      const response = await ctx.app.inject({
        method,
        url,
        payload: method === 'GET' ? undefined : {},
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('changing a company', () => {
  it('updates every editable field trimmed, keeps its own host ids, and audits it', async () => {
    const company = await createActive(admin, { shortName: 'Old', description: 'Old text' });
    const response = await update(
      admin,
      editOf(company, {
        name: '  Renamed Company ',
        shortName: '  RC ',
        description: ' New text ',
        hostSystemName: 'Custom',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      ...company,
      name: 'Renamed Company',
      shortName: 'RC',
      description: 'New text',
      hostSystemName: 'Custom',
    });
    expect((await get(admin, `/api/v0/data-sets/${company.id}`)).json()).toEqual(response.json());
    expect(await activityOf(response)).toMatchObject({
      operation: 'UpdateDataset',
      resourceType: 'Dataset',
      resourceId: String(company.id),
      userId: admin.userId,
      status: 200,
    });

    const cleared = await update(admin, editOf(company, { shortName: '  ', description: null }));
    expect(cleared.json()).toMatchObject({ shortName: null, description: null });
    const moved = await update(
      admin,
      editOf(company, {
        hostId: ` ${company.hostId}-new `,
        customHostId: `${company.customHostId}-new`,
      }),
    );
    expect(moved.json()).toMatchObject({
      hostId: `${company.hostId}-new`,
      customHostId: `${company.customHostId}-new`,
    });
  });

  it("refuses another company's host ids with both messages, excluding itself", async () => {
    const first = await createActive(admin);
    const second = await createActive(admin);
    const both = await update(
      admin,
      editOf(second, { hostId: first.hostId, customHostId: ` ${first.customHostId} ` }),
    );
    expect(both.statusCode).toBe(409);
    expect(both.json().errors).toEqual({
      hostId: ['datasetHostIdExists'],
      customHostId: ['datasetCustomHostIdExists'],
    });
    expect(await activityOf(both)).toMatchObject({ operation: 'UpdateDataset', status: 409 });
    const custom = await update(admin, editOf(second, { customHostId: first.customHostId }));
    expect(custom.statusCode).toBe(409);
    expect(custom.json().errors).toEqual({ customHostId: ['datasetCustomHostIdExists'] });
    const defaultHost = await update(admin, editOf(second, { hostId: '1' }));
    expect(defaultHost.json().errors).toEqual({ hostId: ['datasetHostIdExists'] });
    expect(await storedCompany(admin.tenantId, second.id)).toMatchObject({
      hostId: second.hostId,
      customHostId: second.customHostId,
    });
  });

  it('keeps the demo flag, currency and copy-from fixed at creation', async () => {
    const company = await createActive(admin, { currency: 'USD', copyFromDatasetId: 1 });
    const response = await update(
      admin,
      editOf(company, {
        name: 'Still production',
        hostDemoSystem: true,
        type: 'Demo',
        currency: 'EUR',
        copyFromDatasetId: 0,
        status: 'Inactive',
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Still production',
      type: 'Production',
      currency: 'USD',
      copyFromDatasetId: 1,
      status: 'Active',
    });
    const demo = await createActive(admin, { hostDemoSystem: true });
    const still = await update(admin, editOf(demo, { hostDemoSystem: false, type: 'Production' }));
    expect(still.json().type).toBe('Demo');
  });

  it.each([
    [{ id: undefined }, 'id', 'Choose a company.'],
    [{ id: 0 }, 'id', 'Choose a company.'],
    [{ id: 'two' }, 'id', 'Choose a company.'],
    [{ name: '   ' }, 'name', 'Name is required.'],
    [{ name: 'N'.repeat(101) }, 'name', 'Name must be at most 100 characters.'],
    [{ shortName: 'S'.repeat(101) }, 'shortName', 'Short name must be at most 100 characters.'],
    [
      { description: 'D'.repeat(501) },
      'description',
      'Description must be at most 500 characters.',
    ],
    [{ hostId: ' ' }, 'hostId', 'Host id is required.'],
    [{ hostId: 'h'.repeat(101) }, 'hostId', 'Host id must be at most 100 characters.'],
    [{ customHostId: undefined }, 'customHostId', 'Custom host id is required.'],
    [
      { customHostId: 'c'.repeat(101) },
      'customHostId',
      'Custom host id must be at most 100 characters.',
    ],
    [{ hostSystemName: 'Default' }, 'hostSystemName', 'Choose an ERP host system.'],
  ])('refuses %j', async (overrides, field, message) => {
    const company = await storedCompany(admin.tenantId, 2);
    const response = await update(admin, editOf(company as unknown as Dataset, overrides));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
    expect(await storedCompany(admin.tenantId, 2)).toEqual(company);
  });

  it('refuses an id beyond the integer range with 400, not a server error', async () => {
    const company = await storedCompany(admin.tenantId, 2);
    const response = await update(admin, editOf(company as unknown as Dataset, { id: 2147483648 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.id).toEqual(['Choose a company.']);
  });

  it('answers 404 for a company that does not exist', async () => {
    const company = await storedCompany(admin.tenantId, 2);
    const response = await update(admin, editOf(company as unknown as Dataset, { id: 999 }));
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe('Company 999 was not found.');
    expect(await activityOf(response)).toMatchObject({ operation: 'UpdateDataset', status: 404 });
  });

  it('never edits, deletes or resets the company of the default host system', async () => {
    const before = await storedCompany(admin.tenantId, 1);
    const edited = await update(admin, {
      id: 1,
      name: 'Taken over',
      hostSystemName: 'Custom',
      hostId: '1',
      customHostId: '1',
    });
    const deleted = await remove(admin, 1);
    const resetted = await reset(admin, 1);
    for (const response of [edited, deleted, resetted]) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        errorCode: 'defaultDataset',
        detail: 'The default company cannot be changed, reset or deleted.',
      });
    }
    expect(await activityOf(deleted)).toMatchObject({ operation: 'DeleteDataset', status: 409 });
    expect(await storedCompany(admin.tenantId, 1)).toEqual(before);
  });

  it('edits and deletes only a settled company (Active, Inactive or Error)', async () => {
    let id = 500;
    for (const status of [
      'Initialise',
      'Provisioning',
      'Deleting',
      'Resetting',
      'Migrating',
    ] as const) {
      id++;
      await insertCompany(admin.tenantId, id, { status, type: 'Demo' });
      const stored = await storedCompany(admin.tenantId, id);
      const edited = await update(admin, {
        id,
        name: 'Busy',
        hostSystemName: 'Custom',
        hostId: `busy-${id}`,
        customHostId: `busy-${id}`,
      });
      const deleted = await remove(admin, id);
      for (const response of [edited, deleted]) {
        expect(response.statusCode, `${status}: ${response.body}`).toBe(409);
        expect(response.json()).toMatchObject({
          errorCode: 'datasetStatus',
          detail: `Company ${id} is ${status}; this needs it to be Active or Inactive or Error.`,
        });
      }
      expect(await storedCompany(admin.tenantId, id)).toEqual(stored);
    }
    for (const status of ['Inactive', 'Error'] as const) {
      id++;
      await insertCompany(admin.tenantId, id, { status });
      const edited = await update(admin, {
        id,
        name: `Settled ${status}`,
        hostSystemName: 'Custom',
        hostId: `settled-${id}`,
        customHostId: `settled-${id}`,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ name: `Settled ${status}`, status });
    }
  });
});

describe('deleting a company', () => {
  it('moves it to Deleting, audits it, and removes it with its bound keys', async () => {
    const company = await createActive(admin);
    const key = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/subscription-keys?noDataset=false',
      headers: admin.headers({ 'dataset-id': String(company.id) }),
      payload: { name: `Key of ${company.id}` },
    });
    expect(key.statusCode, key.body).toBe(201);
    const bearer = { authorization: `Bearer ${key.json().accessKey}` };
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v0/data-sets/all', headers: bearer }))
        .statusCode,
    ).toBe(200);

    const response = await remove(admin, company.id);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ ...company, status: 'Deleting' });
    expect(await activityOf(response)).toMatchObject({
      operation: 'DeleteDataset',
      resourceType: 'Dataset',
      resourceId: String(company.id),
      userId: admin.userId,
      status: 202,
    });

    await waitFor(
      async () => (await get(admin, `/api/v0/data-sets/${company.id}`)).statusCode === 404,
    );
    expect((await get(admin, `/api/v0/data-sets/${company.id}/exists`)).statusCode).toBe(404);
    const all = (await get(admin, '/api/v0/data-sets/all')).json().items as Dataset[];
    expect(all.map((d) => d.id)).not.toContain(company.id);
    expect(await storedCompany(admin.tenantId, company.id)).toBeUndefined();
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v0/data-sets/all', headers: bearer }))
        .statusCode,
    ).toBe(401);
    // The company is gone for company-scoped calls as well.
    const scoped = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit-logs',
      headers: admin.headers({ 'dataset-id': String(company.id) }),
    });
    expect(scoped.statusCode).toBe(404);
  });

  it('refuses a second delete while the first is running, and 404 once it is gone', async () => {
    await insertCompany(admin.tenantId, 600, { status: 'Deleting' });
    const again = await remove(admin, 600);
    expect(again.statusCode).toBe(409);
    expect(again.json().errorCode).toBe('datasetStatus');
    const missing = await remove(admin, 601);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().detail).toBe('Company 601 was not found.');
    expect(await activityOf(missing)).toMatchObject({ operation: 'DeleteDataset', status: 404 });
  });

  it('deletes a company in Error', async () => {
    await insertCompany(admin.tenantId, 602, { status: 'Error' });
    const response = await remove(admin, 602);
    expect(response.statusCode, response.body).toBe(202);
    await waitFor(async () => (await storedCompany(admin.tenantId, 602)) === undefined);
  });

  it('never gives a deleted company’s id to a new one (its activities keep that id)', async () => {
    const owner = await signIn(ctx, { tenantName: 'Id Reuse Ltd' });
    const first = await createActive(owner);
    expect((await remove(owner, first.id)).statusCode).toBe(202);
    await waitFor(async () => (await storedCompany(owner.tenantId, first.id)) === undefined);
    const next = await createActive(owner);
    expect(next.id).toBe(first.id + 1);
    const scoped = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit-logs',
      headers: owner.headers({ 'dataset-id': String(first.id) }),
    });
    expect(scoped.statusCode).toBe(404);
  });

  it.each(['abc', '0'])('refuses the id %s with 400', async (id) => {
    const response = await call(admin, 'DELETE', `/api/v0/data-sets/${id}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.id).toBeDefined();
  });
});

describe('resetting demo data', () => {
  it('moves an Active demo company to Resetting, audits it, and back to Active', async () => {
    const demo = await createActive(admin, { hostDemoSystem: true });
    const response = await reset(admin, demo.id);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ ...demo, status: 'Resetting' });
    expect(await activityOf(response)).toMatchObject({
      operation: 'ResetDemoDataset',
      resourceType: 'Dataset',
      resourceId: String(demo.id),
      userId: admin.userId,
      status: 202,
    });
    const seen: string[] = [];
    await waitForStatus(admin, demo.id, 'Active', seen);
    expect(seen.every((s) => ['Resetting', 'Active'].includes(s))).toBe(true);
  });

  it('resets an Inactive demo company too', async () => {
    const demo = await createActive(admin, { hostDemoSystem: true });
    await setStatus(admin.tenantId, demo.id, 'Inactive');
    const response = await reset(admin, demo.id);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().status).toBe('Resetting');
    await waitForStatus(admin, demo.id, 'Active');
  });

  it('refuses a production company', async () => {
    const production = await createActive(admin);
    const response = await reset(admin, production.id);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      errorCode: 'notDemoDataset',
      detail: 'Only a demo company can have its data reset.',
    });
    expect(await activityOf(response)).toMatchObject({
      operation: 'ResetDemoDataset',
      status: 409,
    });
    expect((await storedCompany(admin.tenantId, production.id))!.status).toBe('Active');
  });

  it('refuses a demo company that is not Active or Inactive', async () => {
    let id = 700;
    for (const status of [
      'Error',
      'Initialise',
      'Provisioning',
      'Deleting',
      'Resetting',
      'Migrating',
    ] as const) {
      id++;
      await insertCompany(admin.tenantId, id, { status, type: 'Demo' });
      const response = await reset(admin, id);
      expect(response.statusCode, status).toBe(409);
      expect(response.json()).toMatchObject({
        errorCode: 'datasetStatus',
        detail: `Company ${id} is ${status}; this needs it to be Active or Inactive.`,
      });
      expect((await storedCompany(admin.tenantId, id))!.status).toBe(status);
    }
  });

  it('answers 404 for a company that does not exist', async () => {
    const response = await reset(admin, 799);
    expect(response.statusCode).toBe(404);
    expect(response.json().detail).toBe('Company 799 was not found.');
  });
});

describe('permissions', () => {
  it.each(['Standard', 'Viewer'] as const)(
    'a %s user may read companies but not create, edit, delete or reset them',
    async (role) => {
      const user = await userWithRole(role, `${role} Companies Ltd`);
      await insertCompany(user.tenantId, 2, { type: 'Demo' });
      const stored = await storedCompany(user.tenantId, 2);
      const attempts: [LightMyRequestResponse, string][] = [
        [await create(user, newCompany()), 'CreateCompanies'],
        [
          await update(user, editOf(stored as unknown as Dataset, { name: 'Changed' })),
          'EditCompanies',
        ],
        [await remove(user, 2), 'DeleteCompanies'],
        [await reset(user, 2), 'EditCompanies'],
      ];
      for (const [response, permission] of attempts) {
        expect(response.statusCode).toBe(403);
        expect(response.json().detail).toBe(`This needs the ${permission} permission.`);
        expect((await activityOf(response)).status).toBe(403);
      }
      expect(await companyCount(user.tenantId)).toBe(2);
      expect(await storedCompany(user.tenantId, 2)).toEqual(stored);
      expect((await get(user, '/api/v0/data-sets/2')).statusCode).toBe(200);
    },
  );

  it('an access key (an ERP connector) cannot manage companies', async () => {
    const key = (await call(admin, 'POST', '/api/v0/access-keys', { name: 'Connector' })).json()
      .accessKey as string;
    const headers = { authorization: `Bearer ${key}` };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/data-sets',
      headers,
      payload: newCompany(),
    });
    expect(created.statusCode).toBe(403);
    expect(created.json().detail).toBe('This needs the CreateCompanies permission.');
    const deleted = await ctx.app.inject({ method: 'DELETE', url: '/api/v0/data-sets/2', headers });
    expect(deleted.statusCode).toBe(403);
  });

  it('refuses a change without the XSRF header', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/data-sets',
      headers: { cookie: admin.cookie },
      payload: newCompany(),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().errorCode).toBe('xsrf');
  });
});

describe('another tenant', () => {
  let mine: Dataset;
  let demo: Dataset;
  let outsider: SignedIn;

  beforeAll(async () => {
    outsider = await signIn(ctx, { tenantName: 'Outsider Ltd' });
    mine = await createActive(admin, {
      name: 'Secret Holdings',
      shortName: 'Secret short',
      hostId: 'SECRET-HOST',
      customHostId: 'SECRET-CUSTOM',
    });
    demo = await createActive(admin, { name: 'Secret Demo', hostDemoSystem: true });
  });

  /** The outsider's tenant has only company 1; ours has many. */
  function expectNoLeak(response: LightMyRequestResponse) {
    expect(response.body).not.toMatch(/secret/i);
    expect(response.body).not.toContain('Companies Ltd');
  }

  it('lists only its own companies', async () => {
    for (const url of [
      '/api/v0/data-sets',
      '/api/v0/data-sets?itemsPerPage=1000',
      `/api/v0/data-sets?filter=${encodeURIComponent(`id eq ${mine.id}`)}`,
      `/api/v0/data-sets?filter=${encodeURIComponent('name ct Secret')}`,
      '/api/v0/data-sets/all',
    ]) {
      const response = await get(outsider, url);
      expect(response.statusCode).toBe(200);
      expectNoLeak(response);
      const items = response.json().items as Dataset[];
      expect(items.every((d) => d.id === 1 && d.name === 'Outsider Ltd')).toBe(true);
    }
    expect((await get(outsider, '/api/v0/data-sets')).json().totalItems).toBe(1);
  });

  it('gets 404 for our company ids, exactly as for ids that exist nowhere', async () => {
    for (const suffix of ['', '/exists']) {
      for (const id of [mine.id, demo.id, 999_999]) {
        const url = `/api/v0/data-sets/${id}${suffix}`;
        const response = await get(outsider, url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: `Company ${id} was not found.`,
          instance: url,
        });
      }
    }
    // Its own company 1 is its own, not ours.
    const own = await get(outsider, '/api/v0/data-sets/1');
    expect(own.json().name).toBe('Outsider Ltd');
    expectNoLeak(own);
  });

  it('cannot edit, delete or reset our companies, nor copy from them', async () => {
    const before = await storedCompany(admin.tenantId, mine.id);
    const beforeDemo = await storedCompany(admin.tenantId, demo.id);
    const edited = await update(outsider, editOf(mine, { name: 'Hijacked' }));
    const deleted = await remove(outsider, mine.id);
    const resetted = await reset(outsider, demo.id);
    for (const response of [edited, deleted, resetted]) {
      expect(response.statusCode).toBe(404);
      expectNoLeak(response);
      expect((await activityOf(response)).tenantId).toBe(outsider.tenantId);
    }
    const copied = await create(outsider, newCompany({ copyFromDatasetId: mine.id }));
    expect(copied.statusCode).toBe(400);
    expect(copied.json().errors).toEqual({
      copyFromDatasetId: [`Company ${mine.id} was not found.`],
    });
    expect(await storedCompany(admin.tenantId, mine.id)).toEqual(before);
    expect(await storedCompany(admin.tenantId, demo.id)).toEqual(beforeDemo);
    expect(await storedCompany(outsider.tenantId, mine.id)).toBeUndefined();
  });

  it('registers its own company with an id of its own, unaffected by our ids', async () => {
    const response = await create(outsider, newCompany());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().id).toBe(2);
    expectNoLeak(response);
    await waitForStatus(outsider, 2, 'Active');
    // Our company with the same id is untouched.
    expect((await get(admin, '/api/v0/data-sets/2')).json().name).not.toBe(response.json().name);
  });

  it('gets the same reference lists', async () => {
    for (const url of ['/api/v0/data-sets/host-systems', '/api/v0/data-sets/base-currencies']) {
      expect((await get(outsider, url)).body).toBe((await get(admin, url)).body);
    }
  });

  it('gets 404 when it names our company in the Dataset-Id header', async () => {
    const audit = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/audit-logs',
      headers: outsider.headers({ 'dataset-id': String(mine.id) }),
    });
    expect(audit.statusCode).toBe(404);
    expect(audit.json().detail).toBe(`Company ${mine.id} was not found.`);
    expectNoLeak(audit);
    const key = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/subscription-keys?noDataset=false',
      headers: outsider.headers({ 'dataset-id': String(mine.id) }),
      payload: { name: 'Into their company' },
    });
    expect(key.statusCode).toBe(404);
    expectNoLeak(key);
    // A company route ignores the header: the outsider still sees only its own companies.
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/all',
      headers: outsider.headers({ 'dataset-id': String(mine.id) }),
    });
    expectNoLeak(list);
    const one = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/data-sets/${mine.id}`,
      headers: outsider.headers({ 'dataset-id': String(mine.id) }),
    });
    expect(one.statusCode).toBe(404);
  });
});
