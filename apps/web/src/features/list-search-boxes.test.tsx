import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { AccessKeysPage } from './access-keys/components/access-keys-page';
import { ActivityGrid } from './activities/components/activity-grid';
import { AccountPayersTab } from './accounts/components/account-payers-tab';
import {
  AccountPaymentRequestsTab,
  AccountTransactionsTab,
} from './accounts/components/account-related-tabs';
import { PayersPage } from './accounts/components/payers-page';
import { RelatedPaymentTransactions } from './accounts/components/related-payment-transactions';
import { BanksPage } from './banks/components/banks-page';
import { CompaniesPage } from './datasets/components/companies-page';
import { PaymentProvidersPage } from './payment-providers/components/payment-providers-page';
import { LatePaymentsPage } from './late-payments/components/late-payments-page';
import { DisputesPage } from './payment-transactions/components/disputes-page';
import { ReminderSchedulesPage } from './reminders/components/reminder-schedules-page';
import { SettlementsPage } from './settlements/components/settlements-page';
import { UsersPage } from './users/components/users-page';
import { EndpointsScreen } from './web-hooks/components/endpoints-screen';

// A search box on every list, answered by the server, kept in the address
// where the list is the page's own.
beforeAll(prepareGridTests);

const empty = { body: { items: [], totalItems: 0, totalItemsEstimated: false } };
const accountId = '0199f0aa-0000-7000-8000-0000000000a1';

interface Case {
  name: string;
  element: ReactElement;
  path: string;
  /** The list's call, as stubFetch names it. */
  route: string;
  listName: string;
  /** The page's one list writes its view into the address. */
  address: boolean;
  stubs?: Record<string, { body: unknown }>;
  flags?: Record<string, boolean>;
  /** The page also reads the whole list for something else (the reminder run's settings). */
  readsAll?: boolean;
  /** The server answers the whole (searched) list and the grid pages it (users). */
  wholeList?: boolean;
}

const cases: Case[] = [
  {
    name: 'Banks',
    element: <BanksPage />,
    path: '/banks',
    route: 'GET /banks',
    listName: 'banks',
    address: true,
  },
  {
    name: 'Companies',
    element: <CompaniesPage />,
    path: '/settings/companies',
    route: 'GET /data-sets',
    listName: 'companies',
    address: true,
    stubs: { 'GET /data-sets/all': { body: { items: [] } } },
  },
  {
    name: 'Disputes',
    element: <DisputesPage />,
    path: '/disputes',
    route: 'GET /disputes',
    listName: 'disputes',
    address: true,
  },
  {
    name: 'Payers',
    element: <PayersPage />,
    path: '/payers',
    route: 'GET /payers',
    listName: 'payers',
    address: true,
  },
  {
    name: 'Payment providers',
    element: <PaymentProvidersPage />,
    path: '/settings/payment-providers',
    route: 'GET /providers',
    listName: 'payment providers',
    address: true,
    stubs: {
      'GET /providers/default': { body: { paymentProviderId: null } },
      'GET /providers/types': { body: [] },
    },
  },
  {
    name: 'Access keys',
    element: <AccessKeysPage />,
    path: '/settings/access-keys',
    route: 'GET /access-keys',
    listName: 'access keys',
    address: true,
    wholeList: true,
    flags: { NewAccessKeyPage: true },
    stubs: {
      'GET /access-keys/count': { body: { count: 0 } },
      'GET /access-keys/maximum': { body: { maximumKeyCount: 5 } },
    },
  },
  {
    name: 'Web hook endpoints',
    element: <EndpointsScreen />,
    path: '/settings/web-hooks',
    route: 'GET /web-hooks/endpoints',
    listName: 'web hook endpoints',
    address: true,
    wholeList: true,
  },
  {
    name: 'Users',
    element: <UsersPage />,
    path: '/settings/users',
    route: 'GET /users/all',
    listName: 'users',
    address: true,
    wholeList: true,
  },
  {
    name: 'Late payments',
    element: <LatePaymentsPage />,
    path: '/late-payments',
    route: 'GET /late-payment-configurations',
    listName: 'late payment configurations',
    address: true,
  },
  {
    name: 'Settlements',
    element: <SettlementsPage />,
    path: '/settlements',
    route: 'GET /settlement-configuration-groups',
    listName: 'settlement groups',
    address: true,
    flags: { settlementConfigurations: true },
  },
  {
    name: 'Reminder schedules',
    element: <ReminderSchedulesPage />,
    path: '/settings/reminder-schedules',
    route: 'GET /reminder-schedules',
    listName: 'reminder schedules',
    address: true,
    readsAll: true,
  },
  {
    name: 'An account’s payers',
    element: <AccountPayersTab accountId={accountId} />,
    path: `/accounts/${accountId}`,
    route: `GET /accounts/${accountId}/payers`,
    listName: 'the account’s payers',
    address: false,
  },
  {
    name: 'An account’s transactions',
    element: <AccountTransactionsTab accountId={accountId} />,
    path: `/accounts/${accountId}`,
    route: 'GET /transactions',
    listName: 'the account’s transactions',
    address: false,
  },
  {
    name: 'An account’s payment requests',
    element: <AccountPaymentRequestsTab accountId={accountId} />,
    path: `/accounts/${accountId}`,
    route: 'GET /payment-requests',
    listName: 'the account’s payment requests',
    address: false,
  },
  {
    name: 'An account’s payments',
    element: <RelatedPaymentTransactions owner={{ field: 'accountId', id: accountId }} />,
    path: `/accounts/${accountId}`,
    route: 'GET /payment-transactions',
    listName: 'payment transactions',
    address: false,
  },
];

