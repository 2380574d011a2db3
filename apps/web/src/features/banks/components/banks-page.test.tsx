import type { Bank } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { storageKeys } from '@/lib/storage';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { BanksPage } from './banks-page';

beforeAll(prepareGridTests);

function aBank(overrides: Partial<Bank> = {}): Bank {
  return {
    id: '0199f0aa-0000-7000-8000-000000000001',
    accountName: 'Main current account',
    currency: 'GBP',
    description: 'Takings',
    accountNumber: '31415926',
    sortCode: '60-16-13',
    iban: 'GB29NWBK60161331926819',
    bankName: 'NatWest',
    source: 'Sage 200',
    createdOn: '2026-01-05T09:00:00.000Z',
    ...overrides,
  };
}

const main = aBank();
const euro = aBank({
  id: '0199f0aa-0000-7000-8000-000000000002',
  accountName: 'Euro account',
  currency: 'EUR',
  accountNumber: null,
  bankName: null,
  source: null,
});

function renderPage() {
  const calls = stubFetch({ 'GET /banks': { body: { items: [euro, main], totalItems: 2 } } });
  renderWithProviders(<BanksPage />, { user: aUser(), path: '/banks' });
  return calls;
}

const listCalls = (calls: StubbedCall[]) =>
  calls.filter((call) => call.method === 'GET' && /\/banks(\?|$)/.test(call.url));
const stored = (companyId = 1) =>
  JSON.parse(window.localStorage.getItem(`ledgerline.grid.${companyId}.bank`) ?? 'null');

describe('Banks page', () => {
  it('asks for page 1 of 10 sorted by account name, for the chosen company', async () => {
    window.localStorage.setItem(storageKeys.companyId, '3');
    const calls = renderPage();
    await screen.findByText('Euro account');
    const [first] = listCalls(calls);
    expect(first?.url).toBe('/api/v0/banks?page=1&itemsPerPage=10&sort=accountName');
    expect(first?.headers.get('Dataset-Id')).toBe('3');
  });

  it('shows account name, currency, account number, bank name, source and a view link', async () => {
    renderPage();
    const row = (await screen.findByText('Main current account')).closest('tr') as HTMLElement;
    for (const text of ['GBP', '31415926', 'NatWest', 'Sage 200']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    expect(within(row).getByRole('link', { name: 'View Main current account' })).toHaveAttribute(
      'href',
      `/banks/${main.id}`,
    );
    const euroRow = screen.getByText('Euro account').closest('tr') as HTMLElement;
    expect(within(euroRow).getAllByText('-')).toHaveLength(3);
    const headers = [...screen.getByRole('table', { name: 'Banks' }).querySelectorAll('thead th')];
    expect(headers.map((header) => header.textContent?.trim())).toEqual([
      'Account name',
      'Currency',
      'Account number',
      'Bank name',
      'Source',
      // The View column's header, visually hidden (axe empty-table-header).
      'Actions',
    ]);
  });

  it('offers a contains filter on every column and sends it to the server', async () => {
    const calls = renderPage();
    await screen.findByText('Euro account');
    for (const title of ['Account name', 'Currency', 'Account number', 'Bank name', 'Source']) {
      expect(screen.getByRole('button', { name: `Filter ${title}` })).toBeInTheDocument();
    }
    await userEvent.click(screen.getByRole('button', { name: 'Filter Bank name' }));
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Bank name contains' }),
      'nat, west{Enter}',
    );
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.url).toBe(
        '/api/v0/banks?page=1&itemsPerPage=10&sort=accountName&filter=bankName+ct+nat%5C%2C+west',
      ),
    );
    expect(stored()).toMatchObject({ filters: { bankName: { type: 'text', value: 'nat, west' } } });
  });

  it('sorts by a clicked column and remembers it per company under the grid name bank', async () => {
    window.localStorage.setItem(storageKeys.companyId, '2');
    const calls = renderPage();
    await screen.findByText('Euro account');
    await userEvent.click(screen.getByRole('button', { name: /^Currency/ }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)?.url).toBe(
        '/api/v0/banks?page=1&itemsPerPage=10&sort=currency',
      ),
    );
    expect(stored(2)).toMatchObject({ sort: { field: 'currency', direction: 'asc' } });
    expect(stored(1)).toBeNull();
  });

  it('starts from the remembered state', async () => {
    window.localStorage.setItem(
      'ledgerline.grid.1.bank',
      JSON.stringify({
        page: 2,
        pageSize: 20,
        sort: { field: 'source', direction: 'desc' },
        filters: { currency: { type: 'text', value: 'eu' } },
      }),
    );
    const calls = renderPage();
    await screen.findByText('Euro account');
    expect(listCalls(calls)[0]?.url).toBe(
      '/api/v0/banks?page=2&itemsPerPage=20&sort=-source&filter=currency+ct+eu',
    );
  });
});
