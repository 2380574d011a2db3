import { describe, expect, it } from 'vitest';
import { settlementMessages, type SettlementConfiguration } from '@ledgerline/contract';
import {
  configurationBodyOf,
  initialConfigurationValues,
  validateConfiguration,
} from './settlement-configuration-form';

const existing: SettlementConfiguration = {
  id: '0199f0aa-0000-7000-8000-0000000000c1',
  type: 'PercentageDiscount',
  description: 'Early',
  dateType: 'TransactionDate',
  numberOfDays: 10,
  percentageDiscount: 2,
  amount: null,
  currency: null,
  filterGroup: {
    filterConfigurations: [
      {
        filterType: 'PaymentAmount',
        isEnabled: true,
        minimumPaymentValue: 1,
        maximumPaymentValue: null,
      },
      {
        filterType: 'TransactionAmount',
        isEnabled: true,
        amountType: 'OutstandingAmount',
        minimumTransactionValue: 100,
        maximumTransactionValue: Number.NaN,
      },
      { filterType: 'Currencies', isEnabled: true, currencies: ['EUR'] },
    ],
  },
};

describe('settlement configuration form (spec 3 §4, §5)', () => {
  it('adds with 0 days, 0 percent or amount, DueDate and GBP', () => {
    expect(initialConfigurationValues('AbsoluteDiscount')).toMatchObject({
      numberOfDays: 0,
      amount: 0,
      percentageDiscount: 0,
      dateType: 'DueDate',
      currency: 'GBP',
    });
  });

  it('prefills an edit, NaN becoming empty', () => {
    expect(initialConfigurationValues('PercentageDiscount', existing)).toMatchObject({
      description: 'Early',
      numberOfDays: 10,
      currency: 'EUR',
      amountType: 'OutstandingAmount',
      minimumTransactionValue: 100,
      maximumTransactionValue: '',
    });
  });

  it('rebuilds the filters: amount filter updated, currency replaced with one, others kept', () => {
    const values = {
      ...initialConfigurationValues('PercentageDiscount', existing),
      currency: 'usd',
      minimumTransactionValue: '',
    };
    const body = configurationBodyOf(values, existing);
    expect(body.filterGroup?.filterConfigurations).toEqual([
      existing.filterGroup.filterConfigurations[0],
      {
        filterType: 'TransactionAmount',
        isEnabled: true,
        amountType: 'OutstandingAmount',
        minimumTransactionValue: null,
        maximumTransactionValue: null,
      },
      { filterType: 'Currencies', isEnabled: true, currencies: ['USD'] },
    ]);
    expect(
      configurationBodyOf({ ...values, currency: '' }).filterGroup?.filterConfigurations?.[1],
    ).toEqual({ filterType: 'Currencies', isEnabled: true, currencies: [] });
  });

  it('gives the exact messages', () => {
    const base = initialConfigurationValues('PercentageDiscount');
    expect(validateConfiguration({ ...base, percentageDiscount: '' }).percentageDiscount).toBe(
      settlementMessages.percentageRequired,
    );
    expect(validateConfiguration({ ...base, percentageDiscount: 101 }).percentageDiscount).toBe(
      'Percentage Discount is required',
    );
    expect(validateConfiguration({ ...base, numberOfDays: '' }).numberOfDays).toBe(
      'Number of Days is required',
    );
    expect(
      validateConfiguration({ ...initialConfigurationValues('AbsoluteDiscount'), amount: '' })
        .amount,
    ).toBe('An amount is required');
    expect(validateConfiguration(base)).toEqual({});
  });
});
