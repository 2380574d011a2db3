import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import type { AreaRoute } from './area-route';
import { RouteGuard } from './route-guard';

const activities: AreaRoute = {
  path: '/activities',
  title: ['Activities'],
  permission: 'ViewAuditLogs',
  page: () => Promise.resolve(() => <p>Audit log</p>),
};

function renderGuarded(route: AreaRoute, options: Parameters<typeof renderWithProviders>[1] = {}) {
  return renderWithProviders(
    <RouteGuard route={route}>
      <p>Audit log</p>
    </RouteGuard>,
    {
      path: route.path,
      routes: [{ path: '/error/:code', element: <p>error page</p> }],
      ...options,
    },
  );
}

describe('RouteGuard', () => {
  it('shows the loading screen until the profile is there, then the page with its title', async () => {
    stubFetch({
      'GET /users/me': { body: aUser() },
      'GET /data-sets/1/exists': { status: 204 },
    });
    renderGuarded(activities);
    expect(screen.getByText('Loading Ledgerline')).toBeInTheDocument();
    expect(await screen.findByText('Audit log')).toBeInTheDocument();
    expect(document.title).toBe('Ledgerline | Activities');
  });

  it('sends a user without the permission to /error/403 when PermissionPolicy is on', async () => {
    stubFetch({ 'GET /data-sets/1/exists': { status: 204 } });
    const { router } = renderGuarded(activities, {
      user: aUser({ permissions: [] }),
      flags: { PermissionPolicy: true },
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/error/403'));
  });

  it('lets the user in when PermissionPolicy is off', async () => {
    stubFetch({ 'GET /data-sets/1/exists': { status: 204 } });
    renderGuarded(activities, {
      user: aUser({ permissions: [] }),
      flags: { PermissionPolicy: false },
    });
    expect(await screen.findByText('Audit log')).toBeInTheDocument();
  });

  it('resets the stored company to 1 when it no longer exists', async () => {
    window.localStorage.setItem(storageKeys.companyId, '7');
    const calls = stubFetch({
      'GET /data-sets/7/exists': {
        status: 404,
        body: { type: 'about:blank', title: 'Not Found', status: 404 },
      },
      'GET /data-sets/1/exists': { status: 204 },
    });
    renderGuarded(activities, { user: aUser() });
    expect(await screen.findByText('Audit log')).toBeInTheDocument();
    expect(window.localStorage.getItem(storageKeys.companyId)).toBe('1');
    expect(calls.map((call) => call.url)).toEqual([
      '/api/v0/data-sets/7/exists',
      '/api/v0/data-sets/1/exists',
    ]);
  });

  it('treats a screen behind an off feature flag as not found', async () => {
    const { router } = renderGuarded(
      {
        path: '/funding',
        title: ['Funding'],
        featureFlag: 'Capitalise',
        page: () => Promise.resolve(() => <p>Funding</p>),
      },
      { user: aUser(), flags: { Capitalise: false } },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/error/404'));
  });
});
