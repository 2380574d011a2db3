import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import {
  aPayer,
  aPaymentRequest,
  aPaymentTransaction,
  aTransaction,
  accountId,
  anAccount,
  payerId,
} from './account-fixtures';
import { AccountPage } from './account-page';

beforeAll(prepareGridTests);

const groupId = '0199f0aa-0000-7000-8000-0000000000c1';
const latePaymentId = '0199f0aa-0000-7000-8000-0000000000c2';
const aSettlementGroup = () => ({
  id: groupId,
  name: 'Trade customers',
  description: null,
  customerEnabled: true,
  transactionEnabled: true,
  isDefault: false,
  configurations: [],
});
const aLatePaymentConfiguration = () => ({
  id: latePaymentId,
  feeGroupType: 'LatePayment',
  type: 'Uk',
  name: 'UK statutory',
  description: null,
  enabled: true,
  gracePeriodInDays: 5,
  recurringPeriodInDays: null,
  percentage: null,
  amount: null,
  applyCharges: true,
  isDefault: false,
});

function renderPage(
  account = anAccount(),
  options: { permissions?: string[]; policy?: boolean } = {},
) {
  const calls = stubFetch({
    [`GET /accounts/${accountId}`]: { body: account },
    [`GET /accounts/${accountId}/payers`]: {
      body: { items: [aPayer()], totalItems: 1, totalItemsEstimated: false },
    },
    'GET /payment-transactions': {
      body: { items: [aPaymentTransaction()], totalItems: 1, totalItemsEstimated: false },
    },
    'GET /transactions': {
      body: { items: [aTransaction()], totalItems: 1, totalItemsEstimated: false },
    },
    'GET /payment-requests': {
      body: { items: [aPaymentRequest()], totalItems: 1, totalItemsEstimated: false },
    },
    'GET /settlement-configuration-groups': {
      body: { items: [aSettlementGroup()], totalItems: 1, totalItemsEstimated: false },
    },
    'GET /late-payment-configurations': {
      body: { items: [aLatePaymentConfiguration()], totalItems: 1, totalItemsEstimated: false },
    },
    [`PUT /accounts/${accountId}/settings`]: (call) => ({
      body: { ...account, accountSettings: call.body, counts: undefined },
    }),
  });
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser({ permissions: (options.permissions ?? []) as never }),
    flags: options.policy ? { PermissionPolicy: true } : {},
    path: `/accounts/${accountId}`,
    routes: [{ path: '/accounts/:id', element: <AccountPage /> }],
  });
  return calls;
}
const called = (calls: StubbedCall[], path: string) =>
  calls.some((call) => call.url.startsWith(`/api/v0${path}`));

