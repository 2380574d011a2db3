import { describe, expect, it } from 'vitest';
import { refundableAmountOf } from './payment-transactions.rows.js';

const payment = { type: 'Payment', status: 'Paid', totalAmount: '100.00' };

describe('refundableAmountOf', () => {
  it('is the total less the Processing and Refunded refunds', () => {
    const refunds = [
      { status: 'Refunded', totalAmount: '30.10' },
      { status: 'Processing', totalAmount: '20.00' },
      { status: 'Failed', totalAmount: '40.00' },
    ];
    expect(refundableAmountOf(payment, refunds)).toBe(49.9);
  });

  it('is 0 once everything is refunded, and never below', () => {
    expect(refundableAmountOf(payment, [{ status: 'Refunded', totalAmount: '100.00' }])).toBe(0);
    expect(refundableAmountOf(payment, [{ status: 'Refunded', totalAmount: '120.00' }])).toBe(0);
  });

  it('is 0 for a payment that cannot give money back', () => {
    expect(refundableAmountOf({ ...payment, status: 'Pending' }, [])).toBe(0);
    expect(refundableAmountOf({ ...payment, type: 'Refund' }, [])).toBe(0);
    expect(refundableAmountOf({ ...payment, status: 'Duplicated' }, [])).toBe(100);
  });
});
