import type { PaymentRequest } from '@ledgerline/contract';

/** A payment request as the server answers it, for component tests. */
export function aPaymentRequest(n: number, overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  const id = `0199f0aa-0000-7000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    requestType: 'Transaction',
    requestStatus: 'Open',
    captureType: 'Immediate',
    customerName: `Customer ${n}`,
    customerReference: `ACC${String(n).padStart(6, '0')}`,
    currency: 'GBP',
    amountToPay: 100 + n,
    createdOn: '2026-11-20T09:55:00.000Z',
    validFrom: '2026-11-20T00:00:00.000Z',
    validUntil: null,
    paymentRequiredBy: '2026-12-20',
    description: 'Goods and/or services.',
    paymentTerms: '30 days from transaction date',
    test: false,
    requestUrl: `http://localhost:3000/pay/${id}`,
    accountId: '0199f0aa-0000-7000-8000-0000000000a1',
    account: { id: '0199f0aa-0000-7000-8000-0000000000a1', accountReference: 'ACC000001', name: 'Acme Ltd' },
    billingContact: { companyName: 'Acme Ltd', firstNames: 'Alice', surname: 'Smith', emailAddress: 'alice@acme.test', address: null },
    deliveryContact: null,
    options: { usage: 'Single' },
    ...overrides,
  };
}
