import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './calendar-date.js';
import { createBankRateHistory, seededBankRates } from './bank-rates.js';
import { dailyInterest, fixedSum, statutoryFees } from './uk-statutory.js';

const history = createBankRateHistory(seededBankRates);

// ../shared/reference/uk-late-payment.md, typed in again: interest starting, statutory rate.
const referenceTable: [string, string, string][] = [
  ['2020-01-01', '2020-06-30', '8.75'],
  ['2020-07-01', '2020-12-31', '8.10'],
  ['2021-01-01', '2021-06-30', '8.10'],
  ['2021-07-01', '2021-12-31', '8.10'],
  ['2022-01-01', '2022-06-30', '8.25'],
  ['2022-07-01', '2022-12-31', '9.25'],
  ['2023-01-01', '2023-06-30', '11.50'],
  ['2023-07-01', '2023-12-31', '13.00'],
  ['2024-01-01', '2024-06-30', '13.25'],
  ['2024-07-01', '2024-12-31', '13.25'],
  ['2025-01-01', '2025-06-30', '12.75'],
  ['2025-07-01', '2025-12-31', '12.25'],
  ['2026-01-01', '2026-06-30', '11.75'],
];

/** Fees of a £10,000 debt whose interest starts on `start` (no grace) and is paid `days` later. */
function feesFrom(start: string, days: number, debt = '10000') {
  return statutoryFees(
    {
      debt: new Big(debt),
      currency: 'GBP',
      dueDate: addDays(start, -1),
      gracePeriodInDays: 0,
      applyCharges: true,
      paidOn: addDays(start, days - 1),
    },
    history,
  );
}

describe('UK statutory interest against the reference table', () => {
  for (const [first, last, rate] of referenceTable) {
    for (const start of [first, last]) {
      it(`interest starting ${start} runs at ${rate}% for the life of the debt`, () => {
        // 400 days: the debt outlives the half-year and the Bank Rate changes since.
        for (const days of [1, 30, 400]) {
          const fees = feesFrom(start, days)!;
          expect(fees.interestStart).toBe(start);
          expect(fees.annualRate!.toFixed(2)).toBe(rate);
          expect(fees.daysLate).toBe(days);
          const expected = new Big(10000)
            .times(rate)
            .times(days)
            .div(36500)
            .round(2, Big.roundHalfUp);
          expect(fees.interest.toFixed(2)).toBe(expected.toFixed(2));
          expect(fees.fixedSum.toFixed(2)).toBe('100.00');
        }
      });
    }
  }

  it('gives the sums worked by hand', () => {
    // 10,000 × 8.75 % × 30 / 365 = 71.9178…; 10,000 × 13 % × 30 / 365 = 106.8493…
    expect(feesFrom('2020-01-01', 30)!.interest.toFixed(2)).toBe('71.92');
    expect(feesFrom('2023-07-01', 30)!.interest.toFixed(2)).toBe('106.85');
    // 10,000 × 11.75 % × 1 / 365 = 3.2191…
    expect(feesFrom('2026-01-01', 1)!.interest.toFixed(2)).toBe('3.22');
  });
});

describe('fixed sum (debt recovery cost)', () => {
  it.each([
    ['0.01', '40'],
    ['999.99', '40'],
    ['1000', '70'],
    ['9999.99', '70'],
    ['10000', '100'],
    ['250000', '100'],
  ])('a debt of £%s costs £%s', (debt, sum) => {
    expect(fixedSum(new Big(debt)).toFixed()).toBe(sum);
    expect(feesFrom('2025-03-01', 1, debt)!.fixedSum.toFixed()).toBe(sum);
  });

  it('is not charged when the configuration does not apply charges', () => {
    const fees = statutoryFees(
      {
        debt: new Big(5000),
        currency: 'GBP',
        dueDate: '2025-03-01',
        gracePeriodInDays: 0,
        applyCharges: false,
        paidOn: '2025-03-31',
      },
      history,
    )!;
    expect(fees.fixedSum.toFixed()).toBe('0');
    expect(fees.interest.gt(0)).toBe(true);
  });
});

describe('grace period and the day interest starts', () => {
  const base = {
    debt: new Big(5000),
    currency: 'GBP',
    dueDate: '2026-01-10',
    applyCharges: true,
  };

  it('charges nothing up to and on the due date', () => {
    expect(
      statutoryFees({ ...base, gracePeriodInDays: 0, paidOn: '2026-01-10' }, history),
    ).toBeNull();
    expect(
      statutoryFees({ ...base, gracePeriodInDays: 0, paidOn: '2025-12-01' }, history),
    ).toBeNull();
  });

  it('starts the day after the due date', () => {
    const fees = statutoryFees({ ...base, gracePeriodInDays: 0, paidOn: '2026-01-11' }, history)!;
    expect(fees.interestStart).toBe('2026-01-11');
    expect(fees.daysLate).toBe(1);
  });

  it('starts the day after the due date plus the grace period, and counts from there', () => {
    expect(
      statutoryFees({ ...base, gracePeriodInDays: 5, paidOn: '2026-01-15' }, history),
    ).toBeNull();
    const fees = statutoryFees({ ...base, gracePeriodInDays: 5, paidOn: '2026-02-19' }, history)!;
    expect(fees.interestStart).toBe('2026-01-16');
    expect(fees.daysLate).toBe(35);
    // 5,000 × 11.75 % × 35 / 365 = 56.3356…
    expect(fees.interest.toFixed(2)).toBe('56.34');
    expect(fees.fixedSum.toFixed()).toBe('70');
  });

  it('fixes the reference rate by the half-year the grace period moves the start into', () => {
    // Due 2025-06-28: no grace starts 2025-06-29 (H1, 4.75 %); 5 days grace starts 2025-07-04 (H2, 4.25 %).
    const due = { ...base, dueDate: '2025-06-28', paidOn: '2025-08-01' };
    expect(
      statutoryFees({ ...due, gracePeriodInDays: 0 }, history)!.referenceRate!.toFixed(2),
    ).toBe('4.75');
    expect(
      statutoryFees({ ...due, gracePeriodInDays: 5 }, history)!.referenceRate!.toFixed(2),
    ).toBe('4.25');
  });
});

describe('Bank Rate history as data', () => {
  it('uses a rate an operator added for a later half-year', () => {
    const extended = createBankRateHistory([
      ...seededBankRates,
      { from: '2026-05-07', rate: '3.50' },
    ]);
    const fees = statutoryFees(
      {
        debt: new Big(10000),
        currency: 'GBP',
        dueDate: '2026-06-30',
        gracePeriodInDays: 0,
        applyCharges: true,
        paidOn: '2026-07-30',
      },
      extended,
    )!;
    expect(fees.referenceRate!.toFixed(2)).toBe('3.50');
    expect(fees.annualRate!.toFixed(2)).toBe('11.50');
  });

  it('knows no rate before its first change', () => {
    expect(createBankRateHistory(seededBankRates).rateOn('2018-08-01')).toBeNull();
  });
});

describe('dailyInterest, exact integer arithmetic', () => {
  it('equals big.js debt × rate × days ÷ 36,500 rounded half-up, for 0, 2 and 3 decimals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.constantFrom(0, 2, 3),
        (debtUnits, rateUnits, days, places) => {
          const debt = new Big(debtUnits).div(10_000);
          const rate = new Big(rateUnits).div(10_000);
          const expected = debt.times(rate).times(days).div(36500).round(places, Big.roundHalfUp);
          expect(dailyInterest(debt, rate, days, places).eq(expected)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
