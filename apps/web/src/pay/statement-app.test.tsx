import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { statementMessages as contractMessages, type StatementPage } from '@ledgerline/contract';
import { stubFetch } from '@/test/fetch-stub';
import { StatementApp, statementTokenFromPath } from './statement-app';
import { statementMessages } from './statement-api';
import { recordingBrowser } from './test-support';

const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const path = `GET /statements/${token}`;
const payPath = `POST /statements/${token}/pay`;
const requestId = '0190d7a2-5c3e-7b4a-9e1f-2a3b4c5d6e7f';
const ids = [
  '0190d7a2-0000-7000-8000-0000000000e1',
  '0190d7a2-0000-7000-8000-0000000000e2',
  '0190d7a2-0000-7000-8000-0000000000e3',
];

function statement(overrides: Partial<StatementPage> = {}): StatementPage {
  const invoice = (
    i: number,
    amountToPay: number,
    extra: Partial<StatementPage['invoices'][number]> = {},
  ) => ({
    transactionId: ids[i]!,
    reference: `INV-00${i + 1}`,
    description: null,
    transactionDate: `2026-10-0${i + 1}`,
    dueDate: `2026-11-0${i + 1}`,
    currency: 'GBP',
    outstandingAmount: amountToPay,
    discount: 0,
    fees: 0,
    feesReason: null,
    amountToPay,
    overdue: false,
    ...extra,
  });
  return {
    company: {
      name: 'Northwind Trading',
      logoUrl: null,
      website: null,
      emailAddress: 'accounts@northwind.example',
      telephone: null,
      addressLines: ['1 Quay Street'],
    },
    accountName: 'Harbour Supplies Ltd',
    accountReference: 'HARB-1',
    quotedOn: '2026-11-24',
    expiresAt: null,
    invoices: [
      invoice(0, 946, {
        outstandingAmount: 900,
        fees: 46,
        overdue: true,
        feesReason: 'This invoice was due on 1 October 2026.',
      }),
      invoice(1, 475, { outstandingAmount: 500, discount: 25 }),
      invoice(2, 120.5),
    ],
    totals: [{ currency: 'GBP', amountToPay: 1541.5 }],
    ...overrides,
  };
}

const renderPage = (browser = recordingBrowser()) => {
  render(<StatementApp token={token} browser={browser} />);
  return browser;
};

describe('the statement page', () => {
  it('keeps the contract’s messages', () => {
    for (const [key, value] of Object.entries(statementMessages))
      expect(contractMessages[key as keyof typeof contractMessages]).toBe(value);
    expect(statementTokenFromPath(`/statement/${token}`)).toBe(token);
    expect(statementTokenFromPath('/statement/')).toBeNull();
  });

  it('lists every open invoice, oldest first, all ticked, and pays them in one go', async () => {
    const calls = stubFetch({
      [path]: { body: statement() },
      [payPath]: {
        status: 201,
        body: { paymentRequestId: requestId, payUrl: `/pay/${requestId}`, reused: false },
      },
    });
    const browser = renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Statement for Harbour Supplies Ltd' }),
    ).toBeInTheDocument();
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(
      items.map((item) => within(item).getByRole('checkbox').getAttribute('aria-label')),
    ).toEqual(['Pay invoice INV-001', 'Pay invoice INV-002', 'Pay invoice INV-003']);
    for (const box of screen.getAllByRole('checkbox', { name: /Pay invoice/ }))
      expect(box).toBeChecked();
    expect(within(items[0]!).getByText('+£46.00')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Overdue')).toBeInTheDocument();
    expect(within(items[1]!).getByText('−£25.00')).toBeInTheDocument();
    expect(screen.getByText('Total £1,541.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download statement (PDF)' })).toHaveAttribute(
      'href',
      `/api/v0/statements/${token}/pdf`,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Pay £1,541.50' }));
    expect(browser.goTo).toHaveBeenCalledWith(`/pay/${requestId}`);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ transactionIds: ids });
  });

  it('pays only the invoices ticked, with their total', async () => {
    const calls = stubFetch({
      [path]: { body: statement() },
      [payPath]: {
        status: 201,
        body: { paymentRequestId: requestId, payUrl: `/pay/${requestId}`, reused: true },
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Pay invoice INV-002' }));
    expect(screen.getByRole('checkbox', { name: 'Select all invoices' })).not.toBeChecked();
    expect(screen.getByText(/^2 invoices selected/)).toHaveTextContent(
      '2 invoices selected: Total £1,066.50',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Pay £1,066.50' }));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      transactionIds: [ids[0], ids[2]],
    });
  });

  it('asks for at least one invoice, and shows why a payment could not start', async () => {
    stubFetch({
      [path]: { body: statement() },
      [payPath]: {
        status: 422,
        body: {
          title: 'Unprocessable',
          status: 422,
          detail: 'This invoice is not open on this statement any more. Refresh the page.',
        },
      },
    });
    renderPage();
    const all = await screen.findByRole('checkbox', { name: 'Select all invoices' });
    await userEvent.click(all);
    expect(screen.getByRole('button', { name: 'Pay' })).toBeDisabled();
    expect(screen.getByText('0 invoices selected')).toBeInTheDocument();
    await userEvent.click(all);
    await userEvent.click(screen.getByRole('button', { name: 'Pay £1,541.50' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This invoice is not open on this statement any more. Refresh the page.',
    );
    expect(screen.getByRole('button', { name: 'Pay £1,541.50' })).toBeEnabled();
  });

  it('ticks the first currency only and refuses mixing currencies', async () => {
    const page = statement();
    page.invoices[2] = { ...page.invoices[2]!, currency: 'EUR' };
    stubFetch({ [path]: { body: page } });
    renderPage();
    const euro = await screen.findByRole('checkbox', { name: 'Pay invoice INV-003' });
    expect(euro).not.toBeChecked();
    await userEvent.click(euro);
    expect(screen.getByRole('alert')).toHaveTextContent(statementMessages.oneCurrency);
    expect(screen.getByRole('button', { name: 'Pay' })).toBeDisabled();
  });

  it('says when nothing is open', async () => {
    stubFetch({ [path]: { body: statement({ invoices: [], totals: [] }) } });
    renderPage();
    expect(await screen.findByText(statementMessages.nothingOpen)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Pay/ })).toBeNull();
  });

  it('says so when the link has expired or does not exist', async () => {
    stubFetch({
      [path]: {
        status: 410,
        body: { title: 'Gone', status: 410, detail: statementMessages.expired },
      },
    });
    const { unmount } = render(<StatementApp token={token} browser={recordingBrowser()} />);
    expect(
      await screen.findByRole('heading', { name: 'This statement link has expired' }),
    ).toBeInTheDocument();
    expect(screen.getByText(statementMessages.expired)).toBeInTheDocument();
    unmount();
    stubFetch({});
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'This statement link does not exist' }),
    ).toBeInTheDocument();
  });

  it('offers to try again when the server fails', async () => {
    stubFetch({ [path]: { status: 500, body: { title: 'Error', status: 500 } } });
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'We could not load this statement' }),
    ).toBeInTheDocument();
    stubFetch({ [path]: { body: statement() } });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Statement for Harbour Supplies Ltd' }),
    ).toBeInTheDocument();
  });
});
