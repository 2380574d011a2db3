import type { SignInConfig } from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isSessionActive } from '@/lib/session';
import { session, storageKeys } from '@/lib/storage';
import { renderWithProviders } from '@/test/render';
import { AuthGate } from './auth-gate';

const { assignLocation } = vi.hoisted(() => ({ assignLocation: vi.fn() }));
vi.mock('@/lib/browser-location', () => ({
  assignLocation,
  reloadPage: vi.fn(),
  replaceLocation: vi.fn(),
}));

const config: SignInConfig = {
  issuer: 'http://localhost:3000/idp',
  clientId: 'ledgerline-web',
  scope: 'openid',
  resource: null,
  redirectPath: '/signin-callback',
  postLogoutRedirectPath: '/',
};

beforeEach(() => {
  assignLocation.mockReset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/v0/info/sign-in') return Response.json(config);
      if (url.endsWith('/.well-known/openid-configuration')) {
        return Response.json({
          authorization_endpoint: 'http://localhost:3000/idp/auth',
          token_endpoint: 'http://localhost:3000/idp/token',
        });
      }
      if (url.endsWith('/idp/token')) return Response.json({ access_token: 'at', expires_in: 300 });
      if (url === '/api/v0/login') return new Response(null, { status: 204 });
      return new Response(null, { status: 404 });
    }),
  );
});
afterEach(() => window.history.replaceState(null, '', '/'));

/** The gate in a browser without a session, at `address` (window and router agree). */
function renderSignedOut(address: string) {
  window.history.replaceState(null, '', address);
  return renderWithProviders(<AuthGate />, {
    path: address,
    signedIn: false,
    routes: [
      {
        path: '/',
        element: <AuthGate />,
        children: [{ path: 'my-settings', element: <p>my settings page</p> }],
      },
    ],
  });
}

describe('AuthGate', () => {
  it('redirects to the provider when there is no session, remembering the address', async () => {
    renderSignedOut('/payment-requests?page=2');
    expect(screen.getByText('Loading Ledgerline')).toBeInTheDocument();
    await waitFor(() => expect(assignLocation).toHaveBeenCalledOnce());
    expect(String(assignLocation.mock.calls[0]?.[0])).toMatch(
      /^http:\/\/localhost:3000\/idp\/auth\?/,
    );
    expect(session.get(storageKeys.returnTo)).toBe('/payment-requests?page=2');
  });

  it('completes the callback and restores the stored address without code and state', async () => {
    session.set(storageKeys.state, '0011223344556677');
    session.set(storageKeys.codeVerifier, 'verifier');
    session.set(storageKeys.returnTo, '/my-settings');
    const { router } = renderSignedOut('/signin-callback?code=abc&state=0011223344556677');

    expect(await screen.findByText('my settings page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/my-settings');
    expect(router.state.location.search).toBe('');
    expect(isSessionActive()).toBe(true);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it("shows 'State not matched' with 'Sign in again' and clears the sign-in data", async () => {
    session.set(storageKeys.state, '0011223344556677');
    session.set(storageKeys.codeVerifier, 'verifier');
    const { router } = renderSignedOut('/signin-callback?code=other-code&state=ffffffffffffffff');

    expect(await screen.findByText('State not matched')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    expect(session.get(storageKeys.codeVerifier)).toBeNull();
    expect(isSessionActive()).toBe(false);
  });

  it('lets a signed-in user through', () => {
    renderWithProviders(<AuthGate />, {
      path: '/my-settings',
      routes: [
        {
          path: '/',
          element: <AuthGate />,
          children: [{ path: 'my-settings', element: <p>my settings page</p> }],
        },
      ],
    });
    expect(screen.getByText('my settings page')).toBeInTheDocument();
  });
});
