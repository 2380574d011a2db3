import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SettlementConfiguration } from '@ledgerline/contract';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { SettlementConfigurationDialog } from './settlement-configuration-dialog';

const groupId = '0199f0aa-0000-7000-8000-0000000000b1';
const saved = {
  id: groupId,
  name: 'Prompt payment',
  description: null,
  customerEnabled: true,
  transactionEnabled: false,
  isDefault: false,
  configurations: [],
};
const path = `/settlement-configuration-groups/${groupId}/configurations`;

/** An absolute discount saved before discounts had a currency, without one. */
const legacy: SettlementConfiguration = {
  id: '0199f0aa-0000-7000-8000-0000000000c9',
  type: 'AbsoluteDiscount',
  description: 'Ten off',
  dateType: 'DueDate',
  numberOfDays: 5,
  percentageDiscount: null,
  amount: 10,
  currency: null,
  filterGroup: { filterConfigurations: [] },
};

describe('the settlement configuration dialog’s currency', () => {
  // Opening a list of 167 currencies in jsdom takes seconds on a busy machine.
  it(
    'offers the ISO 4217 list as a select and sends the chosen code with the discount',
    { timeout: 30_000 },
    async () => {
      const calls = stubFetch({ [`POST ${path}`]: { body: saved } });
      renderWithProviders(
        <SettlementConfigurationDialog
          opened
          onClose={() => {}}
          groupId={groupId}
          type="AbsoluteDiscount"
        />,
        { user: aUser() },
      );
      const user = userEvent.setup();
      const dialog = await screen.findByRole('dialog', { name: 'New Absolute Discount' });
      const currency = within(dialog).getByRole('textbox', { name: 'Currency' });
      expect(currency).toBeRequired();
      expect(currency).toHaveValue('GBP Pound Sterling');
      await user.click(currency);
      // The whole list, the most used first (getByText: a role query over 167 options is slow).
      for (const name of ['GBP Pound Sterling', 'JPY Yen', 'KWD Kuwaiti Dinar'])
        expect(screen.getByText(name)).toBeInTheDocument();
      // Free text is not a currency: typing narrows the list, it is never sent as typed.
      await user.clear(currency);
      await user.type(currency, 'Kuwaiti');
      await user.click(screen.getByRole('option', { name: 'KWD Kuwaiti Dinar' }));
      expect(currency).toHaveValue('KWD Kuwaiti Dinar');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Settlement configuration added')).toBeInTheDocument();
      const post = calls.find((call) => call.method === 'POST')!;
      expect(post.body).toMatchObject({
        type: 'AbsoluteDiscount',
        currency: 'KWD',
        filterGroup: {
          filterConfigurations: expect.arrayContaining([
            { filterType: 'Currencies', isEnabled: true, currencies: ['KWD'] },
          ]),
        },
      });
    },
  );

  it('refuses an absolute discount without its currency, and sends nothing', async () => {
    const calls = stubFetch({ [`PUT ${path}`]: { body: saved } });
    renderWithProviders(
      <SettlementConfigurationDialog
        opened
        onClose={() => {}}
        groupId={groupId}
        type="AbsoluteDiscount"
        configuration={legacy}
      />,
      { user: aUser() },
    );
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Edit Absolute Discount' });
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Currency is required for an absolute discount'),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('lets a percentage discount apply to every currency (no currency chosen)', async () => {
    const calls = stubFetch({ [`POST ${path}`]: { body: saved } });
    renderWithProviders(
      <SettlementConfigurationDialog
        opened
        onClose={() => {}}
        groupId={groupId}
        type="PercentageDiscount"
      />,
      { user: aUser() },
    );
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New Percentage Discount' });
    const currency = within(dialog).getByRole('textbox', { name: 'Currency' });
    expect(currency).not.toBeRequired();
    // Mantine's clear button is a mouse control (aria-hidden, out of the tab order).
    await user.click(within(dialog).getByLabelText('Clear currency'));
    expect(currency).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settlement configuration added')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      type: 'PercentageDiscount',
      currency: null,
    });
  });
});

describe('a settlement configuration the dialog has no form for (spec 3 §4)', () => {
  it.each([
    [
      'ReplacementAmount',
      'Edit Replacement Amount',
      'This dialog edits percentage and absolute discounts only: a settlement configuration of type ReplacementAmount cannot be edited here.',
    ],
    [
      'None',
      'Edit Settlement Configuration',
      'This dialog edits percentage and absolute discounts only: a settlement configuration of type None cannot be edited here.',
    ],
  ] as const)(
    '%s opens with an error, not in the Absolute Discount form',
    async (type, title, message) => {
      const calls = stubFetch({ [`PUT ${path}`]: { body: saved } });
      renderWithProviders(
        <SettlementConfigurationDialog
          opened
          onClose={() => {}}
          groupId={groupId}
          type="AbsoluteDiscount"
          configuration={{ ...legacy, type, currency: 'GBP' }}
        />,
        { user: aUser() },
      );
      const dialog = await screen.findByRole('dialog', { name: title });
      expect(within(dialog).getByRole('alert')).toHaveTextContent(message);
      expect(within(dialog).queryByRole('textbox', { name: 'Amount' })).toBeNull();
      expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
      expect(calls).toHaveLength(0);
    },
  );

  it('an unknown date type opens with an error too', async () => {
    renderWithProviders(
      <SettlementConfigurationDialog
        opened
        onClose={() => {}}
        groupId={groupId}
        type="PercentageDiscount"
        configuration={{
          ...legacy,
          type: 'PercentageDiscount',
          percentageDiscount: 5,
          dateType: 'PaidDate' as never,
        }}
      />,
      { user: aUser() },
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Percentage Discount' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'The date type PaidDate of this settlement configuration is unknown: it cannot be edited here.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
