import {
  paymentProviderMessages as messages,
  secretSentinel,
  tranSafeTestCredentials,
  type PaymentProvider,
} from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { EditProviderPage, NewProviderPage } from './provider-form-page';

const routes = (element: React.ReactElement) => [
  { path: '/settings/payment-providers/new/:type', element },
  { path: '/settings/payment-providers/:id', element },
  { path: '/settings/payment-providers', element: <p>The providers list</p> },
];

function renderNew(type: string, flags = {}) {
  const calls = stubFetch({
    'POST /providers': (call) => ({
      status: 201,
      body: { ...created, ...(call.body as object), credentials: {} },
    }),
  });
  renderWithProviders(<p>other</p>, {
    user: aUser(),
    flags,
    path: `/settings/payment-providers/new/${type}`,
    routes: routes(<NewProviderPage />),
  });
  return calls;
}

const created = {
  id: '0199f0aa-0000-7000-8000-0000000000aa',
  isDefault: true,
  isTest: false,
  filterCount: 0,
  description: null,
  createdOn: '2026-01-05T09:00:00.000Z',
  updatedOn: '2026-01-05T09:00:00.000Z',
};

const opayo: PaymentProvider = {
  id: '0199f0aa-0000-7000-8000-000000000001',
  providerName: 'Opayo',
  name: 'Opayo cards',
  description: null,
  enabled: true,
  displayPriority: 10,
  isTest: true,
  isDefault: true,
  filterCount: 0,
  settings: { useTestServer: true, integrationType: 'Server', vendorTxCodeType: 'PaymentRequest' },
  credentials: {
    vendorName: 'vendor',
    adminUser: 'admin',
    adminPassword: secretSentinel,
    integrationKey: null,
    integrationPassword: null,
  },
  paymentMethodConfigurations: [{ paymentMethodType: 'Card', enabled: true, filterGroup: null }],
  createdOn: '2026-01-05T09:00:00.000Z',
  updatedOn: '2026-01-05T09:00:00.000Z',
};