describe('the account page', () => {
  it('titles the account reference - name and shows its details and email contacts', async () => {
    const calls = renderPage();
    expect(
      await screen.findByRole('heading', { name: 'ACC000001 - Acme Widgets Ltd' }),
    ).toBeInTheDocument();
    expect(calls[0]?.url).toBe(`/api/v0/accounts/${accountId}?expand=counts`);
    for (const text of ['Customer', '£1,234.50', '£200.00', '£0.00', '£5,000.00', 'ACME1']) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    const emails = screen.getByRole('table', { name: 'Email contacts' });
    const defaultRow = within(emails).getByText('ap@acme.example').closest('tr') as HTMLElement;
    expect(within(defaultRow).getByText('Default')).toBeInTheDocument();
    expect(within(defaultRow).getByText('Accounts')).toBeInTheDocument();
    const other = within(emails).getByText('boss@acme.example').closest('tr') as HTMLElement;
    expect(within(other).queryByText('Default')).toBeNull();
  });

  it("says 'no email addresses found' when the account has none", async () => {
    renderPage(anAccount({ emailAddresses: [] }));
    expect(await screen.findByText('no email addresses found')).toBeInTheDocument();
  });

  it('shows count badges, and loads the payers and payment transactions only when their tab is first opened', async () => {
    const calls = renderPage();
    await screen.findByRole('heading', { name: 'ACC000001 - Acme Widgets Ltd' });
    expect(screen.getByRole('tab', { name: /Payment transactions/ })).toHaveTextContent('3');
    expect(screen.getByRole('tab', { name: /Payers/ })).toHaveTextContent('1');
    // The Reminders tab, a list too, has its count.
    const remindersTab = screen.getByRole('tab', { name: /^Reminders/ });
    expect(within(remindersTab).getByLabelText('4 reminders')).toHaveTextContent('4');
    expect(called(calls, `/accounts/${accountId}/payers`)).toBe(false);
    expect(called(calls, '/payment-transactions')).toBe(false);

    await userEvent.click(screen.getByRole('tab', { name: /Payers/ }));
    const payerRow = (await screen.findByText('Jo Bloggs')).closest('tr') as HTMLElement;
    expect(within(payerRow).getByText('jo@acme.example')).toBeInTheDocument();
    expect(within(payerRow).getByRole('link', { name: 'View payer Jo Bloggs' })).toHaveAttribute(
      'href',
      `/accounts/${accountId}/payers/${payerId}`,
    );
    expect(calls.find((call) => call.url.includes('/payers'))?.url).toBe(
      `/api/v0/accounts/${accountId}/payers?page=1&itemsPerPage=10&sort=-createdOn`,
    );

    await userEvent.click(screen.getByRole('tab', { name: /Payment transactions/ }));
    expect(await screen.findByText('LL000000077')).toBeInTheDocument();
    const paymentCall = calls.find((call) => call.url.startsWith('/api/v0/payment-transactions'));
    expect(new URL(paymentCall!.url, 'http://x').searchParams.get('filter')).toBe(
      `accountId eq ${accountId}`,
    );
    expect(new URL(paymentCall!.url, 'http://x').searchParams.get('sort')).toBe('-statusDateTime');
  });

  it('loads the transactions and payment requests of the account when their tabs are first opened', async () => {
    const calls = renderPage();
    await screen.findByRole('heading', { name: 'ACC000001 - Acme Widgets Ltd' });
    expect(screen.getByRole('tab', { name: /^Transactions/ })).toHaveTextContent('7');
    expect(screen.getByRole('tab', { name: /Payment requests/ })).toHaveTextContent('2');
    expect(called(calls, '/transactions')).toBe(false);
    expect(called(calls, '/payment-requests')).toBe(false);

    await userEvent.click(screen.getByRole('tab', { name: /^Transactions/ }));
    const transactionRow = (await screen.findByText('INV0000042')).closest('tr') as HTMLElement;
    expect(
      within(transactionRow).getByRole('link', { name: 'View transaction INV0000042' }),
    ).toHaveAttribute('href', '/transactions/0199f0aa-0000-7000-8000-0000000000d1');
    const transactionsCall = new URL(
      calls.find((call) => call.url.startsWith('/api/v0/transactions'))!.url,
      'http://x',
    );
    expect(transactionsCall.searchParams.get('filter')).toBe(`accountId eq ${accountId}`);
    expect(transactionsCall.searchParams.get('sort')).toBe('-transactionDate');

    await userEvent.click(screen.getByRole('tab', { name: /Payment requests/ }));
    expect(await screen.findByText('Requested Customer')).toBeInTheDocument();
    const requestsCall = new URL(
      calls.find((call) => call.url.startsWith('/api/v0/payment-requests'))!.url,
      'http://x',
    );
    expect(requestsCall.searchParams.get('filter')).toBe(`accountId eq ${accountId}`);
    expect(requestsCall.searchParams.get('sort')).toBe('-createdOn');
    // Every request of the tab has the account's customer: the link names it by its creation time.
    expect(
      screen.getByRole('link', { name: /^View payment request created 2026\/11\/01 09:00/ }),
    ).toHaveAttribute('href', `/payment-requests/${aPaymentRequest().id}`);
  });

  it('saves the settings and says so', async () => {
    const calls = renderPage(anAccount(), { permissions: ['EditAccountSettings'], policy: true });
    await screen.findByRole('heading', { name: 'ACC000001 - Acme Widgets Ltd' });
    await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByRole('textbox', { name: 'Late payments' })).toHaveValue(
      'Late payments disabled',
    );
    await userEvent.click(screen.getByRole('textbox', { name: 'Auto-apply settlements' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Auto-apply disabled' }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Edit payment status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Allow' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Account settings updated')).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      disableAutoApplySettlements: true,
      settlementConfigurationGroupId: null,
      disableLatePayments: true,
      latePaymentConfigurationGroupId: null,
      editPaymentStatus: 'Allow',
      editPaymentOverrideStatus: 'UseAccountStatus',
      defaultUsageType: null,
    });
  });

  // Only 'Company default' and disabled were offered, and a saved group read
  // 'Configuration group <uuid>'.
  it("offers the company's settlement groups and late-payment configurations by name and saves the one chosen", async () => {
    const saved = anAccount();
    saved.accountSettings = {
      ...saved.accountSettings,
      settlementConfigurationGroupId: groupId,
      defaultUsageType: 'Multiple',
    };
    const calls = renderPage(saved, { permissions: ['EditAccountSettings'], policy: true });
    await screen.findByRole('heading', { name: 'ACC000001 - Acme Widgets Ltd' });
    await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    const settlements = screen.getByRole('textbox', { name: 'Auto-apply settlements' });
    expect(await screen.findByDisplayValue('Trade customers')).toBe(settlements);
    expect(screen.queryByText(/Configuration group/)).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Default usage type' })).toHaveValue('Multiple');
    await userEvent.click(settlements);
    const settlementOptions = (await screen.findAllByRole('option')).map(
      (option) => option.textContent,
    );
    expect(settlementOptions).toEqual([
      'Company default',
      'Auto-apply disabled',
      'Trade customers',
    ]);
    await userEvent.click(screen.getByRole('option', { name: 'Company default' }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Late payments' }));
    await userEvent.click(await screen.findByRole('option', { name: 'UK statutory' }));
    await userEvent.click(screen.getByRole('textbox', { name: 'Default usage type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Company default' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Account settings updated')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      disableAutoApplySettlements: false,
      settlementConfigurationGroupId: null,
      disableLatePayments: false,
      latePaymentConfigurationGroupId: latePaymentId,
      editPaymentStatus: 'Default',
      editPaymentOverrideStatus: 'UseAccountStatus',
      defaultUsageType: null,
    });
  });

  it('disables the settings controls and save without EditAccountSettings', async () => {
    renderPage(anAccount(), { permissions: [], policy: true });
    await screen.findByRole('heading', { name: 'ACC000001 - Acme Widgets Ltd' });
    await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    for (const name of [
      'Auto-apply settlements',
      'Late payments',
      'Edit payment status',
      'Edit payment override',
      'Default usage type',
    ]) {
      expect(screen.getByRole('textbox', { name })).toBeDisabled();
    }
  });

  it('says the account was not found, with the way back', async () => {
    stubFetch({
      [`GET /accounts/${accountId}`]: {
        status: 404,
        body: {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'Account was not found.',
        },
      },
    });
    renderWithProviders(<p>Elsewhere</p>, {
      user: aUser(),
      path: `/accounts/${accountId}`,
      routes: [{ path: '/accounts/:id', element: <AccountPage /> }],
    });
    expect(await screen.findByText('The account was not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Accounts' })).toHaveAttribute(
      'href',
      '/accounts',
    );
  });
});
