import type {
  Account,
  Payer,
  PaymentRequest,
  PaymentTransaction,
  Transaction,
} from '@ledgerline/contract';

export const accountId = '0199f0aa-0000-7000-8000-0000000000a1';
export const payerId = '0199f0aa-0000-7000-8000-0000000000b1';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    id: accountId,
    accountReference: 'ACC000001',
    name: 'Acme Widgets Ltd',
    shortName: 'ACME1',
    accountType: 'Customer',
    currency: 'GBP',
    balance: 1234.5,
    overdueAmount: 200,
    disputedAmount: 0,
    creditLimit: 5000,
    emailAddresses: [
      { emailAddress: 'ap@acme.example', type: 'Accounts', isDefault: true },
      { emailAddress: 'boss@acme.example', type: null, isDefault: false },
    ],
    contacts: [],
    addresses: [],
    accountSettings: {
      disableAutoApplySettlements: false,
      settlementConfigurationGroupId: null,
      disableLatePayments: true,
      latePaymentConfigurationGroupId: null,
      editPaymentStatus: 'Default',
      editPaymentOverrideStatus: 'UseAccountStatus',
    },
    createdOn: '2026-01-05T09:00:00.000Z',
    updatedOn: '2026-01-05T09:00:00.000Z',
    counts: {
      transactions: { count: 7, estimated: false },
      paymentTransactions: { count: 3, estimated: false },
      paymentRequests: { count: 2, estimated: false },
      payers: { count: 1, estimated: false },
      reminders: { count: 4, estimated: false },
    },
    ...overrides,
  };
}

export function aPayer(overrides: Partial<Payer['details']> = {}): Payer {
  return {
    id: payerId,
    accountId,
    createdOn: '2026-02-01T10:00:00.000Z',
    details: {
      companyName: 'Acme Widgets Ltd',
      firstNames: 'Jo',
      surname: 'Bloggs',
      emailAddress: 'jo@acme.example',
      address1: '1 High Street',
      address2: null,
      address3: null,
      address4: null,
      city: 'Leeds',
      state: null,
      postCode: 'LS1 1AA',
      country: 'United Kingdom',
      ...overrides,
    },
  };
}

export function aPaymentTransaction(
  overrides: Partial<PaymentTransaction> = {},
): PaymentTransaction {
  return {
    id: '0199f0aa-0000-7000-8000-0000000000c1',
    type: 'Payment',
    status: 'Paid',
    allocatedStatus: 'AutoAllocated',
    ledgerlineReference: 'LL000000077',
    createdOn: '2026-11-20T09:55:00.000Z',
    statusDateTime: '2026-11-20T10:00:00.000Z',
    totalAmount: 99,
    currency: 'GBP',
    fee: null,
    feeCurrency: null,
    customerName: 'Jo Bloggs',
    companyName: 'Acme Widgets Ltd',
    customerDetails: null,
    accountId,
    payerId,
    paymentRequestId: null,
    paymentProviderId: null,
    paymentProviderName: 'Stripe',
    paymentProviderReference: 'pi_1',
    paymentMethodType: 'Card',
    ...overrides,
  };
}

export function aTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: '0199f0aa-0000-7000-8000-0000000000d1',
    transactionReference: 'INV0000042',
    transactionSecondReference: null,
    orderReference: null,
    transactionType: 'Invoice',
    transactionDate: '2026-10-01',
    dueDate: '2026-10-31',
    transactionAmount: 120,
    discountedAmount: 0,
    allocatedAmount: 0,
    currency: 'GBP',
    paidStatus: 'Unpaid',
    description: null,
    paymentTermsDescription: null,
    postingApplication: null,
    customHostId: null,
    accountId,
    createdOn: '2026-10-01T00:00:00.000Z',
    updatedOn: '2026-10-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aPaymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    id: '0199f0aa-0000-7000-8000-0000000000e1',
    requestType: 'Account',
    requestStatus: 'Open',
    captureType: 'Immediate',
    customerName: 'Requested Customer',
    customerReference: null,
    currency: 'GBP',
    amountToPay: 75,
    createdOn: '2026-11-01T09:00:00.000Z',
    validFrom: null,
    validUntil: null,
    paymentRequiredBy: null,
    description: null,
    paymentTerms: null,
    test: false,
    requestUrl: 'http://localhost/pay/1',
    accountId,
    account: null,
    billingContact: null,
    deliveryContact: null,
    options: { usage: null },
    ...overrides,
  };
}