describe('provider forms', () => {
  it("an unknown type shows 'unknown provider'", async () => {
    renderNew('PayPal');
    expect(await screen.findByText(messages.unknownProvider)).toBeInTheDocument();
  });

  it('Opayo: Server by default, Pi offered only with its flag (then the default)', async () => {
    renderNew('Opayo');
    expect(await screen.findByRole('heading', { name: 'Add Opayo Provider' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Options' }));
    expect(screen.getByRole('radio', { name: 'Server (a hosted card page)' })).toBeChecked();
    expect(
      screen.queryByRole('radio', { name: 'Pi (an integrated form)' }),
    ).not.toBeInTheDocument();
  });

  it('Opayo with the OpayoPi flag defaults to Pi and asks for the integration key', async () => {
    renderNew('Opayo', { OpayoPi: true });
    await userEvent.click(await screen.findByRole('tab', { name: 'Options' }));
    expect(screen.getByRole('radio', { name: 'Pi (an integrated form)' })).toBeChecked();
    await userEvent.click(screen.getByRole('tab', { name: 'General' }));
    expect(screen.getByLabelText(/Integration key/)).toBeInTheDocument();
  });

  it(
    'a failed validation opens the tab of the first invalid field (bank details)',
    { timeout: 20_000 },
    async () => {
      const calls = renderNew('TrueLayer');
      await userEvent.type(await screen.findByLabelText(/^Name/), 'Bank transfer');
      await userEvent.type(screen.getByLabelText(/Client ID/), 'client');
      await userEvent.type(screen.getByLabelText(/Client Secret/), 'secret');
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText(messages.accountNumber)).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'Bank details' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      expect(screen.getByLabelText(/Payees Name/)).toBeInTheDocument();
      expect((screen.getAllByLabelText(/Payees Reference/)[0] as HTMLInputElement).value).toBe(
        '{accountReference}',
      );
      expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    },
  );

  it(
    'TrueLayer signing key: a text that is no PEM private key is refused under the field, a pasted one-line PEM is not',
    { timeout: 30_000 },
    async () => {
      const calls = renderNew('TrueLayer');
      await userEvent.type(await screen.findByLabelText(/^Name/), 'Bank transfer');
      await userEvent.type(screen.getByLabelText(/Client ID/), 'client');
      await userEvent.type(screen.getByLabelText(/Client Secret/), 'secret');
      const key = screen.getByLabelText(/Signing private key/);
      await userEvent.type(key, 'not a key');
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      // The bank details are missing too: the form opened that tab first.
      await userEvent.click(await screen.findByRole('tab', { name: 'General' }));
      expect(await screen.findByText(messages.signingPrivateKey)).toBeInTheDocument();
      await userEvent.clear(screen.getByLabelText(/Signing private key/));
      // A pasted PEM loses its line breaks in a password input: still a PEM private key.
      await userEvent.click(screen.getByLabelText(/Signing private key/));
      await userEvent.paste(
        '-----BEGIN PRIVATE KEY-----MIHuAgEAMBAGByqGSM49AgEGBSuBBAAj-----END PRIVATE KEY-----',
      );
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      await userEvent.click(await screen.findByRole('tab', { name: 'General' }));
      await waitFor(() =>
        expect(screen.queryByText(messages.signingPrivateKey)).not.toBeInTheDocument(),
      );
      expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    },
  );

  it(
    'TrueLayer merchant account without the signing key: refused under the field, on the General tab',
    { timeout: 30_000 },
    async () => {
      const calls = renderNew('TrueLayer');
      await userEvent.type(await screen.findByLabelText(/^Name/), 'Bank transfer');
      await userEvent.type(screen.getByLabelText(/Client ID/), 'client');
      await userEvent.type(screen.getByLabelText(/Client Secret/), 'secret');
      await userEvent.type(
        screen.getByLabelText(/Merchant account ID/),
        '0199f0aa-0000-7000-8000-0000000000ab',
      );
      // The bank details are complete: the merchant account is the one invalid field.
      await userEvent.click(screen.getByRole('tab', { name: 'Bank details' }));
      await userEvent.type(screen.getByLabelText(/Account Number/), '12345678');
      await userEvent.type(screen.getByLabelText(/Sort Code/), '040004');
      await userEvent.type(screen.getByLabelText(/Payees Name/), 'Ledgerline Ltd');
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText(messages.merchantAccountNeedsSigningKey)).toBeInTheDocument();
      expect(screen.getByRole('tab', { name: 'General' })).toHaveAttribute('aria-selected', 'true');
      expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    },
  );

  it('the common rules show on the General tab: name and priority', async () => {
    renderNew('Sandbox');
    const priority = await screen.findByLabelText(/Display priority/);
    await userEvent.clear(priority);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(messages.priorityRequired)).toBeInTheDocument();
  });

  it('TranSafe test switch fills the fixed test credentials and disables them; save posts and returns to the list', async () => {
    const calls = renderNew('TranSafe');
    await userEvent.type(await screen.findByLabelText(/^Name/), 'TranSafe test');
    await userEvent.click(screen.getByRole('switch', { name: 'Use test site' }));
    const userName = screen.getByLabelText(/User name/) as HTMLInputElement;
    expect(userName.value).toBe(tranSafeTestCredentials.userName);
    expect(userName).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The providers list')).toBeInTheDocument();
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toMatchObject({
      providerName: 'TranSafe',
      name: 'TranSafe test',
      settings: { useTestSite: true },
      paymentMethodConfigurations: [
        { paymentMethodType: 'Card', enabled: true, filterGroup: null },
      ],
    });
    expect(screen.getByText(messages.added)).toBeInTheDocument();
  });

  it(
    'the item-filter dialog refuses a maximum not above the minimum and stores the filters',
    { timeout: 20_000 },
    async () => {
      const calls = renderNew('Sandbox');
      await userEvent.type(await screen.findByLabelText(/^Name/), 'Filtered');
      await userEvent.click(screen.getByRole('button', { name: 'Item filters' }));
      const minimum = screen.getByLabelText('Minimum payment amount');
      const maximum = screen.getByLabelText('Maximum payment amount');
      await userEvent.type(minimum, '10');
      await userEvent.type(maximum, '5');
      await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
      expect(await screen.findByText(messages.maximumNotAboveMinimum)).toBeInTheDocument();
      await userEvent.type(maximum, '00');
      await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
      expect(await screen.findByRole('button', { name: 'Item filters (1)' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
      expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
        paymentMethodConfigurations: [
          {
            filterGroup: {
              filterConfigurations: [
                { filterType: 'PaymentAmount', minimumPaymentValue: 10, maximumPaymentValue: 500 },
              ],
            },
          },
        ],
      });
    },
  );

  it('edit: the title is the configuration name, the stored password goes back as the sentinel', async () => {
    const calls = stubFetch({
      [`GET /providers/${opayo.id}`]: { body: opayo },
      'PUT /providers': (call) => ({ body: { ...opayo, ...(call.body as object) } }),
    });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: `/settings/payment-providers/${opayo.id}`,
      routes: routes(<EditProviderPage />),
    });
    expect(await screen.findByRole('heading', { name: 'Edit Opayo Provider' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toContain('Opayo cards'));
    // The configuration's provider data, on its edit page only.
    expect(screen.getByRole('button', { name: 'Provider data' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The providers list')).toBeInTheDocument();
    // spec 3 §4: the server's save registers the IP address first; the site makes one call.
    const writes = calls.filter((call) => call.method !== 'GET');
    expect(writes.map((call) => `${call.method} ${call.url}`)).toEqual(['PUT /api/v0/providers']);
    expect(writes[0]?.body).toMatchObject({
      id: opayo.id,
      credentials: { adminPassword: secretSentinel, vendorName: 'vendor' },
    });
  });

  it('a Server-type Opayo save that the server stops at the IP registration shows why and stays', async () => {
    const calls = stubFetch({
      [`GET /providers/${opayo.id}`]: { body: opayo },
      'PUT /providers': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'The admin password is wrong.',
          errorCode: 'OpayoIpNotRegistered',
        },
      },
    });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: `/settings/payment-providers/${opayo.id}`,
      routes: routes(<EditProviderPage />),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The admin password is wrong.')).toBeInTheDocument();
    expect(screen.getByText('IP address not registered')).toBeInTheDocument();
    // Still on the form: nothing was saved.
    expect(screen.queryByText('The providers list')).toBeNull();
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);
  });

  it('Test Connection shows the 0010 message with the vendor, then success', async () => {
    let answer = {
      success: false,
      errorCode: '0010',
      detail: 'The signature is invalid.',
    } as object;
    stubFetch({
      [`GET /providers/${opayo.id}`]: { body: opayo },
      'POST /opayo/admin/test-connection': () => ({ body: answer }),
    });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: `/settings/payment-providers/${opayo.id}`,
      routes: routes(<EditProviderPage />),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText('The admin password is wrong.')).toBeInTheDocument();
    expect(screen.getByText('Opayo vendor vendor')).toBeInTheDocument();
    answer = { success: true, errorCode: null, detail: null };
    await userEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByText('Connection successful.')).toBeInTheDocument();
  });

  it('TrueLayer Test Connection sends the stored secret as the sentinel with the configuration', async () => {
    const trueLayer: PaymentProvider = {
      ...opayo,
      id: '0199f0aa-0000-7000-8000-000000000003',
      providerName: 'TrueLayer',
      name: 'Bank transfer',
      settings: {
        beneficiaryName: 'Ledgerline Ltd',
        beneficiaryReference: '{accountReference}',
        remitterReference: '{companyName}',
        beneficiaryBankAccount: {
          accountName: null,
          accountNumber: '12345678',
          sortCode: '123456',
          iban: null,
          currency: 'GBP',
        },
      },
      credentials: { clientId: 'client', clientSecret: secretSentinel, useSandbox: true },
    };
    const calls = stubFetch({
      [`GET /providers/${trueLayer.id}`]: { body: trueLayer },
      'POST /truelayer/admin/test-connection': {
        body: {
          success: false,
          message: 'TrueLayer refused the client credentials (invalid_client).',
        },
      },
    });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: `/settings/payment-providers/${trueLayer.id}`,
      routes: routes(<EditProviderPage />),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Test Connection' }));
    expect(
      await screen.findByText('TrueLayer refused the client credentials (invalid_client).'),
    ).toBeInTheDocument();
    expect(calls.find((call) => call.url.includes('truelayer'))?.body).toEqual({
      clientId: 'client',
      clientSecret: secretSentinel,
      useSandbox: true,
      paymentProviderId: trueLayer.id,
    });
  });
});

