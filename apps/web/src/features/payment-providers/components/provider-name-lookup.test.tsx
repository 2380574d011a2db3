import { paymentProviderMessages as messages, type PaymentProvider } from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { EditProviderPage, NewProviderPage } from './provider-form-page';

/** spec 3 §5 "A payment provider name must be unique (a lookup checks whether a name exists)". */

const routes = (element: React.ReactElement) => [
  { path: '/settings/payment-providers/new/:type', element },
  { path: '/settings/payment-providers/:id', element },
  { path: '/settings/payment-providers', element: <p>The providers list</p> },
];

const tranSafe: PaymentProvider = {
  id: '0199f0aa-0000-7000-8000-000000000021',
  providerName: 'TranSafe',
  name: 'Card gateway',
  description: null,
  enabled: true,
  displayPriority: 0,
  isTest: true,
  isDefault: true,
  filterCount: 0,
  settings: { useTestSite: true },
  credentials: { userName: 'user', password: null },
  paymentMethodConfigurations: [{ paymentMethodType: 'Card', enabled: true, filterGroup: null }],
  createdOn: '2026-01-05T09:00:00.000Z',
  updatedOn: '2026-01-05T09:00:00.000Z',
};
const { credentials: _credentials, ...summary } = tranSafe;

/** The company's names: a lookup `name eq X` finds them whatever their case, as the server does. */
function lookup(call: StubbedCall) {
  const filter = new URL(call.url, 'http://localhost').searchParams.get('filter') ?? '';
  const name = /^name eq (.*)$/.exec(filter)?.[1]?.replace(/\\(.)/g, '$1') ?? null;
  const items = name?.toLowerCase() === 'card gateway' ? [summary] : [];
  return { body: { items, totalItems: items.length } };
}
const lookups = (calls: StubbedCall[]) =>
  calls
    .filter((call) => call.method === 'GET' && call.url.startsWith('/api/v0/providers?'))
    .map((call) => new URL(call.url, 'http://localhost').searchParams.get('filter'));

describe('the Name field looks the name up as it is typed', () => {
  it('adding: a name the company has says so under the field, once typing pauses', async () => {
    const calls = stubFetch({ 'GET /providers': lookup });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: '/settings/payment-providers/new/TranSafe',
      routes: routes(<NewProviderPage />),
    });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await userEvent.type(name, 'CARD gateway');
    expect(await screen.findByText(messages.nameExists)).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // Debounced: the whole name is asked, not a lookup per key (a slow machine may pause once).
    expect(lookups(calls).at(-1)).toBe('name eq CARD gateway');
    expect(lookups(calls).length).toBeLessThan(3);

    await userEvent.type(name, ' 2');
    // The message may go as the name changes, before the debounced lookup of the new name is sent:
    // wait for that lookup, then for its answer.
    await waitFor(() => expect(lookups(calls).at(-1)).toBe('name eq CARD gateway 2'));
    await waitFor(() => expect(screen.queryByText(messages.nameExists)).toBeNull());
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('a comma in the name is escaped, not read as a second filter', async () => {
    const calls = stubFetch({ 'GET /providers': lookup });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: '/settings/payment-providers/new/TranSafe',
      routes: routes(<NewProviderPage />),
    });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Cards, UK');
    await waitFor(() => expect(lookups(calls)).toEqual(['name eq Cards\\, UK']));
    expect(screen.queryByText(messages.nameExists)).toBeNull();
  });

  it('editing: its own name is not taken', async () => {
    const calls = stubFetch({
      [`GET /providers/${tranSafe.id}`]: { body: tranSafe },
      'GET /providers': lookup,
    });
    renderWithProviders(<p>other</p>, {
      user: aUser(),
      path: `/settings/payment-providers/${tranSafe.id}`,
      routes: routes(<EditProviderPage />),
    });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(lookups(calls)).toEqual(['name eq Card gateway']));
    expect(screen.queryByText(messages.nameExists)).toBeNull();
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
  });
});
