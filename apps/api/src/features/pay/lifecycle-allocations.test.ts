import { describe, expect, it } from 'vitest';
import { invoiceShareOf } from './lifecycle-allocations.js';

const invoice = (transactionAmount: string, allocatedAmount = '0', discountedAmount = '0') => ({
  transactionAmount,
  allocatedAmount,
  discountedAmount,
});

describe('invoiceShareOf', () => {
  it('puts the invoice in full after its discount', () => {
    const share = invoiceShareOf(invoice('100'), {
      discount: '5',
      outstandingAmount: '100',
    });
    expect(share?.discount.toFixed(2)).toBe('5.00');
    expect(share?.allocated.toFixed(2)).toBe('95.00');
  });

  it('puts the part the payer chose, with no discount', () => {
    const share = invoiceShareOf(invoice('100'), {
      discount: '0',
      paidAmount: '30',
      outstandingAmount: '100',
    });
    expect(share?.discount.toFixed(2)).toBe('0.00');
    expect(share?.allocated.toFixed(2)).toBe('30.00');
  });

  it('never goes past what the invoice still owes', () => {
    const share = invoiceShareOf(invoice('100', '90'), {
      discount: '5',
      outstandingAmount: '100',
    });
    expect(share?.discount.toFixed(2)).toBe('5.00');
    expect(share?.allocated.toFixed(2)).toBe('5.00');
    const small = invoiceShareOf(invoice('100', '97'), {
      discount: '5',
      outstandingAmount: '100',
    });
    expect(small?.discount.toFixed(2)).toBe('3.00');
    expect(small?.allocated.toFixed(2)).toBe('0.00');
  });

  it('puts nothing on an invoice another payment has settled', () => {
    expect(
      invoiceShareOf(invoice('100', '95', '5'), {
        discount: '0',
        paidAmount: '10',
        outstandingAmount: '100',
      }),
    ).toBeNull();
  });
});