// Spec 2 §2: "Breadcrumb helpers exist for … payment providers and settlements."
describe('the payment provider pages’ breadcrumbs', () => {
  it('lead from Payment Providers to the configuration being edited', async () => {
    stubFetch({ [`GET /providers/${opayo.id}`]: { body: opayo } });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: `/settings/payment-providers/${opayo.id}`,
      routes: routes(<EditProviderPage />),
    });
    await screen.findByRole('heading', { name: 'Edit Opayo Provider' });
    const trail = screen.getByRole('link', { name: 'Payment Providers' }).parentElement!;
    expect(screen.getByRole('link', { name: 'Payment Providers' })).toHaveAttribute(
      'href',
      '/settings/payment-providers',
    );
    expect(trail).toHaveTextContent('Opayo cards');
    await userEvent.click(screen.getByRole('link', { name: 'Payment Providers' }));
    expect(await screen.findByText('The providers list')).toBeInTheDocument();
  });

  it('lead from Payment Providers to the new configuration of a kind', async () => {
    renderNew('TranSafe');
    await screen.findByRole('heading', { name: 'Add TranSafe Provider' });
    expect(screen.getByRole('link', { name: 'Payment Providers' })).toHaveAttribute(
      'href',
      '/settings/payment-providers',
    );
    expect(screen.getByText('New TranSafe Provider')).toBeInTheDocument();
  });
});
