import {
  customHostIdFields,
  customHostIdMessages,
  paymentRequestSettingsMessages,
} from '@ledgerline/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch, type StubbedCall } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { PreferencesPage } from './preferences-page';

const preferences = {
  defaultSettlementConfigurationGroupId: null,
  defaultLatePaymentConfigurationId: null,
  defaultCountryId: 826,
  defaultEditPaymentStatus: 'Disable',
  allowTransactionCurrencyChange: 'Disable',
};
const requestSettings = { validUntilAddition: null, defaultUsageType: 'Single', linkSize: 'Long' };
const customHostId = {
  id: 'transaction',
  createOption: 'NeverCreate',
  updateOption: 'NeverCreate',
  trimWhiteSpace: true,
  parseValue: null,
  rebuildState: 'None',
};
const countries = {
  items: [
    { id: 372, displayName: 'Ireland', alpha2Code: 'IE', alpha3Code: 'IRL' },
    {
      id: 826,
      displayName: 'United Kingdom of Great Britain and Northern Ireland',
      alpha2Code: 'GB',
      alpha3Code: 'GBR',
    },
  ],
};

function stub(extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    'GET /company-settings/preferences': { body: preferences },
    'GET /company-settings/payment-request': { body: requestSettings },
    'GET /company-settings/custom-host-id': { body: customHostId },
    'GET /geo-data/countries': { body: countries },
    'PUT /company-settings/all-preferences': ({ body }) => {
      const sent = body as { preferences: object; paymentRequest: object; customHostId: object };
      return {
        body: {
          preferences: { ...preferences, ...sent.preferences },
          paymentRequest: sent.paymentRequest,
          customHostId: { ...customHostId, ...sent.customHostId },
        },
      };
    },
    ...extra,
  });
}
const render = () =>
  renderWithProviders(<PreferencesPage />, {
    user: aUser({ permissions: ['ConfigureSystemSettings'] }),
  });
const puts = (calls: StubbedCall[]) => calls.filter((call) => call.method === 'PUT');

async function chooseUnit(label: string) {
  await userEvent.click(screen.getByRole('textbox', { name: 'Default link expiry unit' }));
  await userEvent.click(await screen.findByRole('option', { name: label }));
}

