import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { SettlementGroupCreatePage } from './settlement-group-create-page';
import { SettlementGroupPage } from './settlement-group-page';
import { SettlementsPage } from './settlements-page';

const groupId = '0199f0aa-0000-7000-8000-0000000000b1';
const group = {
  id: groupId,
  name: 'Prompt payment',
  description: 'Two per cent',
  customerEnabled: true,
  transactionEnabled: false,
  isDefault: false,
  configurations: [
    {
      id: '0199f0aa-0000-7000-8000-0000000000c1',
      type: 'PercentageDiscount',
      description: 'Early',
      dateType: 'TransactionDate',
      numberOfDays: 10,
      percentageDiscount: 2,
      amount: null,
      currency: null,
      filterGroup: { filterConfigurations: [] },
    },
  ],
};

describe('settlements (spec 3 §2)', () => {
  it('shows the placeholder without the settlementConfigurations flag', async () => {
    stubFetch({});
    renderWithProviders(<SettlementsPage />, { user: aUser() });
    expect(
      await screen.findByText('Settlement configurations are not enabled for this site.'),
    ).toBeInTheDocument();
  });

  it('lists the groups with the flag: Default tag, configuration count, customer tag', async () => {
    stubFetch({
      'GET /settlement-configuration-groups': {
        body: {
          items: [
            { ...group, isDefault: true },
            {
              ...group,
              id: '0199f0aa-0000-7000-8000-0000000000b2',
              name: 'Another',
              isDefault: false,
              configurations: [],
            },
          ],
          totalItems: 2,
        },
      },
    });
    renderWithProviders(<SettlementsPage />, {
      user: aUser(),
      flags: { settlementConfigurations: true },
    });
    const table = await screen.findByRole('table', { name: 'Settlement groups' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Another',
      'Prompt paymentDefault',
    ]);
    expect(within(rows[1]!).getByText('Customer enabled')).toBeInTheDocument();
    expect(within(rows[1]!).getAllByRole('cell')[2]).toHaveTextContent('1');
  });

  it('shows a group page with the summary sentence and sets it as the default', async () => {
    const calls = stubFetch({
      [`GET /settlement-configuration-groups/${groupId}`]: { body: group },
      'PUT /company-settings/preferences': {
        body: {
          defaultSettlementConfigurationGroupId: groupId,
          defaultLatePaymentConfigurationId: null,
          defaultCountryId: 826,
          defaultEditPaymentStatus: 'Disable',
          allowTransactionCurrencyChange: 'Disable',
        },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/settlements/${groupId}`,
      routes: [{ path: '/settlements/:id', element: <SettlementGroupPage /> }],
    });
    expect(
      await screen.findByText('2% off when paid within 10 days of the transaction date'),
    ).toBeInTheDocument();
    expect(screen.getByText('after transaction date')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set as default' }));
    await screen.findByText('Default settlement group set');
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      defaultSettlementConfigurationGroupId: groupId,
    });
  }, 20_000);

  it('shows the error state when the group cannot be loaded', async () => {
    stubFetch({});
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/settlements/${groupId}`,
      routes: [{ path: '/settlements/:id', element: <SettlementGroupPage /> }],
    });
    expect(await screen.findByText('An error occurred loading the data')).toBeInTheDocument();
  });
});

// Spec 2 §2: "Breadcrumb helpers exist for … payment providers and settlements."
describe('the settlement pages’ breadcrumbs', () => {
  it('lead from Settlements to the group', async () => {
    stubFetch({ [`GET /settlement-configuration-groups/${groupId}`]: { body: group } });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/settlements/${groupId}`,
      routes: [
        { path: '/settlements/:id', element: <SettlementGroupPage /> },
        { path: '/settlements', element: <p>The settlements list</p> },
      ],
    });
    const link = await screen.findByRole('link', { name: 'Settlements' });
    expect(link).toHaveAttribute('href', '/settlements');
    expect(link.parentElement).toHaveTextContent('Prompt payment');
    await userEvent.click(link);
    expect(await screen.findByText('The settlements list')).toBeInTheDocument();
  });

  it('lead from Settlements to a new group', async () => {
    stubFetch({});
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: '/settlements/new',
      routes: [{ path: '/settlements/new', element: <SettlementGroupCreatePage /> }],
    });
    expect(await screen.findByRole('link', { name: 'Settlements' })).toHaveAttribute(
      'href',
      '/settlements',
    );
    expect(screen.getByText('New Settlement Group', { selector: 'span' })).toBeInTheDocument();
  });
});
