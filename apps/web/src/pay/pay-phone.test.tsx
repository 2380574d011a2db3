import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { summaryBarMediaQuery } from './components/pay-form';
import { PayApp } from './pay-app';
import { openTransactionPage, paymentId, recordingBrowser, requestId } from './test-support';

const pagePath = `GET /pay/${requestId}`;
const startPath = `POST /pay/${requestId}/payments`;

const renderPage = () =>
  render(<PayApp requestId={requestId} query={{}} browser={recordingBrowser()} />);

const contact = { firstNames: 'Robin', surname: 'Payer', emailAddress: 'robin@payer.example' };

describe('the payer page on a phone', () => {
  let restore: () => void;
  beforeEach(() => {
    const stub = window.matchMedia;
    window.matchMedia = (query: string) => {
      const list = stub(query);
      return query === summaryBarMediaQuery ? { ...list, matches: true } : list;
    };
    restore = () => {
      window.matchMedia = stub;
    };
  });
  afterEach(() => restore());

  it('fills the payer in from the billing contact and pays from the summary bar above the invoices', async () => {
    const calls = stubFetch({
      [pagePath]: { body: openTransactionPage({ billingContact: contact }) },
      [startPath]: {
        status: 201,
        body: { paymentId, amount: 1556.22, currency: 'GBP', next: { kind: 'sandbox' } },
      },
    });
    renderPage();
    const bar = await screen.findByRole('region', { name: 'Payment summary' });
    expect(bar).toHaveTextContent('Total £1,556.22');
    // The bar comes before the invoices in the page.
    const invoices = screen.getByRole('list', { name: 'Invoices' });
    expect(bar.compareDocumentPosition(invoices) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    expect(screen.getByLabelText('First names')).toHaveValue('Robin');
    expect(screen.getByLabelText('Surname')).toHaveValue('Payer');
    expect(screen.getByLabelText(/Email address/)).toHaveValue('robin@payer.example');

    await userEvent.click(within(bar).getByRole('button', { name: 'Pay now' }));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      payer: { firstNames: 'Robin', surname: 'Payer', emailAddress: 'robin@payer.example' },
    });
  });

  it('leaves the payer fields empty without a billing contact', async () => {
    stubFetch({ [pagePath]: { body: openTransactionPage() } });
    renderPage();
    expect(await screen.findByLabelText('First names')).toHaveValue('');
    expect(screen.getByLabelText(/Email address/)).toHaveValue('');
  });

  it('points at contact details below only when the page shows some', async () => {
    const page = openTransactionPage({ state: 'Cancelled' });
    stubFetch({
      [pagePath]: {
        body: {
          ...page,
          company: {
            ...page.company,
            website: null,
            emailAddress: null,
            telephone: null,
            addressLines: [],
          },
        },
      },
    });
    renderPage();
    expect(
      await screen.findByText(
        /If you think this is a mistake, please contact Northwind Trading\.$/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/their details are below/)).not.toBeInTheDocument();
  });
});
