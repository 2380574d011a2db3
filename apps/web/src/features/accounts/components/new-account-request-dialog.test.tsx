import type { Dataset } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aDataset, aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { prepareGridTests } from '@/ui/grid-test-support';
import { aPaymentRequest, accountId, anAccount } from './account-fixtures';
import { AccountPage } from './account-page';

beforeAll(prepareGridTests);

function renderPage(
  account = anAccount(),
  options: {
    permissions?: string[];
    policy?: boolean;
    companyCurrency?: Dataset['currency'] | 'SEK';
    created?: { status: number; body: unknown };
    requestSettings?: unknown;
    routes?: Parameters<typeof stubFetch>[0];
  } = {},
) {
  const calls = stubFetch({
    [`GET /accounts/${accountId}`]: { body: account },
    'GET /data-sets/all': {
      body: {
        items: [
          aDataset({ id: 1, currency: (options.companyCurrency ?? 'GBP') as Dataset['currency'] }),
        ],
      },
    },
    'GET /payment-requests': {
      body: { items: [aPaymentRequest()], totalItems: 1, totalItemsEstimated: false },
    },
    'POST /payment-requests': options.created ?? { status: 201, body: aPaymentRequest() },
    ...(options.requestSettings
      ? { 'GET /company-settings/payment-request': { body: options.requestSettings } }
      : {}),
    ...options.routes,
  });
  renderWithProviders(<p>Elsewhere</p>, {
    user: aUser({ permissions: (options.permissions ?? []) as never }),
    flags: options.policy ? { PermissionPolicy: true } : {},
    path: `/accounts/${accountId}`,
    routes: [{ path: '/accounts/:id', element: <AccountPage /> }],
  });
  return calls;
}

async function openDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'New Request' }));
  return screen.findByRole('dialog', { name: 'New Request' });
}

