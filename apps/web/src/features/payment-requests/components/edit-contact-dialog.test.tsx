import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { EditContactDialog } from './edit-contact-dialog';
import { aPaymentRequest } from './payment-request-fixture';

/** The company's default country is a contact's initial country. */
const routes = {
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
};

describe("a contact's country", () => {
  it("starts at the company's default country when the contact has none, and is saved", async () => {
    const request = aPaymentRequest(1);
    const calls = stubFetch({ ...routes, 'PATCH /payment-requests': { body: request } });
    renderWithProviders(
      <EditContactDialog request={request} kind="billingContact" opened onClose={() => {}} />,
      { user: aUser() },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit billing contact' });
    const country = within(dialog).getByRole('textbox', { name: 'Country' });
    await waitFor(() => expect(country).toHaveValue('Ireland'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
    expect(calls.find((call) => call.method === 'PATCH')!.body).toMatchObject({
      billingContact: { address: { country: 'Ireland' } },
    });
  });

  it('keeps the country the contact has', async () => {
    const request = aPaymentRequest(2, {
      billingContact: {
        companyName: 'Acme Ltd',
        firstNames: 'Alice',
        surname: 'Smith',
        emailAddress: 'alice@acme.test',
        address: { country: 'France' } as never,
      },
    });
    const calls = stubFetch(routes);
    renderWithProviders(
      <EditContactDialog request={request} kind="billingContact" opened onClose={() => {}} />,
      { user: aUser() },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit billing contact' });
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/v0/geo-data/countries/372')).toBe(true),
    );
    expect(within(dialog).getByRole('textbox', { name: 'Country' })).toHaveValue('France');
  });
});
