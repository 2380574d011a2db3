import { paymentRequestMessages as m } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import { checkedAmounts } from './payment-requests.allocations.js';

const id = '01900000-0000-7000-8000-000000000001';
const entry = {
  transactionId: id,
  amount: null,
  required: true,
  canEditAmount: false,
  minimumAmount: null,
  maximumAmount: null,
};

describe('checkedAmounts', () => {
  it('keeps the stored amount when the entry has none, and takes a new one within what is owed', () => {
    const stored = new Map([[id, { amount: '40.0000' }]]);
    const owed = new Map([[id, '50.0000']]);
    expect(checkedAmounts([entry], stored, owed, 'GBP')).toEqual([40]);
    expect(checkedAmounts([{ ...entry, amount: 50 }], stored, owed, 'GBP')).toEqual([50]);
  });

  it('refuses an entry the request does not have, and an amount above what is owed', () => {
    const owed = new Map([[id, '50.0000']]);
    expect(() => checkedAmounts([entry], new Map(), owed, 'GBP')).toThrow(m.allocationNotFound);
    const stored = new Map([[id, { amount: null }]]);
    expect(() => checkedAmounts([{ ...entry, amount: 60 }], stored, owed, 'GBP')).toThrow(
      m.amountAboveOutstanding,
    );
  });
});
