import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { aPayer, aPaymentTransaction, accountId, payerId } from './account-fixtures';
import { PayerPage } from './payer-page';

beforeAll(prepareGridTests);

const path = `/accounts/${accountId}/payers/${payerId}`;
function renderPage() {
  const calls = stubFetch({
    [`GET /accounts/${accountId}/payers/${payerId}`]: { body: aPayer() },
    'GET /payment-transactions': {
      body: { items: [aPaymentTransaction()], totalItems: 1, totalItemsEstimated: false },
    },
    'GET /payment-transactions/count': { body: { count: 1, estimated: false } },
  });
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser(),
    path,
    routes: [{ path: '/accounts/:accountId/payers/:id', element: <PayerPage /> }],
  });
  return calls;
}

describe('the payer page', () => {
  it('shows company name, full name, email and address, each with a copy button', async () => {
    const calls = renderPage();
    expect(await screen.findByRole('heading', { name: 'Jo Bloggs' })).toBeInTheDocument();
    expect(screen.getByText('jo@acme.example')).toBeInTheDocument();
    expect(screen.getByText('1 High Street, Leeds, LS1 1AA, United Kingdom')).toBeInTheDocument();
    for (const label of ['company name', 'full name', 'email', 'address']) {
      expect(screen.getByRole('button', { name: `Copy ${label}` })).toBeInTheDocument();
    }
    expect(calls.some((call) => call.url.includes('/payment-transactions'))).toBe(false);
  });

  it("loads the payer's payment transactions and their count when the tab is first opened", async () => {
    const calls = renderPage();
    await screen.findByRole('heading', { name: 'Jo Bloggs' });
    await userEvent.click(screen.getByRole('tab', { name: /Payment transactions/ }));
    expect(await screen.findByText('LL000000077')).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: /Payment transactions/ })).toHaveTextContent('1');
    const list = calls.find((call) => /\/payment-transactions\?/.test(call.url));
    const params = new URL(list!.url, 'http://x').searchParams;
    expect(params.get('filter')).toBe(`payerId eq ${payerId}`);
    expect(params.get('sort')).toBe('-statusDateTime');
  });

  it('says the payer was not found', async () => {
    stubFetch({});
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path,
      routes: [{ path: '/accounts/:accountId/payers/:id', element: <PayerPage /> }],
    });
    expect(await screen.findByText('The payer was not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the account' })).toBeInTheDocument();
  });
});
