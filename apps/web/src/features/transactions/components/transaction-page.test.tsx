import { defaultUserSetting, transactionMessages } from '@ledgerline/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/test/fetch-stub';
import { aUser } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { TransactionPage } from './transaction-page';

const id = '0199f0aa-0000-7000-8000-000000000001';
const offer = {
  id: '0199f0aa-0000-7000-8000-0000000000f1',
  type: 'AbsoluteDiscount',
  transactionId: id,
  status: 'Open',
  description: 'Early bird',
  validFrom: null,
  validUntil: '2020-01-31',
  currency: 'GBP',
  amount: 5,
  percentageDiscount: null,
  priority: 0,
  createdOn: '2020-01-01T00:00:00.000Z',
};
const usedOffer = {
  ...offer,
  id: '0199f0aa-0000-7000-8000-0000000000f2',
  status: 'Used',
  description: 'Used one',
  validUntil: '2999-01-01',
};
const detail = {
  id,
  transactionReference: 'INV0000001',
  transactionSecondReference: 'SR-1',
  orderReference: 'PO-77',
  transactionType: 'Invoice',
  transactionDate: '2026-11-01',
  dueDate: '2026-12-01',
  transactionAmount: 1234.5,
  discountedAmount: 0,
  allocatedAmount: 200,
  currency: 'GBP',
  paidStatus: 'PartPaid',
  description: 'Goods',
  paymentTermsDescription: '30 days',
  postingApplication: 'Sales Ledger',
  customHostId: 'HOST-9',
  accountId: '0199f0aa-0000-7000-8000-0000000000aa',
  account: {
    id: '0199f0aa-0000-7000-8000-0000000000aa',
    accountReference: 'ACC01',
    name: 'Acme Ltd',
    currency: 'GBP',
  },
  contact: {
    companyName: 'Acme Ltd',
    firstNames: 'Ann',
    surname: 'Lee',
    jobTitle: 'Buyer',
    emailAddresses: ['ann@acme.test'],
  },
  amountOwed: 1034.5,
  settlementOffers: [offer, usedOffer],
  documents: [
    {
      id: '0199f0aa-0000-7000-8000-0000000000d1',
      createdOn: '2026-11-02T10:00:00.000Z',
      fileType: 'image/png',
      fileName: 'remittance.png',
      fileSize: 1_500_000,
    },
  ],
  paymentAllocations: [],
  paymentFeeTransactions: [],
  createdOn: '2026-11-01T10:00:00.000Z',
  updatedOn: '2026-11-01T10:00:00.000Z',
};

function renderPage(
  options: {
    showAdvancedInfo?: boolean;
    permissions?: string[];
    policy?: boolean;
    timeZoneId?: string;
  } = {},
) {
  return renderWithProviders(<p>Elsewhere</p>, {
    user: aUser({
      userSetting: {
        ...defaultUserSetting,
        showAdvancedInfo: options.showAdvancedInfo ?? false,
        timeZoneId: options.timeZoneId ?? defaultUserSetting.timeZoneId,
      },
      permissions: (options.permissions ?? []) as never,
    }),
    flags: options.policy ? { PermissionPolicy: true } : {},
    path: `/transactions/${id}`,
    routes: [{ path: '/transactions/:id', element: <TransactionPage /> }],
  });
}

