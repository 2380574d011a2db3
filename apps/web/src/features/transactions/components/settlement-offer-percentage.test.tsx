import { transactionMessages, type TransactionDetail } from '@ledgerline/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { SettlementOfferDialog } from './settlement-offer-dialog';

const transaction = {
  id: '0199f0aa-0000-7000-8000-000000000001',
  currency: 'GBP',
  amountOwed: 500,
  paidStatus: 'Unpaid',
  settlementOffers: [],
} as unknown as TransactionDetail;

// 101 % is refused with a message, not quietly turned into 100 %.
describe('the settlement offer percentage', () => {
  it('keeps what was typed and says it is out of range', async () => {
    const calls = stubFetch({});
    renderWithProviders(
      <SettlementOfferDialog opened onClose={() => {}} transaction={transaction} />,
      { user: aUser() },
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('textbox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Percentage Discount' }));
    const percentage = within(dialog).getByRole('textbox', { name: 'Percentage discount' });
    await userEvent.type(percentage, '101');
    await userEvent.tab();
    expect(percentage).toHaveValue('101 %');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(transactionMessages.offerPercentageRange),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
