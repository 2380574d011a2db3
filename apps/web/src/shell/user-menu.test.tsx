import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { UserMenu } from './user-menu';

const { assignLocation } = vi.hoisted(() => ({ assignLocation: vi.fn() }));
vi.mock('@/lib/browser-location', () => ({
  assignLocation,
  reloadPage: vi.fn(),
  replaceLocation: vi.fn(),
}));

describe('UserMenu', () => {
  it('shows initials, name and e-mail, and the menu items', async () => {
    renderWithProviders(<UserMenu />, { user: aUser({ displayName: 'Ada King Lovelace' }) });
    const button = screen.getByRole('button', { name: 'User menu' });
    expect(button).toHaveTextContent('AL');
    await userEvent.click(button);
    // The menu loads with the first click (shell/deferred-menu.tsx).
    expect(await screen.findByText('Ada King Lovelace')).toBeInTheDocument();
    expect(screen.getByText('ada@acme.test')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'My settings' })).toHaveAttribute(
      'href',
      '/my-settings',
    );
    // axe aria-required-children: the menu holds its items and plain text,
    // nothing focusable and no element of another role (Mantine's focus placeholder, <p>).
    const menu = screen.getByRole('menu');
    expect(menu.querySelectorAll(':scope > [tabindex]:not([role="menuitem"]), p')).toHaveLength(0);
    // Sign out in the readable red (theme.ts), not the menu's red 6.
    expect(screen.getByRole('menuitem', { name: 'Sign out' }).getAttribute('style')).toContain(
      'var(--mantine-color-red-text)',
    );
  });

  it("opens the operator's terms of service and privacy policy at the configured addresses", async () => {
    stubFetch({
      'GET /info/site': {
        body: {
          termsOfServiceUrl: 'https://operator.example/terms',
          privacyPolicyUrl: 'https://operator.example/privacy',
          clientReports: false,
        },
      },
    });
    renderWithProviders(<UserMenu />, { user: aUser() });
    await userEvent.click(screen.getByRole('button', { name: 'User menu' }));
    const terms = await screen.findByRole('menuitem', { name: 'Terms of service' });
    expect(terms).toHaveAttribute('href', 'https://operator.example/terms');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(terms).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByRole('menuitem', { name: 'Privacy policy' })).toHaveAttribute(
      'href',
      'https://operator.example/privacy',
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('leaves out the terms and privacy items when the operator configured none', async () => {
    const calls = stubFetch({
      'GET /info/site': {
        body: { termsOfServiceUrl: null, privacyPolicyUrl: null, clientReports: false },
      },
    });
    renderWithProviders(<UserMenu />, { user: aUser() });
    await userEvent.click(screen.getByRole('button', { name: 'User menu' }));
    expect(await screen.findByRole('menuitem', { name: 'My settings' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v0/info/site')).toBe(true));
    expect(screen.queryByRole('menuitem', { name: 'Terms of service' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Privacy policy' })).toBeNull();
  });

  it('signs out: logout call, storage cleared, provider end-session address', async () => {
    const calls = stubFetch({
      'GET /info/sign-in': {
        body: {
          issuer: 'http://localhost/idp',
          clientId: 'web',
          scope: 'openid',
          resource: null,
          redirectPath: '/signin-callback',
          postLogoutRedirectPath: '/',
        },
      },
      'GET /logout': { status: 204 },
    });
    const fetchStub = vi.mocked(fetch);
    const apiFetch = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input, init) =>
      String(input).endsWith('/.well-known/openid-configuration')
        ? Response.json({
            authorization_endpoint: 'a',
            token_endpoint: 't',
            end_session_endpoint: 'http://localhost/idp/session/end',
          })
        : apiFetch!(input, init),
    );

    renderWithProviders(<UserMenu />, { user: aUser() });
    await userEvent.click(screen.getByRole('button', { name: 'User menu' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Sign out' }));

    await waitFor(() => expect(assignLocation).toHaveBeenCalledOnce());
    expect(calls.some((call) => call.url === '/api/v0/logout')).toBe(true);
    expect(window.localStorage.getItem(storageKeys.sessionExpiresAt)).toBeNull();
    expect(String(assignLocation.mock.calls[0]?.[0])).toMatch(
      /^http:\/\/localhost\/idp\/session\/end\?client_id=web/,
    );
  });
});
