import type { Bank } from '@ledgerline/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { BankDetailPage } from './bank-detail-page';

const id = '0199f0aa-0000-7000-8000-000000000001';
const bank: Bank = {
  id,
  accountName: 'Main current account',
  currency: 'GBP',
  description: null,
  accountNumber: '31415926',
  sortCode: '60-16-13',
  iban: 'GB29NWBK60161331926819',
  bankName: 'NatWest',
  source: 'Sage 200',
  createdOn: '2026-01-05T09:00:00.000Z',
};

function renderPage() {
  return renderWithProviders(<p>Elsewhere</p>, {
    user: aUser(),
    path: `/banks/${id}`,
    routes: [{ path: '/banks/:id', element: <BankDetailPage /> }],
  });
}

/** The value shown under a field's label. */
const valueOf = (label: string) => screen.getByText(label).nextElementSibling?.textContent;

describe('Bank detail page', () => {
  it('shows the bank read-only, with its IBAN in groups of four', async () => {
    const calls = stubFetch({ [`GET /banks/${id}`]: { body: bank } });
    renderPage();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the bank');
    expect(
      await screen.findByRole('heading', { name: 'Main current account' }),
    ).toBeInTheDocument();
    expect(valueOf('Account name')).toBe('Main current account');
    expect(valueOf('Currency')).toBe('GBP');
    expect(valueOf('Description')).toBe('-');
    expect(valueOf('Account number')).toBe('31415926');
    expect(valueOf('Sort code')).toBe('60-16-13');
    expect(valueOf('IBAN')).toBe('GB29 NWBK 6016 1331 9268 19');
    expect(screen.getByRole('button', { name: 'Copy iban' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Banks' })).toHaveAttribute('href', '/banks');
    expect(calls[0]?.headers.get('Dataset-Id')).toBe('1');
    await waitFor(() => expect(document.title).toBe('Ledgerline | Banks | Main current account'));
  });

  it('says the bank was not found, with the way back', async () => {
    stubFetch({
      [`GET /banks/${id}`]: {
        status: 404,
        body: {
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: `Bank ${id} was not found.`,
        },
      },
    });
    renderPage();
    expect(await screen.findByText('The bank was not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Banks' })).toHaveAttribute('href', '/banks');
  });

  it('shows Loading Error for a failure without a detail', async () => {
    stubFetch({
      [`GET /banks/${id}`]: {
        status: 500,
        body: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
      },
    });
    renderPage();
    expect(await screen.findByText('Loading Error')).toBeInTheDocument();
    expect(screen.getByText('An unknown error occurred')).toBeInTheDocument();
  });
});
