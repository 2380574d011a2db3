import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { anAccount } from './account-fixtures';
import { AccountsPage } from './accounts-page';

beforeAll(prepareGridTests);

const acme = anAccount();
const beta = anAccount({
  id: '0199f0aa-0000-7000-8000-0000000000a2',
  accountReference: 'ACC000002',
  name: 'Beta Traders',
  creditLimit: null,
  overdueAmount: 0,
});

function renderPage() {
  const calls = stubFetch({
    'GET /accounts': { body: { items: [acme, beta], totalItems: 2, totalItemsEstimated: false } },
  });
  renderWithProviders(<AccountsPage />, { user: aUser(), path: '/accounts' });
  return calls;
}
const listCalls = (calls: StubbedCall[]) =>
  calls.filter((call) => /\/accounts(\?|$)/.test(call.url));

describe('Accounts page', () => {
  it('asks for page 1 of 10 sorted by account reference', async () => {
    const calls = renderPage();
    await screen.findByText('Beta Traders');
    expect(listCalls(calls)[0]?.url).toBe(
      '/api/v0/accounts?page=1&itemsPerPage=10&sort=accountReference',
    );
  });

  it('shows reference, name, balance, overdue, credit limit and a view link', async () => {
    renderPage();
    const row = (await screen.findByText('Acme Widgets Ltd')).closest('tr') as HTMLElement;
    // The Overdue column, the amount past due (£200.00) beside the balance.
    for (const text of ['ACC000001', '£1,234.50', '£200.00', '£5,000.00'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'View ACC000001' })).toHaveAttribute(
      'href',
      `/accounts/${acme.id}`,
    );
    const betaRow = screen.getByText('Beta Traders').closest('tr') as HTMLElement;
    expect(within(betaRow).getByText('-')).toBeInTheDocument();
    const headers = [
      ...screen.getByRole('table', { name: 'Accounts' }).querySelectorAll('thead th'),
    ];
    expect(headers.map((header) => header.textContent?.trim())).toEqual([
      'Account reference',
      'Name',
      'Balance',
      'Overdue',
      'Credit limit',
      // The View column's header, visually hidden (axe empty-table-header).
      'Actions',
    ]);
  });

  it('filters on reference and name, and remembers the grid under the name account', async () => {
    const calls = renderPage();
    await screen.findByText('Beta Traders');
    expect(screen.getByRole('button', { name: 'Filter Account reference' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Filter Name' }));
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Name contains' }),
      'beta{Enter}',
    );
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.url).toBe(
        '/api/v0/accounts?page=1&itemsPerPage=10&sort=accountReference&filter=name+ct+beta',
      ),
    );
    expect(
      JSON.parse(window.localStorage.getItem('ledgerline.grid.1.account') ?? 'null'),
    ).toMatchObject({
      filters: { name: { type: 'text', value: 'beta' } },
    });
  });
});
