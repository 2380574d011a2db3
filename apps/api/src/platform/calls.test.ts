import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import {
  accessKeys,
  auditActivities,
  datasets,
  featureFlags,
  tenantSettings,
  users,
} from '../db/schema.js';
import { sha256 } from './crypto.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../test/app.js';

let ctx: TestContext;
let alice: SignedIn; // tenant A administrator
let bob: SignedIn; // tenant B administrator

beforeAll(async () => {
  ctx = await buildTestApp();
  alice = await signIn(ctx, { tenantName: 'Alpha Ltd' });
  bob = await signIn(ctx, { tenantName: 'Beta Ltd' });
  await ctx.database.db.insert(datasets).values({
    tenantId: alice.tenantId,
    id: 2,
    name: 'Alpha Trading',
    status: 'Provisioning',
    hostId: '2',
    customHostId: '2',
    hostSystemName: 'Sage200Pro',
    currency: 'EUR',
  });
});
afterAll(() => ctx.close());

const goodSettings = {
  timeZoneId: 'W. Europe Standard Time',
  use24Hour: false,
  shortDateFormat: 'dd/MM/yyyy',
  longDateFormat: 'EEEE, d MMMM yyyy',
  showAdvancedInfo: true,
};

describe('GET info/feature-flags', () => {
  it('needs no sign-in and falls back to the configured defaults', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/info/feature-flags?target=adminPortal',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().featureFlags).toMatchObject({
      PermissionPolicy: true,
      NewAccessKeyPage: true,
    });
  });

  it('reads flags an operator set in the database', async () => {
    await ctx.database.db.insert(featureFlags).values({ name: 'Capitalise', enabled: true });
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/info/feature-flags?target=adminPortal',
    });
    expect(response.json().featureFlags.Capitalise).toBe(true);
  });
});

describe('GET users/me', () => {
  it("returns the user's profile, role permissions and default settings", async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: alice.headers(),
    });
    expect(response.statusCode).toBe(200);
    const me = response.json();
    expect(me).toMatchObject({
      id: alice.userId,
      tenantId: alice.tenantId,
      tenantName: 'Alpha Ltd',
      emailAddress: alice.email,
      role: 'Administrator',
      userSetting: {
        shortDateFormat: 'yyyy/MM/dd',
        use24Hour: true,
        timeZoneId: 'GMT Standard Time',
      },
    });
    expect(me.permissions).toContain('ConfigureSystemSettings');
    // The spec's 25, PushErpData (docs/decisions/020-erp-data-writes.md, "ERP data writes") and RefundPayment
    // ("Refunds are an Administrator's").
    expect(me.permissions).toHaveLength(27);
    expect(me.permissions).toContain('PushErpData');
    expect(me.permissions).toContain('RefundPayment');
  });

  it('gives a Viewer no permissions and a Standard user the design §4 list', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Gamma Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    const asViewer = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: viewer.headers(),
    });
    expect(asViewer.json().permissions).toEqual([]);
    await ctx.database.db
      .update(users)
      .set({ role: 'Standard' })
      .where(eq(users.id, viewer.userId));
    const asStandard = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: viewer.headers(),
    });
    expect(asStandard.json().permissions).toContain('CapturePendingPayment');
    expect(asStandard.json().permissions).not.toContain('ConfigureSystemSettings');
  });
});

describe('PUT users/me/settings', () => {
  it('saves valid settings, returns them, and writes an audit activity in the same transaction', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/users/me/settings',
      headers: alice.headers(),
      payload: goodSettings,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(goodSettings);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: alice.headers(),
    });
    expect(me.json().userSetting).toEqual(goodSettings);
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.userId, alice.userId),
          eq(auditActivities.operation, 'UpdateUserSettings'),
        ),
      );
    expect(activity).toMatchObject({
      status: 200,
      resourceType: 'User',
      resourceId: alice.userId,
      ipAddress: '127.0.0.1',
    });
  });

  it.each([
    ['an unknown time zone', { timeZoneId: 'Europe/London' }, 'timeZoneId', 'Unknown time zone.'],
    [
      'an unknown short format',
      { shortDateFormat: 'yyyy' },
      'shortDateFormat',
      'Unknown short date format.',
    ],
    [
      'an unknown long format',
      { longDateFormat: 'MMMM' },
      'longDateFormat',
      'Unknown long date format.',
    ],
  ])('refuses %s with a 400 naming the field', async (_label, change, field, message) => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/users/me/settings',
      headers: alice.headers(),
      payload: { ...goodSettings, ...change },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, errors: { [field]: [message] } });
  });

  it('refuses a missing field and a wrong type, and records the failed call', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/users/me/settings',
      headers: alice.headers(),
      payload: { ...goodSettings, use24Hour: 'yes', showAdvancedInfo: undefined },
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors)).toEqual(
      expect.arrayContaining(['use24Hour', 'showAdvancedInfo']),
    );
    const failures = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(and(eq(auditActivities.userId, alice.userId), eq(auditActivities.status, 400)));
    expect(failures.length).toBeGreaterThan(0);
  });
});

