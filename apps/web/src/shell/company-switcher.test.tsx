import type { Permission } from '@ledgerline/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import type { AreaRoute } from './area-route';
import { CompanySwitcher } from './company-switcher';

const { assignLocation, reloadPage } = vi.hoisted(() => ({
  assignLocation: vi.fn(),
  reloadPage: vi.fn(),
}));
vi.mock('@/lib/browser-location', () => ({ assignLocation, reloadPage, replaceLocation: vi.fn() }));

const companiesRoute: AreaRoute = {
  path: '/settings/companies',
  title: ['Companies'],
  page: () => Promise.resolve(() => null),
};

const datasets = [
  aDataset({ id: 1, name: 'Acme Ltd' }),
  aDataset({ id: 2, name: 'Acme Europe', status: 'Active' }),
  aDataset({ id: 3, name: 'Acme Provisioning', status: 'Provisioning' }),
  aDataset({ id: 4, name: 'Acme Broken', status: 'Error' }),
  aDataset({ id: 5, name: 'Acme Resetting', status: 'Resetting' }),
];

function renderSwitcher(options: { path?: string; permissions?: Permission[] } = {}) {
  stubFetch({ 'GET /data-sets/all': { body: { items: datasets } } });
  return renderWithProviders(<CompanySwitcher />, {
    path: options.path ?? '/',
    user: aUser({ permissions: options.permissions ?? [] }),
    flags: { PermissionPolicy: true },
    areaRoutes: [companiesRoute],
  });
}

async function openDropdown() {
  const button = await screen.findByRole('button', { name: /^Company(: |$)/ });
  await screen.findByText('Acme Ltd');
  // Its name holds the words it shows (WCAG 2.5.3).
  expect(button).toHaveAccessibleName('Company: Acme Ltd');
  await userEvent.click(button);
  // The list loads with the first click (shell/deferred-menu.tsx).
  await screen.findByRole('menu');
  return button;
}

beforeEach(() => {
  assignLocation.mockReset();
  reloadPage.mockReset();
});

describe('CompanySwitcher', () => {
  it('shows the current company and marks it in the list', async () => {
    window.localStorage.setItem(storageKeys.companyId, '2');
    renderSwitcher();
    const button = await screen.findByRole('button', { name: /^Company(: |$)/ });
    expect(await screen.findByText('Acme Europe')).toBeInTheDocument();
    await userEvent.click(button);
    expect(await screen.findByRole('menuitem', { name: /Acme Europe/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(screen.getByRole('menuitem', { name: /Acme Ltd/ })).not.toHaveAttribute('aria-current');
  });

  it('disables companies in a working state (with a spinner) and in the Error state', async () => {
    renderSwitcher();
    await openDropdown();
    expect(screen.getByRole('menuitem', { name: /Acme Provisioning/ })).toBeDisabled();
    expect(screen.getByRole('menuitem', { name: /Acme Resetting/ })).toBeDisabled();
    expect(screen.getByRole('menuitem', { name: /Acme Broken/ })).toBeDisabled();
    expect(screen.getByRole('menuitem', { name: /Acme Europe/ })).toBeEnabled();
    expect(screen.getAllByLabelText('Working')).toHaveLength(2);
  });

  it('stores the chosen company and reloads the page', async () => {
    renderSwitcher({ path: '/payment-transactions' });
    await openDropdown();
    await userEvent.click(screen.getByRole('menuitem', { name: /Acme Europe/ }));
    expect(window.localStorage.getItem(storageKeys.companyId)).toBe('2');
    expect(reloadPage).toHaveBeenCalledOnce();
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('goes to the parent path when the current path ends in a GUID', async () => {
    renderSwitcher({ path: '/payment-transactions/0192f3a4-5b6c-7d8e-9f01-23456789abcd' });
    await openDropdown();
    await userEvent.click(screen.getByRole('menuitem', { name: /Acme Europe/ }));
    expect(assignLocation).toHaveBeenCalledWith('/payment-transactions');
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('disables Edit Companies without the EditCompanies permission', async () => {
    renderSwitcher({ permissions: [] });
    await openDropdown();
    expect(screen.getByRole('menuitem', { name: 'Edit Companies' })).toBeDisabled();
  });

  it('links Edit Companies to the companies page with EditCompanies', async () => {
    renderSwitcher({ permissions: ['EditCompanies'] });
    await openDropdown();
    expect(screen.getByRole('menuitem', { name: 'Edit Companies' })).toHaveAttribute(
      'href',
      '/settings/companies',
    );
  });

  it('is hidden on the users page', () => {
    renderSwitcher({ path: '/settings/users' });
    expect(screen.queryByRole('button', { name: /^Company(: |$)/ })).not.toBeInTheDocument();
  });
});
