import { providerConnectionMessages as messages } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { GoCardlessReturnPage, StripeConnectReturnPage } from './provider-return-pages';
import { StripeAccountCard } from './stripe-account-card';

// jsdom cannot leave the page: the navigation to the provider is recorded instead.
const { assignLocation } = vi.hoisted(() => ({ assignLocation: vi.fn() }));
vi.mock('@/lib/browser-location', () => ({
  assignLocation,
  reloadPage: vi.fn(),
  replaceLocation: vi.fn(),
}));

/** The server's refusal of an authorisation state. */
const stateRefused = (detail: string) => ({
  status: 400,
  body: {
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail,
    errorCode: 'AuthorisationStateRefused',
  },
});

const providerId = '0199f0aa-0000-7000-8000-000000000009';
const providerPage = {
  path: `/settings/payment-providers/${providerId}`,
  element: <p>The provider page</p>,
};

function renderReturn(element: React.ReactElement, path: string) {
  renderWithProviders(<p>other</p>, {
    user: aUser(),
    path,
    routes: [providerPage, { path: path.split('?')[0]!, element }],
  });
}

describe('Stripe connection return', () => {
  it('hands the code and the state to the server, toasts and opens the provider page', async () => {
    const state = '|0|test|issued-by-the-server';
    const calls = stubFetch({
      'POST /stripe/account/connect': {
        body: { paymentProviderId: providerId, account: { id: 'acct_1', displayName: 'Shop' } },
      },
    });
    renderReturn(
      <StripeConnectReturnPage />,
      `/stripe-connect/connect/oauth?code=ac_1&state=${encodeURIComponent(state)}`,
    );
    expect(await screen.findByText('The provider page')).toBeInTheDocument();
    expect(screen.getByText(messages.stripeConnected)).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.url).toBe(
      `/api/v0/stripe/account/connect?code=ac_1&state=${encodeURIComponent(state)}`,
    );
  });

  it("shows the provider's error description and a way back", async () => {
    const calls = stubFetch({});
    renderReturn(
      <StripeConnectReturnPage />,
      '/stripe-connect/connect/oauth?error=access_denied&error_description=The%20user%20denied%20your%20request',
    );
    expect(await screen.findByText('The user denied your request')).toBeInTheDocument();
    expect(screen.getByText(messages.stripeConnectFailed)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the payment providers' })).toHaveAttribute(
      'href',
      '/settings/payment-providers',
    );
    expect(calls).toHaveLength(0);
  });

  it("shows the server's refusal of a state this session was not given, or one spent or expired", async () => {
    for (const detail of [messages.stateMismatch, messages.stateSpent]) {
      const calls = stubFetch({ 'POST /stripe/account/connect': stateRefused(detail) });
      const { unmount } = renderWithProviders(<p>other</p>, {
        user: aUser(),
        path: `/stripe-connect/connect/oauth?code=ac_1&state=${encodeURIComponent('|0|test|forged')}`,
        routes: [
          providerPage,
          { path: '/stripe-connect/connect/oauth', element: <StripeConnectReturnPage /> },
        ],
      });
      expect(await screen.findByText(detail)).toBeInTheDocument();
      expect(
        screen.getByRole('link', { name: 'Back to the payment providers' }),
      ).toBeInTheDocument();
      expect(calls.map((call) => call.url)).toEqual([
        `/api/v0/stripe/account/connect?code=ac_1&state=${encodeURIComponent('|0|test|forged')}`,
      ]);
      unmount();
    }
  });

  it("shows the server's message (spec 3 §5) when the exchange is refused", async () => {
    const nonce = 'n';
    stubFetch({
      'POST /stripe/account/connect': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: messages.testModeMismatch,
        },
      },
    });
    renderReturn(
      <StripeConnectReturnPage />,
      `/stripe-connect/connect/oauth?code=ac_1&state=${encodeURIComponent(`|0|live|${nonce}`)}`,
    );
    expect(await screen.findByText(messages.testModeMismatch)).toBeInTheDocument();
  });
});