describe('the New Request dialog of an account page (spec 2 §2)', () => {
  it("starts Valid to at the company's default link expiry (spec 3 §2 Preferences)", async () => {
    const calls = renderPage(anAccount(), {
      requestSettings: {
        validUntilAddition: { unit: 'Week', quantity: 2 },
        defaultUsageType: 'Single',
        linkSize: 'Long',
      },
    });
    const dialog = await openDialog();
    await waitFor(() =>
      expect(calls.some((call) => call.url.endsWith('/company-settings/payment-request'))).toBe(
        true,
      ),
    );
    await userEvent.type(
      await within(dialog).findByRole('textbox', { name: 'Post code' }),
      'SW1A 1AA',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('New payment request created')).toBeInTheDocument();
    const fortnight = format(addDays(new Date(), 14), 'yyyy-MM-dd');
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      // A Valid to day lasts to its end.
      validUntil: `${fortnight}T23:59:59.999Z`,
    });
  });

  it('defaults the company name to the account name and the currency to the account’s, and sends a trimmed Account request', async () => {
    const calls = renderPage(anAccount({ currency: 'USD' }));
    const dialog = await openDialog();
    const field = (name: string) => within(dialog).findByRole('textbox', { name });
    expect(await field('Company name')).toHaveValue('Acme Widgets Ltd');
    expect(await field('Currency')).toHaveValue('USD');
    expect(await field('Capture type')).toHaveValue('Immediate');
    expect(await field('Amount')).toHaveValue('100.00');
    expect(await field('Email')).toHaveValue('ap@acme.example');

    await userEvent.clear(await field('Description'));
    await userEvent.type(await field('Description'), '  Deposit for March  ');
    await userEvent.type(await field('Post code'), ' SW1A 1AA ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('New payment request created')).toBeInTheDocument();
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toEqual({
      requestType: 'Account',
      accountId,
      captureType: 'Immediate',
      currency: 'USD',
      amountToPay: 100,
      customerName: 'Acme Widgets Ltd',
      customerReference: 'ACC000001',
      description: 'Deposit for March',
      validFrom: null,
      validUntil: null,
      paymentRequiredBy: null,
      billingContact: {
        companyName: 'Acme Widgets Ltd',
        firstNames: null,
        surname: null,
        emailAddress: 'ap@acme.example',
        address: {
          address1: null,
          address2: null,
          city: null,
          state: null,
          postCode: 'SW1A 1AA',
          country: null,
        },
      },
      test: false,
    });
    // The request shows in the account's Payment requests tab.
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: /Payment requests/ })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New Request' })).not.toBeInTheDocument(),
    );
  });

  it('falls back to the company’s currency, then to the first offered, when the account has none the dialog offers', async () => {
    renderPage(anAccount({ currency: null }), { companyCurrency: 'EUR' });
    expect(
      await within(await openDialog()).findByRole('textbox', { name: 'Currency' }),
    ).toHaveValue('EUR');
  });

  it('offers the account’s JPY as YEN', async () => {
    renderPage(anAccount({ currency: 'JPY' }));
    expect(
      await within(await openDialog()).findByRole('textbox', { name: 'Currency' }),
    ).toHaveValue('YEN');
  });

  // A JPY request of 100.50 was accepted and shown as ¥101.
  it('takes a YEN amount in whole yen and a GBP one in pence', async () => {
    const calls = renderPage(anAccount({ currency: 'JPY' }));
    const dialog = await openDialog();
    const amount = await within(dialog).findByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveValue('100');
    await userEvent.clear(amount);
    await userEvent.type(amount, '100.5');
    expect(amount).toHaveValue('1005');
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Currency' }));
    await userEvent.click(await within(dialog).findByRole('option', { name: 'GBP' }));
    await userEvent.clear(amount);
    await userEvent.type(amount, '100.5');
    await userEvent.tab();
    expect(amount).toHaveValue('100.50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      currency: 'GBP',
      amountToPay: 100.5,
    });
  });

  it('uses GBP when neither the account’s nor the company’s currency is offered', async () => {
    renderPage(anAccount({ currency: 'CHF' }), { companyCurrency: 'SEK' });
    expect(
      await within(await openDialog()).findByRole('textbox', { name: 'Currency' }),
    ).toHaveValue('GBP');
  });

  it('shows the rules of spec 2 §5 and sends nothing while they fail', async () => {
    const calls = renderPage();
    const dialog = await openDialog();
    await userEvent.clear(await within(dialog).findByRole('textbox', { name: 'Amount' }));
    const postCode = within(dialog).getByRole('textbox', { name: 'Post code' });
    await userEvent.click(postCode);
    await userEvent.paste('P'.repeat(21));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Amount is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Post code must be at most 20 characters')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  // 'not-an-email' was accepted as the billing contact's e-mail.
  it('refuses a billing e-mail that is not an e-mail address', async () => {
    const calls = renderPage();
    const dialog = await openDialog();
    const email = await within(dialog).findByRole('textbox', { name: 'Email' });
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText(
        'Email address must be a valid email address, e.g. jo@example.com.',
      ),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('refuses a Valid to before Valid from', async () => {
    const calls = renderPage();
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Valid from' }), '2026-12-10');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Valid to' }), '2026-12-01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText('Valid To must be less than Valid From'),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('shows the server’s field message when it refuses the request', async () => {
    renderPage(anAccount(), {
      created: {
        status: 422,
        body: {
          type: 'about:blank',
          title: 'Unprocessable Entity',
          status: 422,
          detail: 'Validation failed',
          errors: { amountToPay: ['Amount must be greater than 0'] },
        },
      },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Amount must be greater than 0')).toBeInTheDocument();
  });

  // A server error on a nested field shows under that field's input.
  it('shows a billingContact.address.city error from the server under the City input', async () => {
    renderPage(anAccount(), {
      created: {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'One or more fields are invalid.',
          errors: { 'billingContact.address.city': ['City must be at most 100 characters'] },
        },
      },
    });
    const dialog = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    const city = within(dialog).getByRole('textbox', { name: 'City' });
    await waitFor(() =>
      expect(city).toHaveAccessibleDescription('City must be at most 100 characters'),
    );
    expect(city).toHaveAttribute('aria-invalid', 'true');
  });

  it('is disabled without EditPaymentRequest', async () => {
    renderPage(anAccount(), { policy: true, permissions: ['ViewAccounts'] });
    expect(await screen.findByRole('button', { name: 'New Request' })).toBeDisabled();
  });
});

describe("the billing contact's country", () => {
  it("starts at the company's default country (Preferences) and is sent with the request", async () => {
    const calls = renderPage(anAccount(), {
      routes: {
        'GET /company-settings/preferences': {
          body: {
            defaultSettlementConfigurationGroupId: null,
            defaultLatePaymentConfigurationId: null,
            defaultCountryId: 372,
            defaultEditPaymentStatus: 'Disable',
            allowTransactionCurrencyChange: 'Disable',
          },
        },
        'GET /geo-data/countries/372': {
          body: { id: 372, displayName: 'Ireland', alpha2Code: 'IE', alpha3Code: 'IRL' },
        },
      },
    });
    const dialog = await openDialog();
    const country = await within(dialog).findByRole('textbox', { name: 'Country' });
    await waitFor(() => expect(country).toHaveValue('Ireland'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('New payment request created')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      billingContact: { address: { country: 'Ireland' } },
    });
  });
});
