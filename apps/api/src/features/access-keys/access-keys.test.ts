import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accessKeys, auditActivities, users } from '../../db/schema.js';
import { buildTestApp, signIn, type SignedIn, type TestContext } from '../../../test/app.js';

let ctx: TestContext;
let admin: SignedIn;
let other: SignedIn;
beforeAll(async () => {
  ctx = await buildTestApp({ ACCESS_KEY_MAXIMUM: '3' });
  admin = await signIn(ctx, { tenantName: 'Keys Ltd' });
  other = await signIn(ctx, { tenantName: 'Other Ltd' });
});
afterAll(() => ctx.close());

const future = () => new Date(Date.now() + 86_400_000).toISOString();

async function create(user: SignedIn, body: object, path = '/api/v0/access-keys') {
  return ctx.app.inject({ method: 'POST', url: path, headers: user.headers(), payload: body });
}

describe('access keys', () => {
  it('creates a key, shows the full value once, and stores only its hash and prefix', async () => {
    const response = await create(admin, { name: '  ERP connector  ', validUntil: future() });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      name: 'ERP connector',
      prefix: created.accessKey.slice(0, 10),
    });
    expect(created.accessKey).toMatch(/^llk_[A-Za-z0-9_-]{43}$/);
    const [row] = await ctx.database.db
      .select()
      .from(accessKeys)
      .where(eq(accessKeys.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.accessKey);
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/access-keys/${created.id}`,
      headers: admin.headers(),
    });
    expect(read.json()).not.toHaveProperty('accessKey');
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/access-keys',
      headers: admin.headers(),
    });
    expect(list.body).not.toContain(created.accessKey);
    const [activity] = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(
        and(
          eq(auditActivities.operation, 'CreateAccessKey'),
          eq(auditActivities.resourceId, created.id),
        ),
      );
    expect(activity).toMatchObject({ status: 201, userId: admin.userId });

    // A plain HTTP call with the key reads the tenant's companies.
    const machine = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/all',
      headers: { authorization: `Bearer ${created.accessKey}` },
    });
    expect(machine.statusCode).toBe(200);
    expect(machine.json().items[0].name).toBe('Keys Ltd');
  });

  it.each([
    [{ name: '' }, 'name', 'Name is required.'],
    [{ name: '   ' }, 'name', 'Name is required.'],
    [{ name: 'x'.repeat(256) }, 'name', 'Name must be at most 255 characters.'],
    [
      { name: 'Old', validUntil: new Date(Date.now() - 60_000).toISOString() },
      'validUntil',
      'Expired date must be more than current date.',
    ],
    [{ name: 'Bad date', validUntil: 'tomorrow' }, 'validUntil', undefined],
  ])('refuses %j', async (body, field, message) => {
    const response = await create(admin, body);
    expect(response.statusCode).toBe(400);
    const errors = response.json().errors[field];
    expect(errors).toBeDefined();
    if (message) expect(errors).toContain(message);
  });

  it('accepts a key without expiry (never expires) and edits name and expiry', async () => {
    const created = (await create(admin, { name: 'Forever' })).json();
    expect(created.validUntil).toBeNull();
    const until = future();
    const updated = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v0/access-keys/${created.id}`,
      headers: admin.headers(),
      payload: { name: ' Renamed ', validUntil: until },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Renamed', validUntil: until });
    const refused = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v0/access-keys/${created.id}`,
      headers: admin.headers(),
      payload: { name: 'Renamed', validUntil: new Date(Date.now() - 1000).toISOString() },
    });
    expect(refused.json().errors.validUntil).toEqual([
      'Expired date must be more than current date.',
    ]);
  });

  it('counts keys against the server maximum and refuses one more with 409', async () => {
    const maximum = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/access-keys/maximum',
      headers: admin.headers(),
    });
    expect(maximum.json()).toEqual({ maximumKeyCount: 3 });
    let count = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/v0/access-keys/count',
        headers: admin.headers(),
      })
    ).json().count;
    while (count < 3) {
      expect((await create(admin, { name: `Filler ${count}` })).statusCode).toBe(201);
      count++;
    }
    const over = await create(admin, { name: 'One too many' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ errorCode: 'maximumKeyCountReached' });
  });

  it('deletes a key, which then stops authenticating at once', async () => {
    const [key] = (
      await ctx.app.inject({ method: 'GET', url: '/api/v0/access-keys', headers: other.headers() })
    ).json().items;
    expect(key).toBeUndefined();
    const created = (await create(other, { name: 'Short lived' })).json();
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v0/access-keys/${created.id}`,
      headers: other.headers(),
    });
    expect(removed.statusCode).toBe(204);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/data-sets/all',
      headers: { authorization: `Bearer ${created.accessKey}` },
    });
    expect(after.statusCode).toBe(401);
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v0/access-keys/${created.id}`,
      headers: other.headers(),
    });
    expect(again.statusCode).toBe(404);
  });

  it("never shows, changes or deletes another tenant's key", async () => {
    const mine = (
      await ctx.app.inject({ method: 'GET', url: '/api/v0/access-keys', headers: admin.headers() })
    ).json().items[0];
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await ctx.app.inject({
        method,
        url: `/api/v0/access-keys/${mine.id}`,
        headers: other.headers(),
        payload,
      });
      expect(response.statusCode).toBe(404);
    }
    const list = (
      await ctx.app.inject({ method: 'GET', url: '/api/v0/access-keys', headers: other.headers() })
    ).json().items;
    expect(list.map((k: { id: string }) => k.id)).not.toContain(mine.id);
  });

  it('needs ManageAccessKeys, and a key cannot manage keys', async () => {
    const viewer = await signIn(ctx, { tenantName: 'Viewer Ltd' });
    await ctx.database.db.update(users).set({ role: 'Viewer' }).where(eq(users.id, viewer.userId));
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/v0/access-keys',
          headers: viewer.headers(),
        })
      ).statusCode,
    ).toBe(403);
    expect((await create(viewer, { name: 'Nope' })).statusCode).toBe(403);
    const created = (await create(other, { name: 'Machine' })).json();
    const byKey = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/access-keys',
      headers: { authorization: `Bearer ${created.accessKey}` },
    });
    expect(byKey.statusCode).toBe(403);
  });

  it('refuses a malformed id', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/access-keys/123',
      headers: admin.headers(),
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('subscription keys', () => {
  it('creates tenant-wide keys by default and company-bound keys with noDataset=false', async () => {
    const tenantWide = await create(other, { name: 'Subscription' }, '/api/v0/subscription-keys');
    expect(tenantWide.statusCode).toBe(201);
    expect(tenantWide.json().datasetId).toBeNull();
    const bound = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/subscription-keys?noDataset=false',
      headers: other.headers({ 'dataset-id': '1' }),
      payload: { name: 'Company one' },
    });
    expect(bound.json().datasetId).toBe(1);
    const missingCompany = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/subscription-keys?noDataset=false',
      headers: other.headers({ 'dataset-id': '9' }),
      payload: { name: 'Nowhere' },
    });
    expect(missingCompany.statusCode).toBe(404);
    // A company-bound key only opens its own company.
    const key = bound.json().accessKey;
    const keys = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/v0/subscription-keys',
        headers: other.headers(),
      })
    ).json().items;
    expect(keys).toHaveLength(2);
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/v0/access-keys',
          headers: other.headers(),
        })
      )
        .json()
        .items.map((k: { name: string }) => k.name),
    ).not.toContain('Subscription');
    expect(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/api/v0/data-sets/all',
          headers: { authorization: `Bearer ${key}` },
        })
      ).statusCode,
    ).toBe(200);
  });
});

// The keys grid's search box, on the server.
describe('GET access-keys?search=', () => {
  it('finds keys by part of their name or prefix, in any case, and only the tenant’s own', async () => {
    const mine = await signIn(ctx, { tenantName: 'Searchable Keys Ltd' });
    const theirs = await signIn(ctx, { tenantName: 'Other Searchable Keys Ltd' });
    const made: Record<string, { prefix: string }> = {};
    for (const [who, name] of [
      [mine, 'Quokka ERP connector'],
      [mine, 'Wombat reports'],
      [theirs, 'Quokka elsewhere'],
    ] as const) {
      const response = await create(who, { name, validUntil: future() });
      expect(response.statusCode).toBe(201);
      made[name] = response.json();
    }
    const search = async (who: SignedIn, words: string, path = '/api/v0/access-keys') => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `${path}?search=${encodeURIComponent(words)}`,
        headers: who.headers(),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().items.map((key: { name: string }) => key.name) as string[];
    };
    expect(await search(mine, 'QUOKKA')).toEqual(['Quokka ERP connector']);
    expect(await search(mine, made['Wombat reports']!.prefix.slice(4))).toContain('Wombat reports');
    expect(await search(mine, 'nothing-like-it')).toEqual([]);
    expect(await search(theirs, 'quokka')).toEqual(['Quokka elsewhere']);
    // Subscription keys are another list: the access key is not among them.
    expect(await search(mine, 'quokka', '/api/v0/subscription-keys')).toEqual([]);
    const long = await ctx.app.inject({
      method: 'GET',
      url: `/api/v0/access-keys?search=${'x'.repeat(101)}`,
      headers: mine.headers(),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.search).toBeDefined();
  });
});
