import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './calendar-date.js';
import { isPositive } from './money.js';
import { createBankRateHistory, seededBankRates } from './bank-rates.js';
import { quoteInvoice, type MoneyRules, type QuotedInvoiceInput } from './quote.js';
import type { SettlementRule } from './settlement-match.js';

const twoPercentTenDays: SettlementRule = {
  id: '00000000-0000-7000-8000-00000000c001',
  type: 'PercentageDiscount',
  description: '2% in 10 days',
  dateType: 'TransactionDate',
  numberOfDays: 10,
  percentageDiscount: '2',
  amount: null,
  currency: null,
  filters: [],
};

function rulesWith(
  overrides: Partial<MoneyRules> = {},
  configurations = [twoPercentTenDays],
): MoneyRules {
  return {
    settlementGroups: new Map([
      ['g1', { id: 'g1', name: 'Standard', customerEnabled: true, configurations }],
    ]),
    defaultSettlementGroupId: 'g1',
    latePaymentConfigurations: new Map([
      [
        'l1',
        {
          id: 'l1',
          name: 'UK',
          type: 'Uk',
          enabled: true,
          gracePeriodInDays: 5,
          applyCharges: true,
        },
      ],
    ]),
    defaultLatePaymentConfigurationId: 'l1',
    latePaymentsApplied: true,
    bankRates: createBankRateHistory(seededBankRates),
    ...overrides,
  };
}

const invoice: QuotedInvoiceInput = {
  id: 'i1',
  currency: 'GBP',
  transactionDate: '2026-01-05',
  dueDate: '2026-02-04',
  transactionAmount: '1200',
  outstandingAmount: '1000',
  settlementChoice: 'default',
  latePaymentChoice: 'default',
  offers: [],
};

