import Big from 'big.js';
import { addDays, type CalendarDate } from './calendar-date.js';
import { bigOf, isPositive, maxBig, minBig, roundToMinorUnit, zero } from './money.js';

/** spec 3 §3 filter group: the filters a configuration applies to an invoice. */
export type SettlementFilter =
  | {
      filterType: 'TransactionAmount';
      isEnabled: boolean;
      amountType: 'TransactionAmount' | 'OutstandingAmount';
      minimumTransactionValue: number | null;
      maximumTransactionValue: number | null;
    }
  | { filterType: 'Currencies'; isEnabled: boolean; currencies: string[] }
  | {
      filterType: 'PaymentAmount';
      isEnabled: boolean;
      minimumPaymentValue: number | null;
      maximumPaymentValue: number | null;
    };

/** A settlement configuration as the engine reads it (spec 3 §3). */
export interface SettlementRule {
  id: string;
  type: 'PercentageDiscount' | 'AbsoluteDiscount' | 'ReplacementAmount' | 'None';
  description: string | null;
  dateType: 'DueDate' | 'TransactionDate';
  numberOfDays: number;
  percentageDiscount: string | null;
  amount: string | null;
  currency: string | null;
  filters: readonly SettlementFilter[];
}

/** What of an invoice the configurations look at. */
export interface MatchedInvoice {
  currency: string;
  transactionDate: CalendarDate;
  dueDate: CalendarDate | null;
  transactionAmount: Big;
  outstandingAmount: Big;
}

/**
 * The last day a configuration's date rule holds: N days after the transaction date, or N days
 * before the due date (no due date, no offer). Null when it can never hold.
 */
export function lastQualifyingDay(
  rule: SettlementRule,
  invoice: MatchedInvoice,
): CalendarDate | null {
  if (rule.dateType === 'TransactionDate')
    return addDays(invoice.transactionDate, rule.numberOfDays);
  return invoice.dueDate ? addDays(invoice.dueDate, -rule.numberOfDays) : null;
}

function filtersHold(rule: SettlementRule, invoice: MatchedInvoice): boolean {
  return rule.filters.every((filter) => {
    if (!filter.isEnabled) return true;
    switch (filter.filterType) {
      case 'Currencies':
        // spec 3 §5: an empty list means every currency.
        return filter.currencies.length === 0 || filter.currencies.includes(invoice.currency);
      case 'TransactionAmount': {
        const amount =
          filter.amountType === 'OutstandingAmount'
            ? invoice.outstandingAmount
            : invoice.transactionAmount;
        return within(amount, filter.minimumTransactionValue, filter.maximumTransactionValue);
      }
      case 'PaymentAmount':
        // A quote is for paying the invoice in full: the payment is what is outstanding.
        return within(
          invoice.outstandingAmount,
          filter.minimumPaymentValue,
          filter.maximumPaymentValue,
        );
    }
  });
}

function within(amount: Big, minimum: number | null, maximum: number | null): boolean {
  if (minimum !== null && amount.lt(bigOf(minimum))) return false;
  if (maximum !== null && amount.gt(bigOf(maximum))) return false;
  return true;
}

/**
 * The discount a configuration gives an invoice paid on `paidOn`, or null when it does not apply:
 * date rule, filters, and for an absolute discount the invoice's own currency. A percentage never
 * goes below zero, an absolute discount never exceeds what is outstanding.
 */
export function settlementDiscount(
  rule: SettlementRule,
  invoice: MatchedInvoice,
  paidOn: CalendarDate,
): { discount: Big; validUntil: CalendarDate } | null {
  if (!isPositive(invoice.outstandingAmount)) return null;
  const validUntil = lastQualifyingDay(rule, invoice);
  if (validUntil === null || paidOn > validUntil) return null;
  if (!filtersHold(rule, invoice)) return null;
  const discount = discountOf(rule, invoice);
  return discount === null ? null : { discount, validUntil };
}

function discountOf(
  rule: Pick<SettlementRule, 'type' | 'percentageDiscount' | 'amount' | 'currency'>,
  invoice: Pick<MatchedInvoice, 'currency' | 'outstandingAmount'>,
): Big | null {
  const outstanding = invoice.outstandingAmount;
  switch (rule.type) {
    case 'PercentageDiscount': {
      if (rule.percentageDiscount === null) return null;
      return roundToMinorUnit(
        outstanding.times(fractionOf(rule.percentageDiscount)),
        invoice.currency,
      );
    }
    case 'AbsoluteDiscount':
      if (rule.amount === null) return null;
      if (rule.currency !== null && rule.currency !== invoice.currency) return null;
      return clampDiscount(bigOf(rule.amount), outstanding, invoice.currency);
    case 'ReplacementAmount':
      // The offer replaces the amount to pay: the discount is what it takes off.
      if (rule.amount === null) return null;
      return clampDiscount(outstanding.minus(bigOf(rule.amount)), outstanding, invoice.currency);
    case 'None':
      return null;
  }
}

const hundred = new Big(100);
const fractions = new Map<string, Big>();

/** A percentage as a fraction, held between 0 and 1 (a percentage never goes below zero). */
function fractionOf(percentage: string): Big {
  let fraction = fractions.get(percentage);
  if (!fraction) {
    fraction = minBig(maxBig(new Big(percentage), zero), hundred).div(100);
    if (fractions.size > 10_000) fractions.clear();
    fractions.set(percentage, fraction);
  }
  return fraction;
}

function clampDiscount(discount: Big, outstanding: Big, currency: string): Big {
  return roundToMinorUnit(minBig(maxBig(discount, zero), outstanding), currency);
}

/** A manual offer of spec 2 as the engine reads it. */
export interface ManualOffer {
  id: string;
  type: 'PercentageDiscount' | 'AbsoluteDiscount' | 'ReplacementAmount' | 'None';
  status: 'Open' | 'Cancelled' | 'Used';
  description: string | null;
  validFrom: CalendarDate | null;
  validUntil: CalendarDate | null;
  currency: string;
  amount: string | null;
  percentageDiscount: string | null;
  priority: number;
}

/** The discount of an Open manual offer valid on `paidOn` (its dates inclusive), or null. */
export function manualOfferDiscount(
  offer: ManualOffer,
  invoice: Pick<MatchedInvoice, 'currency' | 'outstandingAmount'>,
  paidOn: CalendarDate,
): Big | null {
  if (offer.status !== 'Open' || !isPositive(invoice.outstandingAmount)) return null;
  if (offer.validFrom !== null && paidOn < offer.validFrom) return null;
  if (offer.validUntil !== null && paidOn > offer.validUntil) return null;
  return discountOf(offer, invoice);
}
