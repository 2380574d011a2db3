import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { PayApp } from './pay-app';
import { openTransactionPage, recordingBrowser, requestId } from './test-support';

const pagePath = `GET /pay/${requestId}`;
const renderPage = () =>
  render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);

/** What the payer sees before valid-from, past payment-required-by, and of a part. */
describe('the payer page’s link dates and asked amounts', () => {
  it('says the link is not open yet before valid-from, with nothing to pay', async () => {
    stubFetch({
      [pagePath]: {
        body: openTransactionPage({
          state: 'NotYetOpen',
          validFrom: '2026-12-01T09:00:00Z',
          methods: [],
        }),
      },
    });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'This payment link is not open yet' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/You can pay from .*2026/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay / })).not.toBeInTheDocument();
  });

  it('says an overdue request is overdue and still lets the payer pay', async () => {
    stubFetch({
      [pagePath]: {
        body: openTransactionPage({ overdue: true, paymentRequiredBy: '2026-11-20' }),
      },
    });
    renderPage();
    expect(
      await screen.findByText(/Payment was due on .* and is now overdue\./),
    ).toBeInTheDocument();
    expect(screen.getByText(/late-payment fees below keep growing/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay £1,556.22' })).toBeInTheDocument();
  });

  it('shows and charges what the request asks of an invoice, not the whole invoice', async () => {
    const page = openTransactionPage();
    const [first] = page.invoices;
    stubFetch({
      [pagePath]: {
        body: {
          ...page,
          invoices: [
            {
              ...first!,
              outstandingAmount: 500,
              discount: 0,
              offer: null,
              amountToPay: 200,
              amountInFull: 500,
            },
          ],
          discountTotal: 0,
          feeTotal: 0,
          amountToPay: 200,
        },
      },
    });
    renderPage();
    expect(await screen.findByText('Total to pay')).toBeInTheDocument();
    expect(screen.getAllByText('£200.00').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Pay £200.00' })).toBeInTheDocument();
  });
});
