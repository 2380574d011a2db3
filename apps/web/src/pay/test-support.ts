import type { PayPage, PayPaymentStatus } from '@ledgerline/contract';
import { vi } from 'vitest';
import type { PayBrowser } from './browser';

export const requestId = '0190d7a2-5c3e-7b4a-9e1f-2a3b4c5d6e7f';
export const paymentId = '0190d7a2-0000-7000-8000-00000000aa01';
export const sandboxMethodId = '0190d7a2-0000-7000-8000-0000000000c1';
export const stripeMethodId = '0190d7a2-0000-7000-8000-0000000000c2';
export const goCardlessMethodId = '0190d7a2-0000-7000-8000-0000000000c3';

/** An Open Transaction request for two invoices: one with a discount, one late with fees. */
export function openTransactionPage(overrides: Partial<PayPage> = {}): PayPage {
  return {
    id: requestId,
    state: 'Open',
    requestType: 'Transaction',
    usageType: 'Single',
    reference: 'PR-1042',
    description: 'November invoices',
    customerName: 'Harbour Supplies Ltd',
    billingContact: null,
    currency: 'GBP',
    quotedOn: '2026-11-24',
    validFrom: null,
    validUntil: null,
    paymentRequiredBy: null,
    overdue: false,
    company: {
      name: 'Northwind Trading',
      logoUrl: `/api/v0/pay/${requestId}/logo`,
      website: 'northwind.example',
      emailAddress: 'accounts@northwind.example',
      telephone: '020 7946 0000',
      addressLines: ['1 Quay Street', 'Bristol', 'BS1 4DJ'],
    },
    invoices: [
      {
        transactionId: '0190d7a2-0000-7000-8000-0000000000e1',
        reference: 'INV-001',
        description: null,
        transactionDate: '2026-11-01',
        dueDate: '2026-12-01',
        outstandingAmount: 1000,
        discount: 20,
        offer: {
          id: '0190d7a2-0000-7000-8000-0000000000f1',
          source: 'Generated',
          description: '2% for paying early',
          validUntil: '2026-11-30',
        },
        fees: [],
        feesReason: null,
        amountToPay: 980,
        amountInFull: 980,
        editable: null,
      },
      {
        transactionId: '0190d7a2-0000-7000-8000-0000000000e2',
        reference: 'INV-002',
        description: 'Delivery',
        transactionDate: '2026-09-01',
        dueDate: '2026-10-01',
        outstandingAmount: 500,
        discount: 0,
        offer: null,
        fees: [
          {
            type: 'StatutoryInterest',
            amount: 6.22,
            description: 'Statutory interest (12.00% a year, 54 days)',
          },
          { type: 'FixedSum', amount: 70, description: 'Fixed sum for late payment' },
        ],
        feesReason: 'This invoice was due on 1 October 2026 and is 54 days late.',
        amountToPay: 576.22,
        amountInFull: 576.22,
        editable: null,
      },
    ],
    discountTotal: 20,
    feeTotal: 76.22,
    amountToPay: 1556.22,
    paidAmount: 0,
    partPayment: null,
    methods: [
      {
        configurationId: goCardlessMethodId,
        providerName: 'GoCardless',
        displayName: 'Direct Debit from your bank',
        group: 'BankDebit',
        isDefault: false,
        isTest: false,
      },
      {
        configurationId: stripeMethodId,
        providerName: 'Stripe',
        displayName: 'Card with Stripe',
        group: 'Card',
        isDefault: false,
        isTest: false,
      },
      {
        configurationId: sandboxMethodId,
        providerName: 'Sandbox',
        displayName: 'Sandbox card',
        group: 'Card',
        isDefault: true,
        isTest: true,
      },
    ],
    receipt: null,
    test: true,
    ...overrides,
  };
}

export const receipt = {
  paymentId,
  reference: 'PAY-000123',
  amount: 1556.22,
  currency: 'GBP',
  paidAt: '2026-11-24T10:15:00Z',
  paymentMethodType: 'Card',
  providerName: 'Sandbox',
};

export function paymentStatus(overrides: Partial<PayPaymentStatus> = {}): PayPaymentStatus {
  return {
    paymentId,
    status: 'Processing',
    outcome: 'Waiting',
    message: null,
    receipt: null,
    ...overrides,
  };
}

/** A browser that records where the page sends the payer, with a real sessionStorage. */
export function recordingBrowser() {
  return {
    goTo: vi.fn<PayBrowser['goTo']>(),
    postTo: vi.fn<PayBrowser['postTo']>(),
    replaceQuery: vi.fn<PayBrowser['replaceQuery']>(),
    storage: window.sessionStorage,
  } satisfies PayBrowser;
}