describe('settlement offers', () => {
  it('generates the default group offer within its days, and not after', () => {
    const quote = quoteInvoice(invoice, '2026-01-15', rulesWith());
    expect(quote.offers).toHaveLength(1);
    expect(quote.bestOffer).toMatchObject({
      source: 'Generated',
      discount: '20',
      validUntil: '2026-01-15',
    });
    expect(quote.amountToPay).toBe('980');
    expect(quoteInvoice(invoice, '2026-01-16', rulesWith()).offers).toHaveLength(0);
  });

  it("follows the account's choice: none, a group, the default", () => {
    expect(
      quoteInvoice({ ...invoice, settlementChoice: 'none' }, '2026-01-06', rulesWith()).offers,
    ).toEqual([]);
    expect(
      quoteInvoice(
        { ...invoice, settlementChoice: { id: 'g1' } },
        '2026-01-06',
        rulesWith({ defaultSettlementGroupId: null }),
      ).offers,
    ).toHaveLength(1);
    expect(
      quoteInvoice(invoice, '2026-01-06', rulesWith({ defaultSettlementGroupId: null })).offers,
    ).toEqual([]);
  });

  it('offers nothing from a group not enabled for customers', () => {
    const rules = rulesWith();
    const groups = new Map(rules.settlementGroups);
    groups.set('g1', { ...groups.get('g1')!, customerEnabled: false });
    expect(
      quoteInvoice(invoice, '2026-01-06', { ...rules, settlementGroups: groups }).offers,
    ).toEqual([]);
  });

  it('counts days before the due date for the DueDate type', () => {
    const rule: SettlementRule = { ...twoPercentTenDays, dateType: 'DueDate', numberOfDays: 7 };
    expect(quoteInvoice(invoice, '2026-01-28', rulesWith({}, [rule])).offers).toHaveLength(1);
    expect(quoteInvoice(invoice, '2026-01-29', rulesWith({}, [rule])).offers).toHaveLength(0);
    expect(
      quoteInvoice({ ...invoice, dueDate: null }, '2026-01-06', rulesWith({}, [rule])).offers,
    ).toHaveLength(0);
  });

  it('applies the transaction-amount and currency filters', () => {
    const byAmount = (
      amountType: 'TransactionAmount' | 'OutstandingAmount',
      min: number | null,
      max: number | null,
    ): SettlementRule => ({
      ...twoPercentTenDays,
      filters: [
        {
          filterType: 'TransactionAmount',
          isEnabled: true,
          amountType,
          minimumTransactionValue: min,
          maximumTransactionValue: max,
        },
      ],
    });
    const offered = (rule: SettlementRule, input = invoice) =>
      quoteInvoice(input, '2026-01-06', rulesWith({}, [rule])).offers.length;
    expect(offered(byAmount('TransactionAmount', 1100, null))).toBe(1);
    expect(offered(byAmount('OutstandingAmount', 1100, null))).toBe(0);
    expect(offered(byAmount('TransactionAmount', null, 1199.99))).toBe(0);
    expect(offered(byAmount('OutstandingAmount', 1000, 1000))).toBe(1);
    const disabled: SettlementRule = {
      ...byAmount('TransactionAmount', 5000, null),
      filters: [
        {
          filterType: 'TransactionAmount',
          isEnabled: false,
          amountType: 'TransactionAmount',
          minimumTransactionValue: 5000,
          maximumTransactionValue: null,
        },
      ],
    };
    expect(offered(disabled)).toBe(1);
    const euro: SettlementRule = {
      ...twoPercentTenDays,
      filters: [{ filterType: 'Currencies', isEnabled: true, currencies: ['EUR'] }],
    };
    expect(offered(euro)).toBe(0);
    expect(offered(euro, { ...invoice, currency: 'EUR' })).toBe(1);
    const all: SettlementRule = {
      ...twoPercentTenDays,
      filters: [{ filterType: 'Currencies', isEnabled: true, currencies: [] }],
    };
    expect(offered(all, { ...invoice, currency: 'JPY' })).toBe(1);
  });

  it('never takes an absolute discount past the outstanding amount, nor a percentage below zero', () => {
    const absolute: SettlementRule = {
      ...twoPercentTenDays,
      type: 'AbsoluteDiscount',
      percentageDiscount: null,
      amount: '2500',
      currency: 'GBP',
    };
    const quote = quoteInvoice(invoice, '2026-01-06', rulesWith({}, [absolute]));
    expect(quote.discount).toBe('1000');
    expect(quote.amountToPay).toBe('0');
    expect(
      quoteInvoice({ ...invoice, currency: 'EUR' }, '2026-01-06', rulesWith({}, [absolute])).offers,
    ).toEqual([]);
    const negative: SettlementRule = { ...twoPercentTenDays, percentageDiscount: '-5' };
    expect(quoteInvoice(invoice, '2026-01-06', rulesWith({}, [negative])).discount).toBe('0');
  });

  it('keeps manual offers apart and picks the largest discount, a manual one on a tie', () => {
    const manual = {
      id: 'm1',
      type: 'AbsoluteDiscount' as const,
      status: 'Open' as const,
      description: 'Agreed',
      validFrom: null,
      validUntil: '2026-01-20',
      currency: 'GBP',
      amount: '20',
      percentageDiscount: null,
      priority: 0,
    };
    const tie = quoteInvoice({ ...invoice, offers: [manual] }, '2026-01-06', rulesWith());
    expect(tie.offers.map((offer) => offer.source)).toEqual(['Manual', 'Generated']);
    expect(tie.bestOffer?.source).toBe('Manual');
    const larger = quoteInvoice(
      { ...invoice, offers: [{ ...manual, amount: '50' }] },
      '2026-01-06',
      rulesWith(),
    );
    expect(larger.discount).toBe('50');
    const used = quoteInvoice(
      { ...invoice, offers: [{ ...manual, status: 'Used' as const }] },
      '2026-01-06',
      rulesWith(),
    );
    expect(used.offers.map((offer) => offer.source)).toEqual(['Generated']);
    const expired = quoteInvoice({ ...invoice, offers: [manual] }, '2026-01-21', rulesWith());
    expect(expired.offers).toEqual([]);
  });
});

describe('late-payment fees in the quote', () => {
  it('charges a £5,000 invoice 40 days overdue with 5 days grace: 35 days of interest and £70', () => {
    const late = { ...invoice, transactionAmount: '5000', outstandingAmount: '5000' };
    const quote = quoteInvoice(late, addDays('2026-02-04', 40), rulesWith());
    expect(quote.latePayment).toMatchObject({
      interestStart: '2026-02-10',
      daysLate: 35,
      referenceRate: '3.75',
      annualRate: '11.75',
      notApplied: null,
    });
    expect(quote.fees).toEqual([
      expect.objectContaining({ type: 'StatutoryInterest', amount: '56.34' }),
      expect.objectContaining({ type: 'FixedSum', amount: '70.00' }),
    ]);
    expect(quote.amountToPay).toBe('5126.34');
  });

  it('charges nothing when late payments are not enabled for the tenant, the configuration is off, or the account says none', () => {
    const day = addDays('2026-02-04', 40);
    const off = quoteInvoice(invoice, day, rulesWith({ latePaymentsApplied: false }));
    expect(off.fees).toEqual([]);
    expect(off.latePayment?.notApplied).toBe('LatePaymentsNotEnabled');
    expect(off.amountToPay).toBe('1000');
    const disabled = rulesWith();
    const configurations = new Map(disabled.latePaymentConfigurations);
    configurations.set('l1', { ...configurations.get('l1')!, enabled: false });
    expect(
      quoteInvoice(invoice, day, { ...disabled, latePaymentConfigurations: configurations }).fees,
    ).toEqual([]);
    expect(quoteInvoice({ ...invoice, latePaymentChoice: 'none' }, day, rulesWith()).fees).toEqual(
      [],
    );
  });

  it('charges no statutory fees on an invoice in another currency', () => {
    const quote = quoteInvoice(
      { ...invoice, currency: 'EUR' },
      addDays('2026-02-04', 40),
      rulesWith(),
    );
    expect(quote.fees).toEqual([]);
    expect(quote.latePayment?.notApplied).toBe('CurrencyNotGbp');
  });
});

