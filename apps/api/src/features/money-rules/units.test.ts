import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './calendar-date.js';
import { createBankRateHistory, seededBankRates } from './bank-rates.js';
import { bigArithmetic } from './money.js';
import { quoteInvoice, quoteInvoiceIn, type MoneyRules, type QuotedInvoiceInput } from './quote.js';
import type { ManualOffer, SettlementFilter, SettlementRule } from './settlement-match.js';
import { OutOfUnits, unitArithmetic as units } from './units.js';
import { statutoryFeesIn } from './uk-statutory.js';

// The whole-unit arithmetic against big.js, the reference it replaces: same figures, same text.

const currencies = [
  ['JPY', 0],
  ['GBP', 2],
  ['EUR', 2],
  ['KWD', 3],
  ['CLF', 4],
] as const;

/** Decimal text of `n` ten-thousandths cut to `places` decimals, as numeric columns print it. */
function textOf(n: number, places: number, padded: boolean): string {
  const value = new Big(n).div(10_000).round(places, Big.roundDown);
  return padded ? value.toFixed(4) : value.toFixed();
}

const anyPlaces = fc.constantFrom(0, 1, 2, 3, 4);
/** Amounts up to a million (most) or up to 10¹¹ (a few), with 0–4 decimals, as text or number. */
const amount = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 10_000_000_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: -10_000_000, max: 0 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 999_999_999_999_999 }) },
    ),
    anyPlaces,
    fc.constantFrom('text', 'padded', 'number'),
  )
  .map(([n, places, form]) => {
    const text = textOf(n, places, form === 'padded');
    return form === 'number' ? Number(text) : text;
  });
/** Percentages as numeric(7,4) holds them, some below 0 and above 100. */
const percentage = fc
  .tuple(fc.integer({ min: -200_000, max: 1_500_000 }), anyPlaces)
  .map(([n, places]) => textOf(n, places, false));
const currency = fc.constantFrom(...currencies.map(([code]) => code));

const same = (unitValue: number, bigValue: Big) => {
  expect(units.text(unitValue)).toBe(bigValue.toFixed());
};

let [checked, outOfUnits] = [0, 0];
/** `check`, unless whole units refuse the case (then big.js prices it: the quotes below). */
function inUnits(check: () => void) {
  checked++;
  try {
    check();
  } catch (error) {
    if (!(error instanceof OutOfUnits)) throw error;
    outOfUnits++;
  }
}

