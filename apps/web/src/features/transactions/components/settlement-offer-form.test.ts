import { transactionMessages, type TransactionDetail } from '@ledgerline/contract';
import { describe, expect, it } from 'vitest';
import {
  initialOfferValues,
  offerTypeChoices,
  validateOffer,
  type SettlementOfferFormValues,
} from './settlement-offer-form';

const transaction = {
  dueDate: '2026-12-31',
  settlementOffers: [],
} as unknown as TransactionDetail;
const base: SettlementOfferFormValues = {
  type: 'AbsoluteDiscount',
  description: '',
  validFrom: null,
  validUntil: null,
  amount: 10,
  percentageDiscount: '',
};

describe('the settlement offer form rules (spec 2 §5)', () => {
  it('defaults a new offer to 0 % and valid until the due date', () => {
    expect(initialOfferValues(transaction, undefined)).toMatchObject({
      percentageDiscount: 0,
      validUntil: '2026-12-31',
    });
  });

  it('offers only the types already present once there are offers', () => {
    const withOffer = {
      ...transaction,
      settlementOffers: [{ type: 'ReplacementAmount' }],
    } as unknown as TransactionDetail;
    expect(offerTypeChoices(withOffer, false)).toEqual(['ReplacementAmount']);
    expect(offerTypeChoices(withOffer, true)).toHaveLength(3);
    expect(offerTypeChoices(transaction, false)).toHaveLength(3);
  });

  it.each([
    [{ amount: '' }, 'amount', transactionMessages.offerAmountRequired],
    [{ amount: 'abc' }, 'amount', transactionMessages.offerAmountRequired],
    [{ amount: 50.01 }, 'amount', transactionMessages.offerAmountRange],
    [{ amount: -1 }, 'amount', transactionMessages.offerAmountRange],
    [
      { type: 'PercentageDiscount', percentageDiscount: 101 },
      'percentageDiscount',
      transactionMessages.offerPercentageRange,
    ],
    [
      { type: 'PercentageDiscount', percentageDiscount: '' },
      'percentageDiscount',
      transactionMessages.offerPercentageRequired,
    ],
    [{ description: 'x'.repeat(101) }, 'description', transactionMessages.offerDescriptionTooLong],
    [{ validFrom: '2026-13-45' }, 'validFrom', 'Valid From must be a date (YYYY-MM-DD).'],
    [
      { validFrom: '2026-06-02', validUntil: '2026-06-01' },
      'validUntil',
      transactionMessages.offerDates,
    ],
  ] as const)('refuses %j', (change, field, message) => {
    expect(
      validateOffer({ ...base, ...change } as SettlementOfferFormValues, 50)[
        field
      ],
    ).toBe(message);
  });

  it('accepts the amount owed exactly, a trimmed description and a same-day offer', () => {
    expect(
      validateOffer(
        {
          ...base,
          amount: 50,
          description: ' x'.repeat(50) + '  ',
          validFrom: '2026-06-01',
          validUntil: '2026-06-01',
        },
        50,
      ),
    ).toEqual({});
  });
});
