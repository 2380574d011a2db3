import type { SignInConfig } from '@ledgerline/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSessionExpiry, isSessionActive } from '@/lib/session';
import { session, storageKeys } from '@/lib/storage';
import { completeSignIn, missingVerifierMessage, signOut, startSignIn } from './sign-in';

const { assignLocation } = vi.hoisted(() => ({ assignLocation: vi.fn() }));
vi.mock('@/lib/browser-location', () => ({
  assignLocation,
  reloadPage: vi.fn(),
  replaceLocation: vi.fn(),
}));

const config: SignInConfig = {
  issuer: 'http://localhost:3000/idp',
  clientId: 'ledgerline-web',
  scope: 'openid profile email',
  resource: 'http://localhost:3000/api',
  redirectPath: '/signin-callback',
  postLogoutRedirectPath: '/',
};

const discovery = {
  authorization_endpoint: 'http://localhost:3000/idp/auth',
  token_endpoint: 'http://localhost:3000/idp/token',
  end_session_endpoint: 'http://localhost:3000/idp/session/end',
};

function stubProvider(tokenStatus = 200) {
  const requests: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      requests.push({ url, init });
      if (url.endsWith('/.well-known/openid-configuration')) return Response.json(discovery);
      if (url === discovery.token_endpoint) {
        return tokenStatus === 200
          ? Response.json({ access_token: 'at', expires_in: 300, id_token: 'idt' })
          : Response.json(
              { error: 'invalid_grant', error_description: 'grant request is invalid' },
              { status: 400 },
            );
      }
      if (url === '/api/v0/login' || url === '/api/v0/logout')
        return new Response(null, { status: 204 });
      return new Response(null, { status: 404 });
    }),
  );
  return requests;
}

beforeEach(() => assignLocation.mockReset());
afterEach(() => window.history.replaceState(null, '', '/'));

describe('startSignIn', () => {
  it('sends the browser to the provider with PKCE and remembers where it was', async () => {
    stubProvider();
    window.history.replaceState(null, '', '/payment-requests?page=2');
    await startSignIn(config);

    const url = new URL(assignLocation.mock.calls[0]?.[0] as string);
    expect(url.origin + url.pathname).toBe(discovery.authorization_endpoint);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'ledgerline-web',
      redirect_uri: `${window.location.origin}/signin-callback`,
      code_challenge_method: 'S256',
      resource: config.resource,
      state: session.get(storageKeys.state),
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.get(storageKeys.codeVerifier)).toHaveLength(86);
    expect(session.get(storageKeys.returnTo)).toBe('/payment-requests?page=2');
  });
});

describe('completeSignIn', () => {
  beforeEach(() => {
    session.set(storageKeys.state, '0123456789abcdef');
    session.set(storageKeys.codeVerifier, 'verifier');
    session.set(storageKeys.returnTo, '/my-settings');
  });

  it('exchanges the code, logs in, stores the expiry and answers the stored address', async () => {
    const requests = stubProvider();
    const before = Date.now();
    await expect(
      completeSignIn(config, { kind: 'code', code: 'the-code', state: '0123456789abcdef' }),
    ).resolves.toBe('/my-settings');

    const token = requests.find((request) => request.url === discovery.token_endpoint);
    expect(Object.fromEntries(token?.init.body as URLSearchParams)).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: `${window.location.origin}/signin-callback`,
      client_id: 'ledgerline-web',
      code_verifier: 'verifier',
      resource: config.resource,
    });
    const login = requests.find((request) => request.url === '/api/v0/login');
    expect(JSON.parse(login?.init.body as string)).toEqual({ accessToken: 'at' });
    expect(getSessionExpiry()).toBeGreaterThanOrEqual(before + 300_000);
    expect(isSessionActive()).toBe(true);
    expect(session.get(storageKeys.state)).toBeNull();
  });

  it("fails with 'State not matched' when the state differs", async () => {
    stubProvider();
    await expect(
      completeSignIn(config, { kind: 'code', code: 'c', state: 'ffffffffffffffff' }),
    ).rejects.toThrow('State not matched');
  });

  it('fails when the verifier is missing from storage', async () => {
    stubProvider();
    session.set(storageKeys.codeVerifier, null);
    await expect(
      completeSignIn(config, { kind: 'code', code: 'c', state: '0123456789abcdef' }),
    ).rejects.toThrow(missingVerifierMessage);
  });

  it('fails when the provider refuses the code', async () => {
    stubProvider(400);
    await expect(
      completeSignIn(config, { kind: 'code', code: 'c', state: '0123456789abcdef' }),
    ).rejects.toMatchObject({
      message: 'Authentication not correct.',
      detail: 'grant request is invalid',
    });
    expect(isSessionActive()).toBe(false);
  });
});

describe('signOut', () => {
  it('ends the server session, clears storage and goes to the end-session address', async () => {
    const requests = stubProvider();
    window.localStorage.setItem(storageKeys.sessionExpiresAt, String(Date.now() + 60_000));
    window.localStorage.setItem(storageKeys.idToken, 'idt');
    document.cookie = 'XSRF-TOKEN=sign-out-token; path=/';
    await signOut(config);

    const logout = requests.find((request) => request.url === '/api/v0/logout');
    expect(logout).toBeDefined();
    // The server refuses a logout without the XSRF header.
    expect(new Headers(logout!.init.headers).get('X-XSRF-TOKEN')).toBe('sign-out-token');
    expect(isSessionActive()).toBe(false);
    const url = new URL(assignLocation.mock.calls[0]?.[0] as string);
    expect(url.origin + url.pathname).toBe(discovery.end_session_endpoint);
    expect(url.searchParams.get('client_id')).toBe('ledgerline-web');
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${window.location.origin}/`);
    expect(url.searchParams.get('id_token_hint')).toBe('idt');
  });
});
