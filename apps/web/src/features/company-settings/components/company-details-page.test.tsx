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