/** A decimal text with `places` decimals from a count of minor units. */
const money = (units: number, places: number) =>
  new Big(units).div(new Big(10).pow(places)).toFixed(places);

describe('properties of the amount to pay', () => {
  for (const [currency, places] of [
    ['JPY', 0],
    ['GBP', 2],
    ['KWD', 3],
  ] as const) {
    it(`${currency}: outstanding − discount + fees, never negative, exact to the minor unit`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 1e9 }),
          fc.integer({ min: 0, max: 1e9 }),
          fc.integer({ min: 0, max: 100_000 }).map((n) => new Big(n).div(1000).toFixed()),
          fc.integer({ min: 0, max: 1e9 }),
          fc.integer({ min: -30, max: 120 }),
          fc.constantFrom<'PercentageDiscount' | 'AbsoluteDiscount'>(
            'PercentageDiscount',
            'AbsoluteDiscount',
          ),
          (outstandingUnits, extraUnits, percentage, amountUnits, dayOffset, type) => {
            const outstanding = money(outstandingUnits, places);
            const rule: SettlementRule = {
              ...twoPercentTenDays,
              type,
              percentageDiscount: percentage,
              amount: money(amountUnits, places),
              currency,
            };
            const quote = quoteInvoice(
              {
                ...invoice,
                currency,
                transactionAmount: new Big(outstanding).plus(money(extraUnits, places)).toFixed(),
                outstandingAmount: outstanding,
              },
              addDays('2026-01-05', dayOffset),
              rulesWith({}, [rule]),
            );
            const fees = quote.fees.reduce((sum, fee) => sum.plus(fee.amount), new Big(0));
            const toPay = new Big(quote.amountToPay);
            expect(toPay.eq(new Big(outstanding).minus(quote.discount).plus(fees))).toBe(true);
            expect(toPay.gte(0)).toBe(true);
            expect(new Big(quote.discount).lte(outstanding)).toBe(true);
            for (const value of [
              quote.amountToPay,
              quote.discount,
              ...quote.fees.map((fee) => fee.amount),
            ]) {
              expect(new Big(value).round(places, Big.roundDown).eq(value)).toBe(true);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('GBP with fees: exact to the penny and never negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 800 }),
        fc.integer({ min: 0, max: 30 }),
        (units, daysLate, grace) => {
          const outstanding = money(units, 2);
          const rules = rulesWith();
          const configurations = new Map(rules.latePaymentConfigurations);
          configurations.set('l1', { ...configurations.get('l1')!, gracePeriodInDays: grace });
          const quote = quoteInvoice(
            { ...invoice, transactionAmount: outstanding, outstandingAmount: outstanding },
            addDays('2026-02-04', daysLate),
            { ...rules, latePaymentConfigurations: configurations },
          );
          const fees = quote.fees.reduce((sum, fee) => sum.plus(fee.amount), new Big(0));
          expect(
            new Big(quote.amountToPay).eq(new Big(outstanding).minus(quote.discount).plus(fees)),
          ).toBe(true);
          expect(new Big(quote.amountToPay).gte(0)).toBe(true);
          expect(new Big(quote.amountToPay).round(2, Big.roundDown).eq(quote.amountToPay)).toBe(
            true,
          );
          expect(quote.fees.length > 0).toBe(units > 0 && daysLate > grace);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('isPositive', () => {
  it('agrees with gt(0) for zero, negative zero, tiny and negative amounts', () => {
    for (const text of ['0', '-0', '0.0000', '0.0001', '-0.0001', '1', '-1', '123456789.1234']) {
      expect(isPositive(new Big(text)), text).toBe(new Big(text).gt(0));
    }
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.nat(4), (units, places) => {
        const value = new Big(units).div(10 ** places);
        expect(isPositive(value)).toBe(value.gt(0));
      }),
    );
  });
});