describe('GoCardless return', () => {
  it('completes with the code and the state, toasts and opens the provider page', async () => {
    const nonce = 'issued-by-the-server';
    const calls = stubFetch({
      'POST /gocardless/authorise/complete': {
        body: { success: true, paymentProviderId: providerId, errorMessage: null },
      },
    });
    renderReturn(<GoCardlessReturnPage />, `/gocardless/connect/oauth?code=abc&state=${nonce}`);
    expect(await screen.findByText('The provider page')).toBeInTheDocument();
    expect(screen.getByText(messages.goCardlessAuthorised)).toBeInTheDocument();
    expect(calls.map((call) => call.url)).toEqual([
      `/api/v0/gocardless/authorise/complete?code=abc&state=${nonce}`,
    ]);
  });

  it("shows the server's refusal of the state, and a way back", async () => {
    stubFetch({ 'POST /gocardless/authorise/complete': stateRefused(messages.stateSpent) });
    renderReturn(<GoCardlessReturnPage />, '/gocardless/connect/oauth?code=abc&state=spent');
    expect(await screen.findByText(messages.stateSpent)).toBeInTheDocument();
    expect(screen.getByText(messages.goCardlessFailed)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the payment providers' })).toBeInTheDocument();
  });

  it('shows the errorMessage of an unsuccessful completion', async () => {
    const nonce = 'issued-by-the-server';
    stubFetch({
      'POST /gocardless/authorise/complete': {
        body: {
          success: false,
          paymentProviderId: null,
          errorMessage: 'The authorization code is invalid or has expired.',
        },
      },
    });
    renderReturn(<GoCardlessReturnPage />, `/gocardless/connect/oauth?code=abc&state=${nonce}`);
    expect(
      await screen.findByText('The authorization code is invalid or has expired.'),
    ).toBeInTheDocument();
    expect(screen.getByText(messages.goCardlessFailed)).toBeInTheDocument();
  });
});

describe('Stripe account card', () => {
  const account = {
    valid: true,
    id: 'acct_1',
    displayName: 'Shop Ltd',
    defaultCurrency: 'GBP',
    isLegacyAccount: true,
    isTestMode: true,
    capabilities: { cardPayments: 'inactive' },
  };

  it('not connected: explains and offers Connect', async () => {
    stubFetch({
      'GET /stripe/keys': {
        body: {
          isTestMode: true,
          connectClientId: 'ca_1',
          authoriseUrl: 'https://connect.stripe.test/oauth/authorize',
        },
      },
    });
    renderWithProviders(<StripeAccountCard configurationId={providerId} stripeAccountId={null} />, {
      user: aUser(),
    });
    expect(await screen.findByText(/does not take payments until it is/)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Connect with Stripe' })).toBeEnabled(),
    );
  });

  it('Connect asks the server to start the authorisation and goes to the address it answers', async () => {
    const url = 'https://connect.stripe.test/oauth/authorize?state=issued';
    const calls = stubFetch({
      'GET /stripe/keys': {
        body: {
          isTestMode: true,
          connectClientId: 'ca_1',
          authoriseUrl: 'https://connect.stripe.test/oauth/authorize',
        },
      },
      'POST /stripe/account/connect/start': { body: { url, state: 'issued' } },
    });
    renderWithProviders(<StripeAccountCard configurationId={providerId} stripeAccountId={null} />, {
      user: aUser(),
    });
    const connect = await screen.findByRole('button', { name: 'Connect with Stripe' });
    await waitFor(() => expect(connect).toBeEnabled());
    await userEvent.click(connect);
    await waitFor(() => expect(assignLocation).toHaveBeenCalledWith(url));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      paymentProviderId: providerId,
    });
  });

  it('connected: the name, tags, warnings and Disconnect after confirmation', async () => {
    const calls = stubFetch({
      [`GET /stripe/payment-provider/${providerId}/account`]: { body: account },
      [`POST /stripe/payment-provider/${providerId}/account/disconnect`]: { status: 204 },
    });
    renderWithProviders(
      <StripeAccountCard configurationId={providerId} stripeAccountId="acct_1" />,
      { user: aUser() },
    );
    expect(await screen.findByDisplayValue('Shop Ltd')).toBeInTheDocument();
    for (const text of ['GBP', 'Test mode', 'Legacy account', messages.cardPaymentsUnsupported])
      expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.getByText(/legacy Stripe account. Contact support/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText(messages.disconnectConfirm)).toBeInTheDocument();
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() =>
      expect(calls.some((call) => call.url.endsWith('/account/disconnect'))).toBe(true),
    );
  });

  it("an account Stripe will not show: 'account not valid'", async () => {
    stubFetch({
      [`GET /stripe/payment-provider/${providerId}/account`]: {
        body: { ...account, valid: false },
      },
    });
    renderWithProviders(
      <StripeAccountCard configurationId={providerId} stripeAccountId="acct_1" />,
      { user: aUser() },
    );
    expect(await screen.findByText(messages.accountNotValid)).toBeInTheDocument();
  });
});
