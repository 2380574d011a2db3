import {
  paymentProviderMessages as messages,
  paymentProviderTypes,
  type PaymentProviderSummary,
} from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { areaRoutes } from '@/app/routes';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { offeredTypes } from './add-provider-dialog';
import { PaymentProvidersPage } from './payment-providers-page';

beforeAll(prepareGridTests);

function aProvider(overrides: Partial<PaymentProviderSummary> = {}): PaymentProviderSummary {
  return {
    id: '0199f0aa-0000-7000-8000-000000000001',
    providerName: 'Opayo',
    name: 'Opayo cards',
    description: 'Cards on the payment page',
    enabled: true,
    displayPriority: 10,
    isTest: false,
    isDefault: false,
    filterCount: 2,
    settings: {},
    paymentMethodConfigurations: [],
    createdOn: '2026-01-05T09:00:00.000Z',
    updatedOn: '2026-01-05T09:00:00.000Z',
    ...overrides,
  };
}
const opayo = aProvider();
const sandbox = aProvider({
  id: '0199f0aa-0000-7000-8000-000000000002',
  providerName: 'Sandbox',
  name: 'Demo sandbox',
  description: null,
  isTest: true,
  filterCount: 0,
});

function renderPage(items: PaymentProviderSummary[], defaultId: string | null, extra = {}) {
  const calls = stubFetch({
    'GET /providers': { body: { items, totalItems: items.length } },
    'GET /providers/default': { body: { paymentProviderId: defaultId } },
    'GET /providers/types': { body: paymentProviderTypes },
    'GET /tenant-settings/ShowBetaPaymentProviders': {
      body: { name: 'ShowBetaPaymentProviders', value: 'false' },
    },
    ...extra,
  });
  renderWithProviders(<PaymentProvidersPage />, {
    user: aUser(),
    path: '/settings/payment-providers',
  });
  return calls;
}

describe('Payment providers list', () => {
  it('asks for the list sorted by name and says when no provider is configured', async () => {
    const calls = renderPage([], null);
    const [alert] = await screen.findAllByRole('alert');
    expect(alert).toHaveTextContent(messages.noProvidersConfigured);
    expect(screen.queryByText(messages.noDefaultSelected)).not.toBeInTheDocument();
    const list = calls.find((call) => /\/providers\?/.test(call.url));
    expect(list?.url).toBe('/api/v0/providers?page=1&itemsPerPage=10&sort=name');
  });

  it('shows the red banner without a default, and the make-default link sets one', async () => {
    const calls = renderPage([sandbox, opayo], null, {
      'PUT /providers/default': { body: { paymentProviderId: opayo.id } },
    });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(messages.noDefaultSelected);
    const row = (await screen.findByText('Opayo cards')).closest('tr') as HTMLElement;
    for (const text of ['Cards on the payment page', '10', '2', 'Enabled']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    await userEvent.click(
      within(row).getByRole('button', { name: 'Make Opayo cards the default' }),
    );
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      paymentProviderId: opayo.id,
    });
    expect(await screen.findByText(messages.defaultUpdated)).toBeInTheDocument();
  });

  it('tags the default and shows no banner', async () => {
    renderPage([sandbox, { ...opayo, isDefault: true }], opayo.id);
    const row = (await screen.findByText('Opayo cards')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Default')).toBeInTheDocument();
    const sandboxRow = screen.getByText('Demo sandbox').closest('tr') as HTMLElement;
    expect(within(sandboxRow).getByText('Test')).toBeInTheDocument();
    expect(screen.queryByText(messages.noDefaultSelected)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when the list cannot be loaded', async () => {
    renderPage([], null, {
      'GET /providers': {
        status: 500,
        body: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
      },
    });
    expect(await screen.findByText(messages.loadFailed)).toBeInTheDocument();
  });

  it('the add dialog shows the cards to select, the Sandbox as a test provider', async () => {
    renderPage([], null);
    await userEvent.click(await screen.findByRole('button', { name: 'Add Provider' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('button', { name: 'Select Opayo' })).toBeInTheDocument();
    expect(within(dialog).getByText('Test provider')).toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: 'Select TrueLayer' }),
    ).not.toBeInTheDocument();
  });
});

describe('which cards the add dialog offers', () => {
  const names = (showBeta: boolean, flags: Record<string, boolean> = {}) =>
    offeredTypes(paymentProviderTypes, showBeta, flags).map((type) => type.providerName);

  it('hides beta kinds unless ShowBetaPaymentProviders, and a kind whose flag is off', () => {
    expect(names(false)).toEqual(['TranSafe', 'Opayo', 'Oppwa', 'Stripe', 'GoCardless', 'Sandbox']);
    expect(names(true)).toEqual([
      'TranSafe',
      'Opayo',
      'TrueLayer',
      'Oppwa',
      'Stripe',
      'GoCardless',
      'Sandbox',
    ]);
    expect(names(false, { StripeProvider: false })).toEqual([
      'TranSafe',
      'Opayo',
      'Oppwa',
      'GoCardless',
      'Sandbox',
    ]);
  });
});

// Spec 1 §2.1 lists /settings/payment-providers/new among the payment provider routes;
// it was read as the id 'new' and showed 'An error occurred loading the data'.
describe('/settings/payment-providers/new', () => {
  /** Every payment provider route of the site, ranked as the router ranks them. */
  async function renderProviderRoutes(path: string) {
    stubFetch({
      'GET /providers': { body: { items: [opayo], totalItems: 1 } },
      'GET /providers/default': { body: { paymentProviderId: opayo.id } },
      'GET /providers/types': { body: paymentProviderTypes },
      'GET /tenant-settings/ShowBetaPaymentProviders': {
        body: { name: 'ShowBetaPaymentProviders', value: 'false' },
      },
    });
    const routes = await Promise.all(
      areaRoutes
        .filter((route) => route.path.startsWith('/settings/payment-providers'))
        .map(async (route) => {
          const Page = await route.page();
          return { path: route.path, element: <Page /> };
        }),
    );
    return renderWithProviders(<p>Elsewhere</p>, { user: aUser(), path, routes });
  }

  it('shows the provider choice over the list, not a failed load', async () => {
    const { router } = await renderProviderRoutes('/settings/payment-providers/new');
    const dialog = await screen.findByRole('dialog', { name: 'Add Payment Provider' });
    expect(await within(dialog).findByRole('button', { name: 'Select Opayo' })).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Select Sandbox (test provider)' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Opayo cards')).toBeInTheDocument();
    expect(screen.queryByText('An error occurred loading the data')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/payment-providers/new');
    expect(
      areaRoutes.find((route) => route.path === '/settings/payment-providers/new')?.permission,
    ).toBe('ConfigurePaymentProvider');
  });

  it('a Select opens that kind’s add form', async () => {
    const { router } = await renderProviderRoutes('/settings/payment-providers/new');
    const dialog = await screen.findByRole('dialog', { name: 'Add Payment Provider' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Select Opayo' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/settings/payment-providers/new/Opayo'),
    );
  });

  it('closing the choice returns to the list', async () => {
    const { router } = await renderProviderRoutes('/settings/payment-providers/new');
    const dialog = await screen.findByRole('dialog', { name: 'Add Payment Provider' });
    await within(dialog).findByRole('button', { name: 'Select Opayo' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/payment-providers'));
    await waitFor(() =>
      expect(
        screen.queryByRole('dialog', { name: 'Add Payment Provider' }),
      ).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Opayo cards')).toBeInTheDocument();
  });
});
