import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { TodoPanel } from './todo-panel';

const items = [
  {
    id: 'company-details',
    severity: 'Warning',
    title: 'Complete your company details',
    message: 'Details appear on payment pages.',
    url: '/settings/details',
    requiredPermissionToFix: 'ConfigureSystemSettings',
  },
  {
    id: 'logo',
    severity: 'Informational',
    title: 'Upload your logo',
    message: 'Shown in the header.',
    url: '/settings/customisation',
    requiredPermissionToFix: 'ConfigureSystemSettings',
  },
];

describe('To-do panel', () => {
  it('shows each item with its severity, and Fix only with the permission to fix', async () => {
    stubFetch({ 'GET /dashboard/to-do': { body: { items } } });
    renderWithProviders(<TodoPanel />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    expect(await screen.findByText('Complete your company details')).toBeInTheDocument();
    expect(screen.getByLabelText('Warning')).toBeInTheDocument();
    expect(screen.getByLabelText('Informational')).toBeInTheDocument();
    expect(
      screen.getAllByRole('link', { name: 'Fix' }).map((link) => link.getAttribute('href')),
    ).toEqual(['/settings/details', '/settings/customisation']);
  });

  it('hides Fix without the permission', async () => {
    stubFetch({ 'GET /dashboard/to-do': { body: { items } } });
    renderWithProviders(<TodoPanel />, {
      user: aUser({ role: 'Viewer', permissions: [] }),
      flags: { PermissionPolicy: true },
    });
    expect(await screen.findByText('Upload your logo')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Fix' })).not.toBeInTheDocument();
  });

  it("links Fix to the item's url, for anyone when it needs no permission", async () => {
    const disputes = {
      id: 'open-disputes',
      severity: 'Critical',
      title: 'Answer 1 open dispute',
      message: 'Give the provider your evidence.',
      url: '/disputes',
      requiredPermissionToFix: null,
    };
    stubFetch({ 'GET /dashboard/to-do': { body: { items: [...items, disputes] } } });
    renderWithProviders(<TodoPanel />, {
      user: aUser({ role: 'Viewer', permissions: [] }),
      flags: { PermissionPolicy: true },
    });
    expect(await screen.findByText('Answer 1 open dispute')).toBeInTheDocument();
    expect(
      screen.getAllByRole('link', { name: 'Fix' }).map((link) => link.getAttribute('href')),
    ).toEqual(['/disputes']);
  });

  it('shows a placeholder while loading and the completed message when nothing is left', async () => {
    stubFetch({ 'GET /dashboard/to-do': { body: { items: [] } } });
    renderWithProviders(<TodoPanel />, { user: aUser() });
    expect(screen.getByTestId('todo-loading')).toBeInTheDocument();
    expect(
      await screen.findByText('Everything is set up. Nothing left to do.'),
    ).toBeInTheDocument();
  });
});
