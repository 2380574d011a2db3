import {
  defaultUserSetting,
  type PaymentProviderEvent,
  type UserSetting,
} from '@ledgerline/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { ProviderDataButton } from './provider-data-dialog';

const providerId = '0199f0aa-0000-7000-8000-000000000011';
const eventsPath = `GET /providers/${providerId}/events`;

const event = (overrides: Partial<PaymentProviderEvent>): PaymentProviderEvent => ({
  id: '0199f0aa-0000-7000-8000-0000000000e1',
  paymentProviderId: providerId,
  providerName: 'Stripe',
  eventType: 'oauth.token',
  recordType: 'account',
  recordId: null,
  status: 'connected',
  payload: JSON.stringify({
    request: { method: 'POST', url: 'https://connect.stripe.com/oauth/token', body: {} },
    response: {
      status: 200,
      body: '{"stripe_user_id":"acct_1Shop","access_token":"[kept sealed]"}',
    },
  }),
  createdOn: '2026-04-08T14:30:00.000Z',
  ...overrides,
});

function renderButton(timeZoneId: UserSetting['timeZoneId'] = defaultUserSetting.timeZoneId) {
  renderWithProviders(<ProviderDataButton paymentProviderId={providerId} providerName="Stripe" />, {
    user: aUser({ userSetting: { ...defaultUserSetting, timeZoneId } }),
  });
  return userEvent.click(screen.getByRole('button', { name: 'Provider data' }));
}

describe('the provider data dialog of a configuration', () => {
  it('lists the events newest first, in the user’s time zone, with the request and answer on demand', async () => {
    const calls = stubFetch({
      [eventsPath]: {
        body: {
          totalItems: 2,
          items: [
            event({
              id: '0199f0aa-0000-7000-8000-0000000000e2',
              eventType: 'account.read',
              status: 'read',
            }),
            event({ createdOn: '2026-04-08T14:29:00.000Z', status: 'http_400' }),
          ],
        },
      },
    });
    await renderButton('Tokyo Standard Time');
    const dialog = await screen.findByRole('dialog', { name: 'Provider data' });
    expect(await within(dialog).findByText('account.read')).toBeInTheDocument();
    expect(within(dialog).getByText('oauth.token')).toBeInTheDocument();
    expect(within(dialog).getByText('read')).toBeInTheDocument();
    expect(within(dialog).getByText('http_400')).toBeInTheDocument();
    // 14:30 UTC is 23:30 in Tokyo.
    expect(within(dialog).getByText('2026/04/08 23:30:00')).toBeInTheDocument();
    expect(within(dialog).getByText('2026/04/08 23:29:00')).toBeInTheDocument();
    expect(within(dialog).queryByText(/acct_1Shop/)).not.toBeInTheDocument();

    const [, second] = within(dialog).getAllByRole('button', { name: 'Show request and answer' });
    await userEvent.click(second!);
    // The answer's JSON is shown as JSON, not as an escaped string.
    const shown = within(dialog).getByText(/"stripe_user_id": "acct_1Shop"/);
    expect(shown.textContent).toContain('"access_token": "[kept sealed]"');
    expect(shown.textContent).toContain('"url": "https://connect.stripe.com/oauth/token"');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hide request and answer' }));
    expect(within(dialog).queryByText(/acct_1Shop/)).not.toBeInTheDocument();
    expect(calls[0]?.url).toBe(`/api/v0/providers/${providerId}/events?page=1&itemsPerPage=10`);
  });

  it('pages through more than one page of events', async () => {
    const calls = stubFetch({
      [eventsPath]: (call) => ({
        body: {
          totalItems: 12,
          items: call.url.includes('page=2')
            ? [event({ eventType: 'version', status: '0010' })]
            : [event({ eventType: 'account.read' })],
        },
      }),
    });
    await renderButton();
    const dialog = await screen.findByRole('dialog', { name: 'Provider data' });
    expect(await within(dialog).findByText('account.read')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: '2' }));
    expect(await within(dialog).findByText('version')).toBeInTheDocument();
    expect(calls.at(-1)?.url).toContain('page=2');
  });

  it('says so when the provider has said nothing yet', async () => {
    stubFetch({ [eventsPath]: { body: { totalItems: 0, items: [] } } });
    await renderButton();
    expect(await screen.findByText('No provider data yet')).toBeInTheDocument();
  });

  it('shows a loading state, then the error when the events cannot be read', async () => {
    let answer: (value: Response) => void = () => undefined;
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    vi.stubGlobal('fetch', () => pending);
    await renderButton();
    expect(await screen.findByLabelText('Loading the provider data')).toBeInTheDocument();
    answer(
      new Response(JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403 }), {
        status: 403,
        headers: { 'Content-Type': 'application/problem+json' },
      }),
    );
    expect(await screen.findByText('Error loading data')).toBeInTheDocument();
  });
});