describe('data-sets', () => {
  it("lists only the caller's companies", async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/all',
      headers: alice.headers(),
    });
    expect(response.statusCode).toBe(200);
    const items = response.json().items;
    expect(items.map((d: { id: number; name: string }) => [d.id, d.name])).toEqual([
      [1, 'Alpha Ltd'],
      [2, 'Alpha Trading'],
    ]);
    expect(items[0]).toMatchObject({
      status: 'Active',
      hostSystemName: 'Default',
      currency: 'GBP',
      type: 'Production',
    });
    const other = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/all',
      headers: bob.headers(),
    });
    expect(other.json().items.map((d: { name: string }) => d.name)).toEqual(['Beta Ltd']);
  });

  it('reads one company and says whether it exists', async () => {
    const one = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/2',
      headers: alice.headers(),
    });
    expect(one.json()).toMatchObject({ id: 2, name: 'Alpha Trading', status: 'Provisioning' });
    const exists = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/2/exists',
      headers: alice.headers(),
    });
    expect(exists.statusCode).toBe(204);
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/99/exists',
      headers: alice.headers(),
    });
    expect(missing.statusCode).toBe(404);
  });

  it("answers another tenant's company exactly like one that does not exist", async () => {
    const crossOne = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/2',
      headers: bob.headers(),
    });
    const missingOne = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/3',
      headers: bob.headers(),
    });
    expect(crossOne.statusCode).toBe(404);
    expect(missingOne.statusCode).toBe(404);
    expect(crossOne.json().title).toBe(missingOne.json().title);
    const crossExists = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/2/exists',
      headers: bob.headers(),
    });
    expect(crossExists.statusCode).toBe(404);
  });

  it('refuses a malformed id', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/abc',
      headers: alice.headers(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.id).toBeDefined();
  });
});

describe('GET tenant-settings/{name}', () => {
  it('reads a setting of the caller’s tenant', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/tenant-settings/AllowLatePayments',
      headers: alice.headers(),
    });
    expect(response.json()).toEqual({ name: 'AllowLatePayments', value: 'true' });
  });

  it('answers 404 (meaning false) for a setting that is not set, and never reads another tenant', async () => {
    await ctx.database.db
      .delete(tenantSettings)
      .where(
        and(
          eq(tenantSettings.tenantId, alice.tenantId),
          eq(tenantSettings.name, 'UsePayerSpaSite'),
        ),
      );
    const unset = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/tenant-settings/UsePayerSpaSite',
      headers: alice.headers(),
    });
    expect(unset.statusCode).toBe(404);
    const bobs = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/tenant-settings/UsePayerSpaSite',
      headers: bob.headers(),
    });
    expect(bobs.json()).toEqual({ name: 'UsePayerSpaSite', value: 'false' });
  });
});

