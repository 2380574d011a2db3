import type Big from 'big.js';
import { addDays, type CalendarDate } from './calendar-date.js';
import type { Arithmetic } from './money.js';

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

/** What of an invoice the configurations look at, its amounts in an arithmetic's `A`. */
export interface MatchedInvoice<A = Big> {
  currency: string;
  transactionDate: CalendarDate;
  dueDate: CalendarDate | null;
  transactionAmount: A;
  outstandingAmount: A;
}

/**
 * The last day a configuration's date rule holds: N days after the transaction date, or N days
 * before the due date (no due date, no offer). Null when it can never hold.
 */
export function lastQualifyingDay(
  rule: SettlementRule,
  invoice: Pick<MatchedInvoice<unknown>, 'transactionDate' | 'dueDate'>,
): CalendarDate | null {
  if (rule.dateType === 'TransactionDate')
    return addDays(invoice.transactionDate, rule.numberOfDays);
  return invoice.dueDate ? addDays(invoice.dueDate, -rule.numberOfDays) : null;
}

function filtersHold<A>(
  ar: Arithmetic<A>,
  rule: SettlementRule,
  invoice: MatchedInvoice<A>,
): boolean {
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
        return within(ar, amount, filter.minimumTransactionValue, filter.maximumTransactionValue);
      }
      case 'PaymentAmount':
        // A quote is for paying the invoice in full: the payment is what is outstanding.
        return within(
          ar,
          invoice.outstandingAmount,
          filter.minimumPaymentValue,
          filter.maximumPaymentValue,
        );
    }
  });
}

function within<A>(
  ar: Arithmetic<A>,
  amount: A,
  minimum: number | null,
  maximum: number | null,
): boolean {
  if (minimum !== null && ar.cmp(amount, ar.figure(minimum)) < 0) return false;
  if (maximum !== null && ar.cmp(amount, ar.figure(maximum)) > 0) return false;
  return true;
}

/**
 * The discount a configuration gives an invoice paid on `paidOn`, or null when it does not apply:
 * date rule, filters, and for an amount (absolute or replacement) the invoice's own currency. A percentage never
 * goes below zero, an absolute discount never exceeds what is outstanding.
 */
export function settlementDiscount<A>(
  ar: Arithmetic<A>,
  rule: SettlementRule,
  invoice: MatchedInvoice<A>,
  paidOn: CalendarDate,
): { discount: A; validUntil: CalendarDate } | null {
  if (!ar.isPositive(invoice.outstandingAmount)) return null;
  const validUntil = lastQualifyingDay(rule, invoice);
  if (validUntil === null || paidOn > validUntil) return null;
  if (!filtersHold(ar, rule, invoice)) return null;
  const discount = discountOf(ar, rule, invoice);
  return discount === null ? null : { discount, validUntil };
}

function discountOf<A>(
  ar: Arithmetic<A>,
  rule: Pick<SettlementRule, 'type' | 'percentageDiscount' | 'amount' | 'currency'>,
  invoice: Pick<MatchedInvoice<A>, 'currency' | 'outstandingAmount'>,
): A | null {
  const outstanding = invoice.outstandingAmount;
  switch (rule.type) {
    case 'PercentageDiscount': {
      if (rule.percentageDiscount === null) return null;
      return ar.percentOf(outstanding, rule.percentageDiscount, invoice.currency);
    }
    case 'AbsoluteDiscount':
      // An amount is money of one currency: only invoices of that currency, never one saved
      // without it (docs/decisions/111-absolute-discounts-require-their-currency.md "Absolute discounts require their currency").
      if (rule.amount === null || rule.currency !== invoice.currency) return null;
      return ar.clampDiscount(ar.figure(rule.amount), outstanding, invoice.currency);
    case 'ReplacementAmount':
      // The offer replaces the amount to pay: the discount is what it takes off.
      if (rule.amount === null || rule.currency !== invoice.currency) return null;
      return ar.clampDiscount(
        ar.minus(outstanding, ar.figure(rule.amount)),
        outstanding,
        invoice.currency,
      );
    case 'None':
      return null;
  }
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
export function manualOfferDiscount<A>(
  ar: Arithmetic<A>,
  offer: ManualOffer,
  invoice: Pick<MatchedInvoice<A>, 'currency' | 'outstandingAmount'>,
  paidOn: CalendarDate,
): A | null {
  if (offer.status !== 'Open' || !ar.isPositive(invoice.outstandingAmount)) return null;
  if (offer.validFrom !== null && paidOn < offer.validFrom) return null;
  if (offer.validUntil !== null && paidOn > offer.validUntil) return null;
  return discountOf(ar, offer, invoice);
}