describe('Preferences', () => {
  it('shows GB by default, no expiry, and the quantity disabled without a unit', async () => {
    stub();
    render();
    expect(
      await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland'),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Link URL size' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Default link expiry quantity' })).toBeDisabled();
    expect(screen.getByTestId('expiry-hint')).toHaveTextContent(
      'The Payment Request link will not expire',
    );
  });

  it('says the hint with a singular unit at 1 and a plural one above', async () => {
    stub();
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await chooseUnit('Weeks');
    const quantity = screen.getByRole('textbox', { name: 'Default link expiry quantity' });
    expect(quantity).toBeEnabled();
    fireEvent.change(quantity, { target: { value: '1' } });
    expect(screen.getByTestId('expiry-hint')).toHaveTextContent(
      'The Payment Request link will expire after 1 week',
    );
    fireEvent.change(quantity, { target: { value: '2' } });
    expect(screen.getByTestId('expiry-hint')).toHaveTextContent(
      'The Payment Request link will expire after 2 weeks',
    );
  });

  it('refuses a unit without a quantity, marks the General tab and saves nothing', async () => {
    const calls = stub();
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await chooseUnit('Days');
    fireEvent.change(screen.getByRole('textbox', { name: 'Default link expiry quantity' }), {
      target: { value: '' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(paymentRequestSettingsMessages.quantity)).toBeInTheDocument();
    expect(screen.getByLabelText('General has errors')).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('refuses more than 24 weeks', async () => {
    const calls = stub();
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await chooseUnit('Weeks');
    fireEvent.change(screen.getByRole('textbox', { name: 'Default link expiry quantity' }), {
      target: { value: '25' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Quantity must be at most 24 weeks')).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('saves both tabs in one call and says so', async () => {
    const calls = stub({
      'GET /company-settings/custom-host-id': {
        body: { ...customHostId, parseValue: '{accountReference}' },
      },
    });
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await chooseUnit('Weeks');
    fireEvent.change(screen.getByRole('textbox', { name: 'Default link expiry quantity' }), {
      target: { value: '2' },
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Payments can be edited' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings successfully updated')).toBeInTheDocument();
    expect(puts(calls).map((call) => [call.url, call.body])).toEqual([
      [
        '/api/v0/company-settings/all-preferences',
        {
          preferences: {
            defaultCountryId: 826,
            defaultEditPaymentStatus: 'Allow',
            allowTransactionCurrencyChange: 'Disable',
          },
          paymentRequest: {
            validUntilAddition: { unit: 'Week', quantity: 2 },
            defaultUsageType: 'Single',
            linkSize: 'Long',
          },
          customHostId: {
            createOption: 'NeverCreate',
            updateOption: 'NeverCreate',
            trimWhiteSpace: true,
            parseValue: '{accountReference}',
          },
        },
      ],
    ]);
  });

  it('validates the Advanced tab always, even when only the General tab changed: nothing saved', async () => {
    const calls = stub();
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    fireEvent.click(screen.getByRole('switch', { name: 'Payments can be edited' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByLabelText('Advanced has errors')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Advanced/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(customHostIdMessages.parseValueRequired)).toBeInTheDocument();
    expect(puts(calls)).toEqual([]);
  });

  it('the server refuses the second part: one call, its message on its tab, no success', async () => {
    const refusal = 'Parse value names an unknown field at position 1.';
    const calls = stub({
      'GET /company-settings/custom-host-id': {
        body: { ...customHostId, parseValue: '{accountReference}' },
      },
      'PUT /company-settings/all-preferences': {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: refusal,
          errors: { 'customHostId.parseValue': [refusal] },
        },
      },
    });
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    fireEvent.click(screen.getByRole('switch', { name: 'Payments can be edited' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByLabelText('Advanced has errors')).toBeInTheDocument();
    expect(screen.queryByLabelText('General has errors')).toBeNull();
    expect(
      within(screen.getByRole('tabpanel', { name: /Advanced/ })).getByText(refusal),
    ).toBeInTheDocument();
    expect(screen.queryByText('Settings successfully updated')).toBeNull();
    expect(puts(calls).map((call) => call.url)).toEqual([
      '/api/v0/company-settings/all-preferences',
    ]);
  });

  it("test parse shows the server's message, or the example result", async () => {
    stub({
      'POST /company-settings/custom-host-id/example': ({ body }) =>
        (body as { parseValue: string }).parseValue.includes('{nope}')
          ? {
              status: 400,
              body: {
                type: 'about:blank',
                title: 'Bad Request',
                status: 400,
                detail: 'Invalid',
                errors: { parseValue: ['Unknown field {nope} at position 1.'] },
              },
            }
          : { body: { customHostId: 'ACME001-INV-10042' } },
    });
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await userEvent.click(screen.getByRole('tab', { name: 'Advanced' }));
    const parseValue = screen.getByRole('textbox', { name: 'Parse value' });
    fireEvent.change(parseValue, { target: { value: '{nope}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test parse' }));
    expect(await screen.findByText('Unknown field {nope} at position 1.')).toBeInTheDocument();
    fireEvent.change(parseValue, {
      target: { value: '{accountReference}-{transactionReference}' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Test parse' }));
    const result = await screen.findByRole('alert', { name: 'Example result' });
    expect(within(result).getByText('ACME001-INV-10042')).toBeInTheDocument();
  });

  // The section says what a custom host id is, with a worked example.
  it('explains custom host ids with an example and every field in words', async () => {
    stub();
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await userEvent.click(screen.getByRole('tab', { name: 'Advanced' }));
    const panel = screen.getByRole('tabpanel', { name: 'Advanced' });
    expect(
      within(panel).getByText(/your own id for each accounting transaction/),
    ).toBeInTheDocument();
    const example = within(panel).getByRole('note', { name: 'Custom host id example' });
    expect(example).toHaveTextContent(
      'With the parse value {accountReference}-{transactionReference}, invoice INV-10042 of account ACME001 gets the custom host id ACME001-INV-10042.',
    );
    const fields = within(panel).getByRole('table', { name: 'Custom host id fields' });
    for (const field of customHostIdFields) {
      expect(within(fields).getByText(`{${field}}`)).toBeInTheDocument();
    }
    expect(
      within(fields).getByRole('row', {
        name: /accountReference.*The account’s reference.*ACME001/,
      }),
    ).toBeInTheDocument();
    // Both options' fields say what each choice does.
    expect(within(panel).getAllByText(/Always create: replaces the id your ERP sent/)).toHaveLength(
      2,
    );
  });

  it("reads 'building' with a spinner while a rebuild is queued", async () => {
    stub({
      'GET /company-settings/custom-host-id': {
        body: {
          ...customHostId,
          parseValue: '{accountReference}',
          rebuildState: 'QueuedForRebuild',
        },
      },
    });
    render();
    await screen.findByDisplayValue('United Kingdom of Great Britain and Northern Ireland');
    await userEvent.click(screen.getByRole('tab', { name: 'Advanced' }));
    const panel = screen.getByRole('tabpanel', { name: 'Advanced' });
    await waitFor(() =>
      expect(within(panel).getByRole('button', { name: 'building' })).toBeDisabled(),
    );
  });
});