describe('access keys (machine clients)', () => {
  async function insertKey(
    tenantId: string,
    options: { validUntil?: Date; deleted?: boolean; datasetId?: number } = {},
  ) {
    const token = `llk_${randomUUID().replaceAll('-', '')}`;
    await ctx.database.db.insert(accessKeys).values({
      tenantId,
      id: randomUUID(),
      kind: 'access',
      name: 'ERP connector',
      prefix: token.slice(0, 8),
      hash: sha256(token),
      validUntil: options.validUntil,
      deletedAt: options.deleted ? new Date() : undefined,
      datasetId: options.datasetId,
    });
    return { authorization: `Bearer ${token}` };
  }

  it("authenticates with a key and reads only its tenant's data", async () => {
    const headers = await insertKey(alice.tenantId);
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v0/data-sets/all', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toHaveLength(2);
    const cross = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/2',
      headers: await insertKey(bob.tenantId),
    });
    expect(cross.statusCode).toBe(404);
  });

  it('refuses an expired, a deleted and an unknown key with 401', async () => {
    for (const headers of [
      await insertKey(alice.tenantId, { validUntil: new Date(Date.now() - 1000) }),
      await insertKey(alice.tenantId, { deleted: true }),
      { authorization: 'Bearer llk_unknown' },
    ]) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/api/v0/data-sets/all',
        headers,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().detail).toBe('The access key is not valid or has expired.');
    }
  });

  it('needs no XSRF header (no cookie is involved) but has no user profile', async () => {
    const headers = await insertKey(alice.tenantId);
    const me = await ctx.app.inject({ method: 'GET', url: '/api/v0/users/me', headers });
    expect(me.statusCode).toBe(403);
  });
});

describe('Dataset-Id resolution and permissions', () => {
  it('is enforced on company-scoped routes', async () => {
    // A company-scoped probe route, registered by the test the way an area registers its routes.
    const { buildApp } = await import('../app.js');
    const app = await buildApp({ config: ctx.config, database: ctx.database, webRoot: null });
    app.get('/api/v0/probe', { config: { access: 'dataset' } }, async (request) => ({
      datasetId: request.datasetId,
    }));
    app.post(
      '/api/v0/probe',
      { config: { access: 'dataset', permission: 'EditPaymentRequest', operation: 'Probe' } },
      async (request) => request.unitOfWork(async () => ({ ok: true })),
    );
    await app.ready();
    try {
      const call = (headers: Record<string, string>, method: 'GET' | 'POST' = 'GET') =>
        app.inject({ method, url: '/api/v0/probe', headers });
      const missing = await call(alice.headers());
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors['Dataset-Id']).toEqual(['The Dataset-Id header is required.']);
      const malformed = await call(alice.headers({ 'dataset-id': '1; drop table users' }));
      expect(malformed.statusCode).toBe(400);
      expect((await call(alice.headers({ 'dataset-id': '0' }))).statusCode).toBe(400);
      const ok = await call(alice.headers({ 'dataset-id': '2' }));
      expect(ok.json()).toEqual({ datasetId: 2 });
      const notThere = await call(alice.headers({ 'dataset-id': '7' }));
      const crossTenant = await call(bob.headers({ 'dataset-id': '2' }));
      expect(notThere.statusCode).toBe(404);
      expect(crossTenant.statusCode).toBe(404);
      expect(crossTenant.json().detail).toBe(notThere.json().detail.replace('7', '2'));

      // The server enforces the role's permissions whatever the PermissionPolicy flag says.
      await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, bob.userId));
      const forbidden = await call(bob.headers({ 'dataset-id': '1' }), 'POST');
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().detail).toBe('This needs the EditPaymentRequest permission.');
      const [failure] = await ctx.database.db
        .select()
        .from(auditActivities)
        .where(and(eq(auditActivities.userId, bob.userId), eq(auditActivities.operation, 'Probe')));
      expect(failure).toMatchObject({ status: 403, datasetId: 1 });
      await ctx.database.db
        .update(users)
        .set({ role: 'Administrator' })
        .where(eq(users.id, bob.userId));
      const allowed = await call(bob.headers({ 'dataset-id': '1' }), 'POST');
      expect(allowed.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('row-level security', () => {
  it("hides another tenant's rows from the application role even without a WHERE clause", async () => {
    const seen = await ctx.database.withTenant(alice.tenantId, (tx) =>
      tx.execute(
        sql`select count(*)::int as n, count(distinct tenant_id)::int as tenants from users`,
      ),
    );
    expect((seen as { rows: unknown[] }).rows[0]).toEqual({ n: 1, tenants: 1 });
    await expect(
      ctx.database.withTenant(alice.tenantId, (tx) =>
        tx
          .insert(tenantSettings)
          .values({ tenantId: bob.tenantId, name: 'UsePayerSpaSite', value: 'true' }),
      ),
    ).rejects.toThrow();
  });
});