const queryOf = (call: StubbedCall) => new URL(call.url, 'http://localhost').searchParams;

describe.each(cases)(
  '$name: the search box',
  ({ element, path, route, listName, address, stubs, flags, wholeList }) => {
    const listPath = `/api/v0${route.slice('GET '.length)}`;
    const listCalls = (calls: StubbedCall[]) =>
      calls.filter(
        (call) =>
          call.method === 'GET' && new URL(call.url, 'http://localhost').pathname === listPath,
      );

    it('asks the server with the typed words from page 1, and keeps the list’s own filter', async () => {
      const calls = stubFetch({ ...stubs, [route]: empty });
      const { router } = renderWithProviders(element, { user: aUser(), path, flags });
      await vi.waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(0));
      const before = queryOf(listCalls(calls)[0]!);
      await userEvent.type(
        screen.getByRole('searchbox', { name: `Search ${listName}` }),
        'Quokka{Enter}',
      );
      await vi.waitFor(() =>
        expect(queryOf(listCalls(calls).at(-1)!).get('search')).toBe('Quokka'),
      );
      const after = queryOf(listCalls(calls).at(-1)!);
      expect(after.get('page')).toBe(wholeList ? null : '1');
      // An account's tab still asks for that account's rows only.
      expect(after.get('filter')).toBe(before.get('filter'));
      const inAddress = new URLSearchParams(router.state.location.search).get('search');
      expect(inAddress).toBe(address ? 'Quokka' : null);
    });
  },
);

const ownLists = cases.filter((c) => c.address);
describe.each(ownLists)(
  '$name: a view shared by its address',
  ({ element, path, route, listName, stubs, flags, readsAll }) => {
    const listPath = `/api/v0${route.slice('GET '.length)}`;
    const listCalls = (calls: StubbedCall[]) =>
      calls.filter(
        (call) =>
          call.method === 'GET' && new URL(call.url, 'http://localhost').pathname === listPath,
      );

    it('opens with the search the address carries', async () => {
      const calls = stubFetch({ ...stubs, [route]: empty });
      renderWithProviders(element, { user: aUser(), path: `${path}?search=Acme`, flags });
      await vi.waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(0));
      // The list asks with the search from the start (Reminder schedules also reads every schedule
      // for its run settings).
      await vi.waitFor(() =>
        expect(listCalls(calls).map((call) => queryOf(call).get('search'))).toContain('Acme'),
      );
      // Never a flash of the whole list first.
      if (!readsAll) {
        expect(listCalls(calls).map((call) => queryOf(call).get('search'))).not.toContain(null);
      }
      expect(screen.getByRole('searchbox', { name: `Search ${listName}` })).toHaveValue('Acme');
    });
  },
);

describe('Activities: the search box', () => {
  const activity = (id: string, operation: string) => ({
    id,
    datasetId: 1,
    operation,
    resourceType: 'User',
    resourceId: 'u-1',
    userName: 'Auditor',
    status: 200,
    errorMessage: null,
    ipAddress: null,
    timestamp: '2026-01-01T00:00:00.000Z',
  });

  it('asks the server with the words and starts again from the newest activities', async () => {
    const calls = stubFetch({
      'GET /audit-logs': {
        body: {
          items: [activity('0199f0aa-0000-7000-8000-0000000000d1', 'UpdateUser')],
          next: 'abc',
        },
      },
    });
    renderWithProviders(<ActivityGrid scope="company" label="Acme activities" />, {
      user: aUser(),
      path: '/activities',
    });
    await screen.findByText('Update User');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await vi.waitFor(() => expect(queryOf(calls.at(-1)!).get('cursor')).toBe('abc'));
    await userEvent.type(
      screen.getByRole('searchbox', { name: 'Search Acme activities' }),
      'user{Enter}',
    );
    await vi.waitFor(() => expect(queryOf(calls.at(-1)!).get('search')).toBe('user'));
    expect(queryOf(calls.at(-1)!).has('cursor')).toBe(false);
  });
});
