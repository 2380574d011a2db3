import { problemSchema, userMeSchema } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures';
import { stubFetch } from '@/test/fetch-stub';
import { ApiError, asProblem, companyClient, publicClient, readCookie, tenantClient } from './http';
import { storeSession } from './session';
import { setCompanyId } from './storage';

describe('HTTP client', () => {
  // public/boot.js (apps/web/boot.js) starts the first screen's calls early.
  it("takes boot.js's early answer once, for its plain GETs only, and asks again when it failed", async () => {
    storeSession(60, null);
    setCompanyId(3);
    const early = {
      '/api/v0/users/me': Promise.resolve(Response.json(aUser(), { status: 200 })),
      '/api/v0/info/feature-flags?target=adminPortal': Promise.reject(new TypeError('offline')),
      '/api/v0/things': Promise.resolve(Response.json(['early'])),
    };
    early['/api/v0/info/feature-flags?target=adminPortal'].catch(() => undefined);
    (window as { __ledgerlineEarly?: unknown }).__ledgerlineEarly = early;
    const calls = stubFetch({
      'GET /users/me': { body: aUser({ emailAddress: 'asked@example.com' }) },
      'GET /info/feature-flags': { body: { featureFlags: { a: true } } },
      'GET /things': { body: ['asked'] },
    });
    try {
      expect(await tenantClient.get('/users/me')).toEqual(aUser());
      // Taken once: the next call asks.
      expect(await tenantClient.get('/users/me')).toMatchObject({
        emailAddress: 'asked@example.com',
      });
      expect(
        await publicClient.get('/info/feature-flags', { query: { target: 'adminPortal' } }),
      ).toEqual({ featureFlags: { a: true } });
      // A company call carries its company: never an early answer.
      expect(await companyClient.get('/things')).toEqual(['asked']);
      expect(calls.map((call) => call.url)).toEqual([
        '/api/v0/users/me',
        '/api/v0/info/feature-flags?target=adminPortal',
        '/api/v0/things',
      ]);
    } finally {
      delete (window as { __ledgerlineEarly?: unknown }).__ledgerlineEarly;
    }
  });

  it('sends credentials, the XSRF header on unsafe methods and the company on company calls', async () => {
    storeSession(60, null);
    setCompanyId(4);
    document.cookie = 'XSRF-TOKEN=tok%3D1; path=/';
    const calls = stubFetch({ 'POST /things': { status: 204 }, 'GET /things': { body: [] } });

    await companyClient.post('/things', { name: 'A' });
    await tenantClient.get('/things');

    expect(calls[0]?.headers.get('X-XSRF-TOKEN')).toBe('tok=1');
    expect(calls[0]?.headers.get('Dataset-Id')).toBe('4');
    expect(calls[0]?.body).toEqual({ name: 'A' });
    expect(calls[1]?.headers.get('X-XSRF-TOKEN')).toBeNull();
    expect(calls[1]?.headers.get('Dataset-Id')).toBeNull();
    expect(fetch).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ credentials: 'include' }),
    );
  });

  it('turns problem documents into ApiError with status, detail and field errors', async () => {
    storeSession(60, null);
    stubFetch({
      'PUT /users/me/settings': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'Invalid',
          errors: { timeZoneId: ['Unknown time zone.'] },
        },
      },
    });
    const error = await tenantClient.put('/users/me/settings', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid',
      fieldErrors: { timeZoneId: ['Unknown time zone.'] },
    });
  });

  it('aborts signed-in calls when the session has expired, but not public ones', async () => {
    const calls = stubFetch({ 'GET /info/feature-flags': { body: { featureFlags: {} } } });
    await expect(tenantClient.get('/users/me')).rejects.toMatchObject({ status: 401 });
    await expect(
      publicClient.get('/info/feature-flags', { query: { target: 'adminPortal' } }),
    ).resolves.toEqual({ featureFlags: {} });
    expect(calls.map((call) => call.url)).toEqual([
      '/api/v0/info/feature-flags?target=adminPortal',
    ]);
  });

  it('validates answers with a contract schema', async () => {
    storeSession(60, null);
    stubFetch({ 'GET /users/me': { body: aUser() } });
    await expect(tenantClient.get('/users/me', { schema: userMeSchema })).resolves.toMatchObject({
      displayName: 'Ada Lovelace',
    });
  });

  it('reads problem documents as the contract defines them, and nothing else', () => {
    const problem = { type: 'about:blank', title: 'Bad Request', status: 400 };
    expect(asProblem(problem)).toEqual(problem);
    expect(
      asProblem({ ...problem, detail: 'd', instance: '/x', errorCode: '7', errors: { a: ['b'] } }),
    ).toEqual({ ...problem, detail: 'd', instance: '/x', errorCode: '7', errors: { a: ['b'] } });
    for (const wrong of [
      null,
      'Bad Gateway',
      [],
      { title: 'Bad Request', status: 400 },
      { ...problem, status: 400.5 },
      { ...problem, status: '400' },
      { ...problem, detail: 3 },
      { ...problem, errors: { a: 'b' } },
      { ...problem, errors: [['b']] },
    ]) {
      expect(asProblem(wrong)).toBeNull();
      expect(problemSchema.safeParse(wrong).success).toBe(false);
    }
  });

  it('reads cookies by name', () => {
    expect(readCookie('b', 'a=1; b=two%20words; c=3')).toBe('two words');
    expect(readCookie('z', 'a=1')).toBeNull();
  });
});
