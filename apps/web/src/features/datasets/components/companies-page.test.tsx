import type { Dataset, Permission } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { CompaniesPage } from './companies-page';

beforeAll(prepareGridTests);

const allPermissions: Permission[] = ['CreateCompanies', 'EditCompanies', 'DeleteCompanies'];
const defaultCompany = aDataset({ id: 1, name: 'Acme Ltd', hostId: '1', customHostId: '1' });
const sage = aDataset({
  id: 2,
  name: 'Acme Sage',
  hostSystemName: 'Sage200Pro',
  hostId: '7',
  customHostId: '3',
  status: 'Active',
});
const demo = aDataset({
  id: 3,
  name: 'Acme Demo',
  hostSystemName: 'Custom',
  hostId: '4',
  customHostId: '12',
  type: 'Demo',
  status: 'Inactive',
});
const provisioning = aDataset({
  id: 4,
  name: 'Acme New',
  hostSystemName: 'Sage100',
  hostId: '5',
  customHostId: '5',
  status: 'Provisioning',
});
const companies: Dataset[] = [defaultCompany, sage, demo, provisioning];

function renderPage(
  permissions: Permission[] = allPermissions,
  routes: Parameters<typeof stubFetch>[0] = {},
) {
  const calls = stubFetch({
    'GET /data-sets': { body: { items: companies, totalItems: companies.length } },
    'GET /data-sets/all': { body: { items: companies } },
    'GET /data-sets/host-systems': { body: { items: ['Sage100', 'Sage200Pro', 'Custom'] } },
    'GET /data-sets/base-currencies': {
      body: { items: ['GBP', 'USD', 'EUR', 'CAD', 'SGD', 'THB', 'ZAR'] },
    },
    ...routes,
  });
  const rendered = renderWithProviders(<CompaniesPage />, {
    user: aUser({ permissions }),
    flags: { PermissionPolicy: true },
    path: '/settings/companies',
  });
  return { calls, ...rendered };
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const pageCalls = (calls: StubbedCall[]) =>
  calls.filter((call) => call.method === 'GET' && /\/data-sets(\?|$)/.test(call.url));

describe('Companies page', () => {
  it('asks the server for page 1 of 10 sorted by id', async () => {
    const { calls } = renderPage();
    await screen.findByText('Acme Sage');
    expect(pageCalls(calls)[0]?.url).toBe('/api/v0/data-sets?page=1&itemsPerPage=10&sort=id');
  });

  it('sends a column filter as the filter parameter', async () => {
    const { calls } = renderPage();
    await screen.findByText('Acme Sage');
    await userEvent.click(screen.getByRole('button', { name: 'Filter Status' }));
    await userEvent.click(await screen.findByRole('textbox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() =>
      expect(pageCalls(calls).at(-1)?.url).toBe(
        '/api/v0/data-sets?page=1&itemsPerPage=10&sort=id&filter=status+eq+Inactive',
      ),
    );
  });

  it('shows working states with a spinner and has no row actions for the default company', async () => {
    renderPage();
    const row = await rowOf('Acme Ltd');
    expect(within(row).queryByRole('button')).not.toBeInTheDocument();
    expect(within(await rowOf('Acme New')).getByText('Provisioning')).toBeInTheDocument();
  });

  it('shows when the ERP connector last sent data in Last synced, N/A before it ever did', async () => {
    const synced = aDataset({
      ...sage,
      id: 5,
      name: 'Acme Synced',
      hostId: '9',
      customHostId: '9',
      lastSync: '2026-11-20T12:34:56.000Z',
    });
    renderPage(allPermissions, {
      'GET /data-sets': { body: { items: [sage, synced], totalItems: 2 } },
    });
    expect(
      within(await rowOf('Acme Synced')).getByText(/^2026\/11\/2[01] \d\d:\d\d:56$/),
    ).toBeInTheDocument();
    expect(within(await rowOf('Acme Sage')).getByText('N/A')).toBeInTheDocument();
  });

  it('enables edit and delete only with the permission and a settled status', async () => {
    renderPage();
    expect(await screen.findByRole('button', { name: 'Edit Acme Sage' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete Acme Demo' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Edit Acme New' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Acme New' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add Company' })).toBeEnabled();
  });

  it('disables each action without its permission', async () => {
    renderPage(['EditCompanies']);
    expect(await screen.findByRole('button', { name: 'Edit Acme Sage' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete Acme Sage' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add Company' })).toBeDisabled();
  });

  it('adds a company with the next free host ids, then refreshes the dropdown list', async () => {
    const { calls } = renderPage(allPermissions, {
      'POST /data-sets': ({ body }) => ({
        status: 201,
        body: {
          ...aDataset(),
          ...(body as object),
          id: 5,
          status: 'Initialise',
          type: 'Production',
          copyFromDatasetId: null,
        },
      }),
    });
    await screen.findByText('Acme Sage');
    await userEvent.click(screen.getByRole('button', { name: 'Add Company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Company' });
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Host id' })).toHaveValue('13'),
    );
    expect(within(dialog).getByRole('textbox', { name: 'Custom host id' })).toHaveValue('13');
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('GBP');
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'ERP host system' })).toHaveValue(
        'Sage100',
      ),
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' Acme Two ');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Demo company' }));
    expect(within(dialog).getByText(/This choice is permanent/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Company successfully created')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Acme Two',
      shortName: null,
      description: null,
      currency: 'GBP',
      hostSystemName: 'Sage100',
      hostId: '13',
      customHostId: '13',
      copyFromDatasetId: 0,
      hostDemoSystem: true,
    });
    // The shell's data-sets/all (the company dropdown) refetches too.
    await waitFor(() =>
      expect(calls.filter((call) => call.url === '/api/v0/data-sets/all')).toHaveLength(2),
    );
  });

  it('shows both duplicate host id messages inline', async () => {
    renderPage(allPermissions, {
      'PUT /data-sets': {
        status: 409,
        body: {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          detail: 'Another company already uses this host id or custom host id.',
          errorCode: 'datasetHostIdExists',
          errors: { hostId: ['datasetHostIdExists'], customHostId: ['datasetCustomHostIdExists'] },
        },
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Acme Sage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Company' });
    expect(within(dialog).queryByRole('textbox', { name: 'Currency' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(
      await within(dialog).findByText('A company with this host id already exists.'),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('A company with this custom host id already exists.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'An error occurred while updating the company: Another company already uses this host id or custom host id.',
      ),
    ).toBeInTheDocument();
  });

  it('resets demo data only after a second click', async () => {
    const { calls } = renderPage(allPermissions, {
      'POST /data-sets/3/reset': { status: 202, body: { ...demo, status: 'Resetting' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Acme Demo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Company' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset demo data' }));
    expect(calls.some((call) => call.url.endsWith('/reset'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Click again to confirm' }));

    expect(await screen.findByText('The demo data is being reset')).toBeInTheDocument();
    expect(calls.filter((call) => call.url.endsWith('/reset'))).toHaveLength(1);
  });

  it('offers no reset for a production company', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Acme Sage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Company' });
    expect(
      within(dialog).queryByRole('button', { name: 'Reset demo data' }),
    ).not.toBeInTheDocument();
  });

  it('deletes after a confirmation naming the company', async () => {
    const { calls } = renderPage(allPermissions, {
      'DELETE /data-sets/2': { status: 202, body: { ...sage, status: 'Deleting' } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Acme Sage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Company' });
    expect(within(dialog).getByText(/Acme Sage/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The company is being deleted')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });
});