describe('the transaction page', () => {
  // Spec 2 §3 transactionTypeName, the ERP's own name of the type.
  it("shows the type by the ERP's name when it has one", async () => {
    stubFetch({
      [`GET /transactions/${id}`]: {
        body: { ...detail, transactionTypeName: 'Sales Invoice (SOP)' },
      },
    });
    renderPage();
    expect(await screen.findByText('Sales Invoice (SOP)')).toBeInTheDocument();
  });

  it('titles the page with the amount and shows the details, contact and account', async () => {
    stubFetch({ [`GET /transactions/${id}`]: { body: detail } });
    renderPage();
    expect(await screen.findByRole('heading', { name: '£1,234.50' })).toBeInTheDocument();
    expect(screen.getByText('£1,034.50')).toBeInTheDocument();
    expect(screen.getAllByText('Part Paid').length).toBeGreaterThan(0);
    expect(screen.getByText('PO-77')).toBeInTheDocument();
    expect(screen.getByText('ann@acme.test')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Acme Ltd' })).toHaveAttribute(
      'href',
      `/accounts/${detail.account.id}`,
    );
    expect(screen.queryByText('HOST-9')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Settlement offers/ })).toHaveTextContent('2');
    expect(screen.getByRole('tab', { name: /Documents/ })).toHaveTextContent('1');
  });

  // Every tab that holds a list shows its count, the same way.
  it('counts every list tab: offers, allocations, late payments and documents', async () => {
    const fee = {
      id: '0199f0aa-0000-7000-8000-0000000000f1',
      createdOn: '2026-11-20T10:00:00.000Z',
      transactionId: id,
      paymentTransactionId: '0199f0aa-0000-7000-8000-0000000000f2',
      feeDetails: [
        { type: 'FixedSum', currency: 'GBP', amount: 40 },
        { type: 'Interest', currency: 'GBP', amount: 2.5 },
      ],
    };
    stubFetch({
      [`GET /transactions/${id}`]: { body: { ...detail, paymentFeeTransactions: [fee] } },
    });
    renderPage();
    await screen.findByRole('heading', { name: '£1,234.50' });
    expect(
      screen.getByRole('tab', { name: /^Settlement offers\s*2 settlement offers$/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('tab', { name: /^Payment allocations\s*0 payment allocations$/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('tab', { name: /^Late payments\s*2 late payments$/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /^Documents\s*1 documents$/ })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Info' })).toBeInTheDocument();
  });

  it('badges an invoice past due with its days late, at the top and beside its due date', async () => {
    const dueDate = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    stubFetch({ [`GET /transactions/${id}`]: { body: { ...detail, dueDate } } });
    renderPage();
    await screen.findByRole('heading', { name: '£1,234.50' });
    expect(screen.getAllByText('Overdue · 3 days')).toHaveLength(2);
  });

  // A transaction dated 23 Nov showed as 22/11 in Pacific time; a calendar day is
  // the same day in every zone, while an instant (a document's upload time) is the user's.
  it.each([
    ['Pacific Standard Time', '2026/11/23 02:30:00'],
    ['Tokyo Standard Time', '2026/11/23 19:30:00'],
  ])('shows the transaction and due dates as the same days in %s', async (timeZoneId, uploaded) => {
    stubFetch({
      [`GET /transactions/${id}`]: {
        body: {
          ...detail,
          transactionDate: '2026-11-23',
          dueDate: '2026-12-23',
          documents: [{ ...detail.documents[0], createdOn: '2026-11-23T10:30:00.000Z' }],
        },
      },
    });
    renderPage({ timeZoneId });
    expect(await screen.findByText('2026/11/23')).toBeInTheDocument();
    expect(screen.getByText('2026/12/23')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: /Documents/ }));
    expect(await screen.findByText(uploaded)).toBeInTheDocument();
  });

  it('shows the custom host id with the showAdvancedInfo setting', async () => {
    stubFetch({ [`GET /transactions/${id}`]: { body: detail } });
    renderPage({ showAdvancedInfo: true });
    expect(await screen.findByText('HOST-9')).toBeInTheDocument();
  });

  it('marks expired offers, locks used ones, and adds an offer with the form rules', async () => {
    const calls = stubFetch({
      [`GET /transactions/${id}`]: { body: detail },
      [`POST /transactions/${id}/settlement-offers`]: {
        status: 201,
        body: { ...offer, id: '0199f0aa-0000-7000-8000-0000000000f3' },
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('tab', { name: /Settlement offers/ }));
    const table = await screen.findByRole('table', { name: 'Settlement offers' });
    const expiredRow = within(table).getByText('Early bird').closest('tr') as HTMLElement;
    expect(within(expiredRow).getByText('Expired')).toBeInTheDocument();
    const usedRow = within(table).getByText('Used one').closest('tr') as HTMLElement;
    expect(within(usedRow).queryByText('Expired')).not.toBeInTheDocument();
    expect(within(usedRow).getByRole('button', { name: 'Edit' })).toBeDisabled();
    expect(within(usedRow).getByRole('button', { name: 'Delete' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'New Settlement Offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Settlement Offer' });
    // spec 2 §4: only the types already present; currency read-only from the transaction.
    expect(within(dialog).getByRole('textbox', { name: 'Currency' })).toHaveValue('GBP');
    expect(within(dialog).getByRole('textbox', { name: 'Type' })).toHaveValue('Absolute Discount');
    const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
    await userEvent.type(amount, '2000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText(transactionMessages.offerAmountRange),
    ).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    const post = calls.find((call) => call.method === 'POST')!;
    expect(post.body).toMatchObject({
      type: 'AbsoluteDiscount',
      amount: 12.5,
      percentageDiscount: null,
    });
    // A calendar day, sent as it is.
    expect((post.body as { validUntil: string }).validUntil).toBe('2026-12-01');
  }, 20_000);

  // A typed date that is not a real day is an inline error, never rolled over.
  it('refuses a typed valid-from of 2026-13-45 inline and sends nothing', async () => {
    const calls = stubFetch({ [`GET /transactions/${id}`]: { body: detail } });
    renderPage();
    await userEvent.click(await screen.findByRole('tab', { name: /Settlement offers/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'New Settlement Offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Settlement Offer' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Amount' }), '5');
    const validFrom = within(dialog).getByRole('textbox', { name: 'Valid from' });
    await userEvent.type(validFrom, '2026-13-45');
    await userEvent.tab();
    expect(await within(dialog).findByText('Enter a valid date')).toBeInTheDocument();
    expect(validFrom).toHaveValue('2026-13-45');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Valid From must be a date (YYYY-MM-DD).'),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  }, 20_000);

  it('disables the controls the user has no permission for', async () => {
    stubFetch({ [`GET /transactions/${id}`]: { body: detail } });
    renderPage({ policy: true, permissions: ['EditSettlementConfigurations'] });
    await userEvent.click(await screen.findByRole('tab', { name: /Settlement offers/ }));
    expect(await screen.findByRole('button', { name: 'New Settlement Offer' })).toBeDisabled();
    const row = screen.getByText('Early bird').closest('tr') as HTMLElement;
    expect(within(row).getByRole('button', { name: 'Edit' })).toBeEnabled();
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeDisabled();
    await userEvent.click(screen.getByRole('tab', { name: /Documents/ }));
    expect(await screen.findByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('shows sizes in thousand steps and confirms a document delete naming the file', async () => {
    const calls = stubFetch({
      [`GET /transactions/${id}`]: { body: detail },
      [`DELETE /transactions/${id}/documents/${detail.documents[0]!.id}`]: { status: 204 },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('tab', { name: /Documents/ }));
    expect(await screen.findByText('1.5 MB')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete remittance.png' }));
    expect(
      await screen.findByText('Are you sure you want to delete the document remittance.png?'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE')).toBe(true));
  });

  it('shows the load failure', async () => {
    stubFetch({
      [`GET /transactions/${id}`]: {
        status: 500,
        body: { type: 'about:blank', title: 'Internal Server Error', status: 500 },
      },
    });
    renderPage();
    expect(await screen.findByText('Loading Error')).toBeInTheDocument();
  });
});
