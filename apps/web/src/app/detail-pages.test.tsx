import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import {
  accountId as fixtureAccountId,
  aPayer,
  aPaymentRequest,
  anAccount,
  payerId,
} from '@/features/accounts/components/account-fixtures';
import { renderWithProviders } from '@/test/render';
import { areaRoutes } from './routes';

const uuid = '0199f0aa-0000-7000-8000-000000000001';
const accountId = '0199f0aa-0000-7000-8000-0000000000aa';

/** Every detail page, the path its record loads from, and what the not-found state names. */
const detailPages = [
  {
    route: '/payment-requests/:id',
    path: `/payment-requests/${uuid}`,
    api: `/payment-requests/${uuid}`,
    record: 'payment request',
    back: 'Back to Payment Requests',
  },
  {
    route: '/payment-transactions/:id',
    path: `/payment-transactions/${uuid}`,
    api: `/payment-transactions/${uuid}`,
    record: 'payment transaction',
    back: 'Back to Payment Transactions',
  },
  {
    route: '/transactions/:id',
    path: `/transactions/${uuid}`,
    api: `/transactions/${uuid}`,
    record: 'transaction',
    back: 'Back to Transactions',
  },
  {
    route: '/banks/:id',
    path: `/banks/${uuid}`,
    api: `/banks/${uuid}`,
    record: 'bank',
    back: 'Back to Banks',
  },
  {
    route: '/accounts/:id',
    path: `/accounts/${uuid}`,
    api: `/accounts/${uuid}`,
    record: 'account',
    back: 'Back to Accounts',
  },
  {
    route: '/accounts/:accountId/payers/:id',
    path: `/accounts/${accountId}/payers/${uuid}`,
    api: `/accounts/${accountId}/payers/${uuid}`,
    record: 'payer',
    back: 'Back to the account',
  },
];

async function renderRoute(routePath: string, path: string) {
  const route = areaRoutes.find((candidate) => candidate.path === routePath);
  if (!route) throw new Error(`${routePath} is not registered`);
  const Page = await route.page();
  return renderWithProviders(<p>Elsewhere</p>, {
    user: aUser(),
    path,
    routes: [{ path: routePath, element: <Page /> }],
  });
}

// One not-found state on every detail page; a malformed id is not found too.
describe('the detail pages', () => {
  it.each(detailPages)('$record: a record the company does not have is not found', async (page) => {
    const calls = stubFetch({
      [`GET ${page.api}`]: {
        status: 404,
        body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Nope.' },
      },
    });
    await renderRoute(page.route, page.path);
    expect(await screen.findByText(`The ${page.record} was not found.`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: page.back })).toBeInTheDocument();
    expect(calls.some((call) => call.url.startsWith(`/api/v0${page.api}`))).toBe(true);
  });

  it.each(detailPages)('$record: a malformed id is not found, without a call', async (page) => {
    const calls = stubFetch({});
    await renderRoute(page.route, page.path.replace(uuid, 'not-an-id'));
    expect(await screen.findByText(`The ${page.record} was not found.`)).toBeInTheDocument();
    expect(screen.queryByText('One or more fields are invalid.')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url.includes('not-an-id'))).toEqual([]);
  });

  it('a failure other than not found still says it failed', async () => {
    stubFetch({
      [`GET /banks/${uuid}`]: {
        status: 500,
        body: { type: 'about:blank', title: 'Error', status: 500, detail: 'Database down.' },
      },
    });
    await renderRoute('/banks/:id', `/banks/${uuid}`);
    expect(await screen.findByText('Loading Error')).toBeInTheDocument();
    expect(screen.getByText('Database down.')).toBeInTheDocument();
  });
});

// The spec's routes that answered 404.
describe('the spec routes', () => {
  it('registers /payers, /payment-plans and the company detail placeholder', () => {
    const paths = areaRoutes.map((route) => route.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/payers', '/payment-plans', '/settings/companies/:id']),
    );
    expect(areaRoutes.find((route) => route.path === '/settings/companies/:id')?.permission).toBe(
      'EditCompanies',
    );
  });

  it('the payment plans placeholder says there are none yet', async () => {
    await renderRoute('/payment-plans', '/payment-plans');
    expect(await screen.findByRole('heading', { name: 'Payment Plans' })).toBeInTheDocument();
    expect(screen.getByText('Payment plans are not available yet.')).toBeInTheDocument();
  });

  it('the company placeholder names the company, or says it was not found', async () => {
    stubFetch({
      'GET /data-sets/all': { body: { items: [aDataset({ id: 3, name: 'Acme Ltd' })] } },
    });
    const { router } = await renderRoute('/settings/companies/:id', '/settings/companies/3');
    expect(await screen.findByRole('heading', { name: 'Acme Ltd' })).toBeInTheDocument();
    const crumbs = screen.getByRole('link', { name: 'Companies' });
    expect(crumbs).toHaveAttribute('href', '/settings/companies');
    await router.navigate('/settings/companies/9');
    expect(await screen.findByText('The company was not found.')).toBeInTheDocument();
  });
});

describe('breadcrumbs', () => {
  it('the payer page names its account by reference', async () => {
    stubFetch({
      [`GET /accounts/${fixtureAccountId}/payers/${payerId}`]: { body: aPayer() },
      [`GET /accounts/${fixtureAccountId}`]: { body: anAccount({ accountReference: 'ACC01' }) },
    });
    await renderRoute(
      '/accounts/:accountId/payers/:id',
      `/accounts/${fixtureAccountId}/payers/${payerId}`,
    );
    const account = await screen.findByRole('link', { name: 'ACC01' });
    expect(account).toHaveAttribute('href', `/accounts/${fixtureAccountId}`);
    expect(screen.getByRole('link', { name: 'Accounts' })).toHaveAttribute('href', '/accounts');
  });

  it('the payment request page leads back to its list', async () => {
    stubFetch({
      [`GET /payment-requests/${uuid}`]: {
        body: aPaymentRequest({ id: uuid, customerReference: 'CUST-7' }),
      },
    });
    await renderRoute('/payment-requests/:id', `/payment-requests/${uuid}`);
    expect(await screen.findByRole('link', { name: 'Payment Requests' })).toHaveAttribute(
      'href',
      '/payment-requests',
    );
    expect(screen.getAllByText('CUST-7').length).toBeGreaterThan(0);
  });
});