describe('unitArithmetic equals big.js', () => {
  it('reads and prints amounts as big.js does, and compares, adds and subtracts them', () => {
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        const [ua, ub] = [units.amount(a), units.amount(b)];
        const [ba, bb] = [new Big(a), new Big(b)];
        same(ua, ba);
        expect(units.cmp(ua, ub)).toBe(ba.cmp(bb));
        expect(units.isPositive(ua)).toBe(ba.gt(0));
        inUnits(() => same(units.plus(ua, ub), ba.plus(bb)));
        inUnits(() => same(units.minus(ua, ub), ba.minus(bb)));
        if (ba.gte(0)) expect(units.text2(ua)).toBe(ba.toFixed(2));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same percentage discount, rounded half-up to 0, 2, 3 and 4 decimals', () => {
    fc.assert(
      fc.property(amount, percentage, currency, (outstanding, percent, code) => {
        const unit = units.percentOf(units.amount(outstanding), percent, code);
        same(unit, bigArithmetic.percentOf(new Big(outstanding), percent, code));
      }),
      { numRuns: 3000 },
    );
  });

  it('holds an absolute discount between 0 and what is outstanding, rounded alike', () => {
    fc.assert(
      fc.property(amount, amount, currency, (discount, outstanding, code) => {
        const unit = units.clampDiscount(units.amount(discount), units.amount(outstanding), code);
        const big = bigArithmetic.clampDiscount(new Big(discount), new Big(outstanding), code);
        same(unit, big);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same statutory interest and fixed sum over amounts, rates, days and grace', () => {
    const history = createBankRateHistory(seededBankRates);
    fc.assert(
      fc.property(
        amount,
        fc.integer({ min: 0, max: 2500 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 60 }),
        currency,
        fc.boolean(),
        (debt, dueOffset, daysLate, grace, code, applyCharges) => {
          const input = {
            currency: code,
            dueDate: addDays('2019-06-01', dueOffset),
            gracePeriodInDays: grace,
            applyCharges,
            paidOn: addDays('2019-06-01', dueOffset + daysLate),
          };
          const big = statutoryFeesIn(bigArithmetic, { ...input, debt: new Big(debt) }, history);
          inUnits(() => {
            const unit = statutoryFeesIn(units, { ...input, debt: units.amount(debt) }, history);
            if (big === null) {
              expect(unit).toBeNull();
              return;
            }
            expect(unit).not.toBeNull();
            same(unit!.interest, big.interest);
            same(unit!.fixedSum, big.fixedSum);
            expect(units.text2(unit!.interest)).toBe(big.interest.toFixed(2));
            expect(unit!.annualRate).toBe(big.annualRate);
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('gives the same interest for any rate with up to four decimals, in BigInt past safe integers', () => {
    fc.assert(
      fc.property(
        amount,
        fc.integer({ min: 0, max: 300_000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.constantFrom(0, 2, 3, 4),
        (debt, rateUnits, days, places) => {
          const rate = new Big(rateUnits).div(10_000);
          inUnits(() => {
            const unit = units.dailyInterest(units.amount(debt), rate, days, places);
            same(unit, bigArithmetic.dailyInterest(new Big(debt), rate, days, places));
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('leaves to big.js what whole units cannot hold', () => {
    // The properties above met a few such cases (sums past 10¹¹, negative debts), not many.
    expect(outOfUnits).toBeLessThan(checked / 10);
    expect(() => units.dailyInterest(-1, new Big(8), 1, 2)).toThrow(OutOfUnits);
    for (const value of ['0.00001', '1e3', '.5', '100000000000', 1e-7, 0.1 + 0.2, 2 ** 60]) {
      expect(() => units.amount(value), String(value)).toThrow(OutOfUnits);
    }
    expect(() => units.percentOf(10_000, '2.12345', 'GBP')).toThrow(OutOfUnits);
    expect(units.amount('-0')).toBe(0);
    expect(units.amount('12.50000000')).toBe(125_000);
  });
});

// Whole quotes: random invoices, manual offers, settlement configurations with filters, and
// late payments, priced in both arithmetics and by `quoteInvoice`, must print the same JSON.

const day = fc.integer({ min: -400, max: 400 }).map((n) => addDays('2026-01-01', n));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const offerType = fc.constantFrom<SettlementRule['type']>(
  'PercentageDiscount',
  'AbsoluteDiscount',
  'ReplacementAmount',
  'None',
);
const figureText = amount.map((value) => String(value));
const bound = fc
  .tuple(fc.integer({ min: 0, max: 2_000_000_000 }), fc.constantFrom(0, 2, 4))
  .map(([n, places]) => Number(textOf(n, places, false)));
const filter: fc.Arbitrary<SettlementFilter> = fc.oneof(
  fc.record({
    filterType: fc.constant('TransactionAmount' as const),
    isEnabled: fc.boolean(),
    amountType: fc.constantFrom('TransactionAmount' as const, 'OutstandingAmount' as const),
    minimumTransactionValue: maybe(bound),
    maximumTransactionValue: maybe(bound),
  }),
  fc.record({
    filterType: fc.constant('PaymentAmount' as const),
    isEnabled: fc.boolean(),
    minimumPaymentValue: maybe(bound),
    maximumPaymentValue: maybe(bound),
  }),
  fc.record({
    filterType: fc.constant('Currencies' as const),
    isEnabled: fc.boolean(),
    currencies: fc.subarray(['GBP', 'EUR', 'JPY', 'KWD']),
  }),
);
const rule: fc.Arbitrary<SettlementRule> = fc.record({
  id: fc.uuid(),
  type: offerType,
  description: maybe(fc.constant('rule')),
  dateType: fc.constantFrom('DueDate' as const, 'TransactionDate' as const),
  numberOfDays: fc.integer({ min: 0, max: 60 }),
  percentageDiscount: maybe(percentage),
  amount: maybe(figureText),
  currency: maybe(currency),
  filters: fc.array(filter, { maxLength: 3 }),
});
const manualOffer = (code: string): fc.Arbitrary<ManualOffer> =>
  fc.record({
    id: fc.uuid(),
    type: offerType,
    status: fc.constantFrom(
      'Open' as const,
      'Open' as const,
      'Cancelled' as const,
      'Used' as const,
    ),
    description: maybe(fc.constant('agreed')),
    validFrom: maybe(day),
    validUntil: maybe(day),
    currency: fc.constant(code),
    amount: maybe(figureText),
    percentageDiscount: maybe(percentage),
    priority: fc.integer({ min: 0, max: 3 }),
  });

const quoteCase = fc
  .record({
    currency: fc.constantFrom('GBP', 'GBP', 'EUR', 'JPY', 'KWD'),
    transactionDate: day,
    dueDate: maybe(day),
    transactionAmount: amount,
    outstandingAmount: fc.option(amount, { nil: undefined }),
    configurations: fc.array(rule, { maxLength: 4 }),
    grace: fc.integer({ min: 0, max: 30 }),
    applyCharges: fc.boolean(),
    latePaymentsApplied: fc.boolean(),
    paidOn: day,
  })
  .chain((facts) =>
    fc.record({
      facts: fc.constant(facts),
      offers: fc.array(manualOffer(facts.currency), { maxLength: 3 }),
    }),
  );

function caseOf({ facts, offers }: QuoteCase) {
  const rules: MoneyRules = {
    settlementGroups: new Map([
      [
        'g1',
        { id: 'g1', name: 'Terms', customerEnabled: true, configurations: facts.configurations },
      ],
    ]),
    defaultSettlementGroupId: 'g1',
    latePaymentConfigurations: new Map([
      [
        'l1',
        {
          id: 'l1',
          name: 'UK',
          type: 'Uk' as const,
          enabled: true,
          gracePeriodInDays: facts.grace,
          applyCharges: facts.applyCharges,
        },
      ],
    ]),
    defaultLatePaymentConfigurationId: 'l1',
    latePaymentsApplied: facts.latePaymentsApplied,
    bankRates: createBankRateHistory(seededBankRates),
  };
  const invoice: QuotedInvoiceInput = {
    id: 'i1',
    currency: facts.currency,
    transactionDate: facts.transactionDate,
    dueDate: facts.dueDate,
    transactionAmount: facts.transactionAmount,
    outstandingAmount: facts.outstandingAmount ?? facts.transactionAmount,
    settlementChoice: 'default',
    latePaymentChoice: 'default',
    offers,
  };
  return { invoice, rules, paidOn: facts.paidOn };
}
type QuoteCase = typeof quoteCase extends fc.Arbitrary<infer T> ? T : never;

describe('a quote in whole units', () => {
  it('prints the same JSON as the big.js quote, or falls back to it', () => {
    let inUnits = 0;
    fc.assert(
      fc.property(quoteCase, (generated) => {
        const { invoice, rules, paidOn } = caseOf(generated);
        const reference = JSON.stringify(quoteInvoiceIn(bigArithmetic, invoice, paidOn, rules));
        expect(JSON.stringify(quoteInvoice(invoice, paidOn, rules))).toBe(reference);
        try {
          expect(JSON.stringify(quoteInvoiceIn(units, invoice, paidOn, rules))).toBe(reference);
          inUnits++;
        } catch (error) {
          if (!(error instanceof OutOfUnits)) throw error;
        }
      }),
      { numRuns: 3000 },
    );
    // Most random cases fit whole units; the rest proved the fallback.
    expect(inUnits).toBeGreaterThan(2000);
  });

  it('prices a late GBP invoice with fees in whole units as big.js does', () => {
    const { invoice, rules } = caseOf({
      facts: {
        currency: 'GBP',
        transactionDate: '2026-01-05',
        dueDate: '2026-02-04',
        transactionAmount: '5000.0000',
        outstandingAmount: 4999.99,
        configurations: [],
        grace: 5,
        applyCharges: true,
        latePaymentsApplied: true,
        paidOn: '2026-03-16',
      },
      offers: [],
    });
    const quote = quoteInvoiceIn(units, invoice, '2026-03-16', rules);
    expect(quote).toEqual(quoteInvoiceIn(bigArithmetic, invoice, '2026-03-16', rules));
    expect(quote.fees.map((fee) => fee.amount)).toEqual(['56.34', '70.00']);
    expect(quote.amountToPay).toBe('5126.33');
  });
});
