import { companyDetailsMessages } from '@ledgerline/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { CompanyDetailsPage } from './company-details-page';

const settings = {
  name: 'Acme Ltd',
  logoUrl: null,
  paymentProvider: null,
  companyDetails: {
    name: 'Acme Widgets Ltd',
    website: 'https://acme.example.com',
    taxCode: null,
    logoUrl: null,
    mainAddress: {
      firstNames: 'Ada',
      surname: 'Lovelace',
      email: 'ada@acme.example.com',
      telephone: null,
      address1: '1 Engine St',
      address2: null,
      city: 'London',
      state: 'England',
      postCode: 'EC1A 1BB',
      country: 'United Kingdom of Great Britain and Northern Ireland',
    },
  },
};
const countries = {
  items: [
    {
      id: 826,
      displayName: 'United Kingdom of Great Britain and Northern Ireland',
      alpha2Code: 'GB',
      alpha3Code: 'GBR',
    },
  ],
};

describe('Company details', () => {
  it('disables the inputs and Save without ConfigureSystemSettings', async () => {
    stubFetch({
      'GET /company-settings': { body: settings },
      'GET /geo-data/countries': { body: countries },
      'GET /geo-data/countries/826/states': { body: { items: [] } },
    });
    renderWithProviders(<CompanyDetailsPage />, {
      user: aUser({ role: 'Viewer', permissions: [] }),
      flags: { PermissionPolicy: true },
    });
    expect(await screen.findByDisplayValue('Acme Widgets Ltd')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it("shows the website's message and saves nothing when it does not begin with https://", async () => {
    const calls = stubFetch({
      'GET /company-settings': { body: settings },
      'GET /geo-data/countries': { body: countries },
      'GET /geo-data/countries/826/states': { body: { items: [] } },
    });
    renderWithProviders(<CompanyDetailsPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    const website = await screen.findByDisplayValue('https://acme.example.com');
    expect(website).toBeEnabled();
    fireEvent.change(website, { target: { value: 'http://acme.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(companyDetailsMessages.website)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('saves the details', async () => {
    const calls = stubFetch({
      'GET /company-settings': { body: settings },
      'PUT /company-settings': { body: settings },
      'GET /geo-data/countries': { body: countries },
      'GET /geo-data/countries/826/states': { body: { items: [] } },
    });
    renderWithProviders(<CompanyDetailsPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
        companyDetails: { name: 'Acme Widgets Ltd', mainAddress: { city: 'London' } },
      }),
    );
  });
});

describe("the company's country", () => {
  const preferences = {
    defaultSettlementConfigurationGroupId: null,
    defaultLatePaymentConfigurationId: null,
    defaultCountryId: 372,
    defaultEditPaymentStatus: 'Disable',
    allowTransactionCurrencyChange: 'Disable',
  };
  const ireland = { id: 372, displayName: 'Ireland', alpha2Code: 'IE', alpha3Code: 'IRL' };
  // A company whose details were never saved (null) has no country yet.
  const routes = (saved: boolean) => ({
    'GET /company-settings': {
      body: saved ? settings : { ...settings, companyDetails: null },
    },
    'GET /company-settings/preferences': { body: preferences },
    'GET /geo-data/countries': { body: { items: [...countries.items, ireland] } },
    'GET /geo-data/countries/372': { body: ireland },
    'GET /geo-data/countries/372/states': { body: { items: [] } },
    'GET /geo-data/countries/826/states': { body: { items: [] } },
  });

  it('starts at the default country of the preferences when the company has none', async () => {
    stubFetch(routes(false));
    renderWithProviders(<CompanyDetailsPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    await screen.findByDisplayValue('Acme Ltd');
    // The form's value first (the Select's hidden input, a cheap poll), then the visible field,
    // which follows a render later: a getByRole in every poll is slow on a loaded machine.
    await screen.findByDisplayValue('Ireland', {}, { timeout: 5000 });
    const country = screen.getByRole('textbox', { name: 'Country' });
    await waitFor(() => expect(country).toHaveValue('Ireland'), { timeout: 5000 });
  });

  it("keeps the company's own country", async () => {
    const calls = stubFetch(routes(true));
    renderWithProviders(<CompanyDetailsPage />, {
      user: aUser({ permissions: ['ConfigureSystemSettings'] }),
    });
    await screen.findByDisplayValue('Acme Widgets Ltd');
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/v0/geo-data/countries/372')).toBe(true),
    );
    expect(screen.getByRole('textbox', { name: 'Country' })).toHaveValue(
      'United Kingdom of Great Britain and Northern Ireland',
    );
  });
});
