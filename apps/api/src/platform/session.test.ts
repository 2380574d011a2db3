import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditActivities, sessions, users } from '../db/schema.js';
import { createTenant } from '../features/tenants/tenants.service.js';
import { buildTestApp, cookiesOf, signIn, type TestContext } from '../../test/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '50' });
});
afterAll(() => ctx.close());

describe('POST /login', () => {
  it('starts a session with HttpOnly, SameSite=Lax session cookie and a readable XSRF cookie', async () => {
    const { tenantId, userId } = await createTenant(ctx.database, {
      name: 'Cookie Ltd',
      adminEmail: 'cookie@example.com',
      adminName: 'Cookie Admin',
    });
    const token = await ctx.oidc.token({ sub: 'cookie-sub', email: 'Cookie@Example.com' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: token },
    });
    expect(response.statusCode).toBe(204);
    const session = response.cookies.find((c) => c.name === 'ledgerline_session')!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe('Lax');
    expect(session.path).toBe('/');
    const xsrf = response.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    expect(xsrf.httpOnly).toBeFalsy();
    // The subject is bound at first sign-in; only a hash of the cookie is stored.
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, userId));
    expect(user!.idpSubject).toBe('cookie-sub');
    const stored = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.idHash).not.toBe(session.value);
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(eq(auditActivities.tenantId, tenantId));
    expect(activities.map((a) => [a.operation, a.status, a.userId])).toContainEqual([
      'Login',
      204,
      userId,
    ]);
  });

  it('gives a new session id at every sign-in', async () => {
    await createTenant(ctx.database, {
      name: 'Twice Ltd',
      adminEmail: 'twice@example.com',
      adminName: 'Twice',
    });
    const login = async () => {
      const token = await ctx.oidc.token({ sub: 'twice-sub', email: 'twice@example.com' });
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/v0/login',
        payload: { accessToken: token },
      });
      return cookiesOf(r).ledgerline_session;
    };
    expect(await login()).not.toBe(await login());
  });

  it.each([
    ['a token signed by another key', { foreignKey: true }],
    ['a token of another issuer', { issuer: 'https://evil.example.com' }],
    ['a token for another audience', { audience: 'someone-else' }],
    ['an expired token', { expiresIn: Math.floor(Date.now() / 1000) - 120 }],
  ])('refuses %s with 401 Authentication not correct.', async (_label, options) => {
    const token = await ctx.oidc.token({ sub: 'x', email: 'cookie@example.com' }, options);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: token },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 401, detail: 'Authentication not correct.' });
    expect(response.cookies).toHaveLength(0);
  });

  it('refuses garbage and an empty token', async () => {
    const garbage = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: 'not.a.jwt' },
    });
    expect(garbage.statusCode).toBe(401);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: '' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.accessToken).toBeDefined();
  });

  it('refuses a valid token of somebody who is not a Ledgerline user', async () => {
    const token = await ctx.oidc.token({ sub: 'stranger', email: 'stranger@example.com' });
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v0/login',
      payload: { accessToken: token },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toMatch(/no access to Ledgerline/);
  });

  it('stops accepting the session of a user who was disabled', async () => {
    const user = await signIn(ctx);
    await ctx.database.db
      .update(users)
      .set({ disabledAt: new Date() })
      .where(eq(users.id, user.userId));
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: user.headers(),
    });
    expect(me.statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('answers 401 without a session and with an unknown cookie', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/api/v0/users/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: { cookie: 'ledgerline_session=forged' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('expires a session that has been idle too long', async () => {
    const user = await signIn(ctx);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(sessions.userId, user.userId));
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: user.headers(),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('Your session has expired. Please sign in again.');
  });

  it('expires a session past its absolute lifetime', async () => {
    const user = await signIn(ctx);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.userId));
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: user.headers(),
    });
    expect(response.statusCode).toBe(401);
  });

  it('ends the session server-side at logout', async () => {
    const user = await signIn(ctx);
    const logout = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/logout',
      headers: user.headers(),
    });
    expect(logout.statusCode).toBe(204);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: user.headers(),
    });
    expect(after.statusCode).toBe(401);
    const rows = await ctx.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.userId));
    expect(rows).toHaveLength(0);
    const activities = await ctx.database.db
      .select()
      .from(auditActivities)
      .where(eq(auditActivities.userId, user.userId));
    expect(activities.map((a) => a.operation)).toEqual(expect.arrayContaining(['Login', 'Logout']));
  });
});

describe('XSRF on GET logout', () => {
  it('refuses a logout without the header, as a cross-site link would send it, and keeps the session', async () => {
    const user = await signIn(ctx);
    for (const xsrf of [undefined, 'not-the-token']) {
      const refused = await ctx.app.inject({
        method: 'GET',
        url: '/api/v0/logout',
        headers: { cookie: user.cookie, ...(xsrf ? { 'x-xsrf-token': xsrf } : {}) },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        detail: 'The XSRF token is missing or does not match.',
        errorCode: 'xsrf',
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    const still = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/users/me',
      headers: user.headers(),
    });
    expect(still.statusCode).toBe(200);
    const logout = await ctx.app.inject({
      method: 'GET',
      url: '/api/v0/logout',
      headers: user.headers(),
    });
    expect(logout.statusCode).toBe(204);
  });
});

describe('XSRF', () => {
  const settings = {
    timeZoneId: 'GMT Standard Time',
    use24Hour: true,
    shortDateFormat: 'yyyy/MM/dd',
    longDateFormat: 'd MMMM yyyy',
    showAdvancedInfo: false,
  };

  it('refuses an unsafe call with a session cookie but no X-XSRF-TOKEN header', async () => {
    const user = await signIn(ctx);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/users/me/settings',
      headers: { cookie: user.cookie },
      payload: settings,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ errorCode: 'xsrf' });
  });

  it('refuses a header that does not match the session', async () => {
    const user = await signIn(ctx);
    const other = await signIn(ctx);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/users/me/settings',
      headers: { cookie: user.cookie, 'x-xsrf-token': other.xsrf },
      payload: settings,
    });
    expect(response.statusCode).toBe(403);
  });

  it('accepts the matching header', async () => {
    const user = await signIn(ctx);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v0/users/me/settings',
      headers: user.headers(),
      payload: settings,
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('rate limiting', () => {
  it('answers 429 as a problem document after too many sign-in attempts', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/api/v0/login',
          payload: { accessToken: 'x' },
        });
        statuses.push(r.statusCode);
        if (r.statusCode === 429) {
          expect(r.headers['content-type']).toContain('application/problem+json');
          expect(r.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
        }
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
