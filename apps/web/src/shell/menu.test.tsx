import type { Permission } from '@ledgerline/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import type { AreaRoute } from './area-route';
import { menuEntries, visibleMenu, type MenuEntry } from './menu';
import { SideMenu } from './side-menu';

const screenAt = (path: string, permission?: AreaRoute['permission']): AreaRoute => ({
  path,
  title: [path],
  page: () => Promise.resolve(() => null),
  permission,
});

const allRegistered: AreaRoute[] = [
  screenAt('/'),
  screenAt('/payment-requests'),
  screenAt('/activities', 'ViewAuditLogs'),
  screenAt('/settings/details'),
  screenAt('/settings/users', 'ConfigureSystemSettings'),
  screenAt('/settings/payment-providers', 'ConfigurePaymentProvider'),
  screenAt('/settings/access-keys'),
  screenAt('/settings/companies'),
  screenAt('/funding'),
  screenAt('/settings/web-hooks', 'ConfigureSystemSettings'),
];

function labels(entries: MenuEntry[]): string[] {
  return entries.flatMap((entry) =>
    'children' in entry
      ? [entry.label, ...entry.children.map((child) => `${entry.label}/${child.label}`)]
      : [entry.label],
  );
}

function visible(
  permissions: Permission[],
  flags: Record<string, boolean>,
  routes = allRegistered,
) {
  return labels(
    visibleMenu(menuEntries, {
      routes: new Map(routes.map((route) => [route.path, route])),
      permissions,
      flags,
    }),
  );
}

describe('side menu entries', () => {
  it('shows only entries whose screen is registered', () => {
    expect(visible([], {}, [screenAt('/'), screenAt('/my-settings')])).toEqual(['Home']);
  });

  it('shows every registered entry when PermissionPolicy is off', () => {
    expect(visible([], { PermissionPolicy: false })).toEqual([
      'Home',
      'Payment Requests',
      'Activities',
      'Settings',
      'Settings/Company Details',
      'Settings/Payment Providers',
      'Settings/Access Keys',
      'Settings/Users',
      'Companies',
      'Web Hooks',
    ]);
  });

  it('hides entries without their permission when PermissionPolicy is on', () => {
    expect(visible([], { PermissionPolicy: true })).toEqual([
      'Home',
      'Payment Requests',
      'Settings',
      'Settings/Company Details',
      'Companies',
    ]);
  });

  it('shows entries whose permissions the user has', () => {
    const shown = visible(['ViewAuditLogs', 'ConfigureSystemSettings', 'ManageSubscriptionKeys'], {
      PermissionPolicy: true,
    });
    expect(shown).toContain('Activities');
    expect(shown).toContain('Settings/Users');
    expect(shown).toContain('Settings/Access Keys');
    expect(shown).toContain('Web Hooks');
    expect(shown).not.toContain('Settings/Payment Providers');
  });

  it('needs ManageAccessKeys for access keys when the NewAccessKeyPage flag is on', () => {
    const flags = { PermissionPolicy: true, NewAccessKeyPage: true };
    expect(visible(['ManageSubscriptionKeys'], flags)).not.toContain('Settings/Access Keys');
    expect(visible(['ManageAccessKeys'], flags)).toContain('Settings/Access Keys');
  });

  it('shows payment providers with either provider permission', () => {
    // The route itself asks for ConfigurePaymentProvider.
    expect(visible(['ConfigurePaymentProvider'], { PermissionPolicy: true })).toContain(
      'Settings/Payment Providers',
    );
  });

  it('shows Funding Search only with the Capitalise flag', () => {
    expect(visible([], { Capitalise: true })).toContain('Funding Search');
    expect(visible([], { Capitalise: false })).not.toContain('Funding Search');
  });
});

describe('SideMenu', () => {
  it('renders links by their text and hides those without permission', async () => {
    renderWithProviders(<SideMenu />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
      flags: { PermissionPolicy: true },
      areaRoutes: allRegistered,
      path: '/settings/users',
    });
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).queryByRole('link', { name: 'Activities' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await userEvent.click(within(nav).getByRole('link', { name: 'Payment Requests' }));
    expect(within(nav).getByRole('link', { name: 'Payment Requests' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('folds the Settings group open and shut with a button the keyboard reaches', async () => {
    renderWithProviders(<SideMenu />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
      flags: { PermissionPolicy: true },
      areaRoutes: allRegistered,
      path: '/',
    });
    const settings = screen.getByRole('button', { name: 'Settings' });
    expect(settings).toHaveAttribute('aria-expanded', 'false');
    settings.focus();
    await userEvent.keyboard('{Enter}');
    expect(settings).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{Enter}');
    expect(settings).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows everything registered with PermissionPolicy off', () => {
    renderWithProviders(<SideMenu />, {
      user: aUser({ permissions: [] }),
      flags: { PermissionPolicy: false },
      areaRoutes: allRegistered,
    });
    expect(screen.getByRole('link', { name: 'Activities' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Web Hooks' })).toBeInTheDocument();
  });
});
