import { describe, expect, it } from 'vitest';
import { debtBandLabel, formatPounds } from './late-payments.js';
import { settlementConfigurationSummary } from './settlements.js';

describe('debt recovery table wording (spec 3 §3, §9)', () => {
  it('shows pounds with .00 trimmed, up to and or more', () => {
    expect(formatPounds(40)).toBe('£40');
    expect(formatPounds(999.99)).toBe('£999.99');
    expect(debtBandLabel({ from: 0, to: 999.99 })).toBe('up to £999.99');
    expect(debtBandLabel({ from: 1000, to: 9999.99 })).toBe('£1,000 to £9,999.99');
    expect(debtBandLabel({ from: 10000, to: 0 })).toBe('£10,000 or more');
  });
});

describe('settlement configuration summary', () => {
  it('says the rule in one sentence', () => {
    const base = {
      type: 'PercentageDiscount' as const,
      percentageDiscount: 2,
      amount: null,
      currency: null,
    };
    expect(
      settlementConfigurationSummary({ ...base, dateType: 'TransactionDate', numberOfDays: 10 }),
    ).toBe('2% off when paid within 10 days of the transaction date');
    expect(settlementConfigurationSummary({ ...base, dateType: 'DueDate', numberOfDays: 5 })).toBe(
      '2% off when paid at least 5 days before the due date',
    );
    expect(
      settlementConfigurationSummary({
        type: 'AbsoluteDiscount',
        percentageDiscount: null,
        amount: 25,
        currency: 'GBP',
        dateType: 'DueDate',
        numberOfDays: 0,
      }),
    ).toBe('GBP 25.00 off when paid by the due date');
  });
});
