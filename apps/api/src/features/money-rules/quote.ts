import type Big from 'big.js';
import type { CalendarDate } from './calendar-date.js';
import type { BankRateHistory } from './bank-rates.js';
import {
  manualOfferDiscount,
  settlementDiscount,
  type ManualOffer,
  type MatchedInvoice,
  type SettlementRule,
} from './settlement-match.js';
import { statutoryFeesIn } from './uk-statutory.js';
import { bigArithmetic, type Arithmetic } from './money.js';
import { OutOfUnits, unitArithmetic } from './units.js';

/** A settlement configuration group as the engine reads it (spec 3 §3). */
export interface SettlementGroupRules {
  id: string;
  name: string;
  customerEnabled: boolean;
  configurations: readonly SettlementRule[];
}

export interface LatePaymentRule {
  id: string;
  name: string;
  type: 'Uk' | 'Custom';
  enabled: boolean;
  gracePeriodInDays: number;
  applyCharges: boolean;
}

/**
 * Everything the engine needs of a company, read once per request (not per invoice): its groups,
 * late-payment configurations, defaults, whether late payments apply, and the Bank Rate history.
 */
export interface MoneyRules {
  settlementGroups: ReadonlyMap<string, SettlementGroupRules>;
  defaultSettlementGroupId: string | null;
  latePaymentConfigurations: ReadonlyMap<string, LatePaymentRule>;
  defaultLatePaymentConfigurationId: string | null;
  /** Tenant setting AllowLatePayments (spec 3 §2): off, configurations exist but do not apply. */
  latePaymentsApplied: boolean;
  bankRates: BankRateHistory;
}

/**
 * spec 3 §4 account choice: 'none' = auto-apply off, 'default' = the company default, otherwise
 * the id of the chosen group (or late-payment configuration).
 */
export type AccountChoice = 'none' | 'default' | { id: string };

export interface QuotedInvoiceInput extends Omit<
  MatchedInvoice,
  'transactionAmount' | 'outstandingAmount'
> {
  id: string;
  /**
   * Text, a number (read as `String(n)` spells it, as big.js reads one) or a Big the caller
   * already holds (a page's quotes skip printing and re-parsing).
   */
  transactionAmount: string | number | Big;
  outstandingAmount: string | number | Big;
  settlementChoice: AccountChoice;
  latePaymentChoice: AccountChoice;
  offers: readonly ManualOffer[];
}

export interface QuotedOffer {
  source: 'Manual' | 'Generated';
  /** The manual offer's id, or the configuration's id for a generated offer. */
  id: string;
  groupId: string | null;
  type: SettlementRule['type'];
  description: string | null;
  validUntil: CalendarDate | null;
  discount: string;
}

export interface FeeLine {
  type: 'StatutoryInterest' | 'FixedSum';
  amount: string;
  description: string;
}

export interface LatePaymentQuote {
  configurationId: string;
  interestStart: CalendarDate | null;
  daysLate: number;
  referenceRate: string | null;
  annualRate: string | null;
  /** Why a configuration that matched charged nothing. */
  notApplied: 'LatePaymentsNotEnabled' | 'CurrencyNotGbp' | 'NoReferenceRate' | null;
}

export interface Quote {
  transactionId: string;
  paidOn: CalendarDate;
  currency: string;
  outstandingAmount: string;
  offers: QuotedOffer[];
  bestOffer: QuotedOffer | null;
  discount: string;
  fees: FeeLine[];
  latePayment: LatePaymentQuote | null;
  amountToPay: string;
}

function chosen<T>(
  choice: AccountChoice,
  defaultId: string | null,
  byId: ReadonlyMap<string, T>,
): T | null {
  if (choice === 'none') return null;
  const id = choice === 'default' ? defaultId : choice.id;
  return id === null ? null : (byId.get(id) ?? null);
}

/**
 * What an invoice costs if paid on `paidOn`: the offers that apply (manual ones of spec 2 and
 * those generated from the account's group), the best of them, the late-payment fee lines and
 * the amount to pay = outstanding − best discount + fees. The one entry point of the money rules.
 * Priced in whole ten-thousandths (units.ts); an invoice whose amounts do not fit them is priced
 * with big.js, to the same answer.
 */
export function quoteInvoice(
  invoice: QuotedInvoiceInput,
  paidOn: CalendarDate,
  rules: MoneyRules,
): Quote {
  try {
    return quoteInvoiceIn(unitArithmetic, invoice, paidOn, rules);
  } catch (error) {
    if (!(error instanceof OutOfUnits)) throw error;
    return quoteInvoiceIn(bigArithmetic, invoice, paidOn, rules);
  }
}

/** `quoteInvoice` in one arithmetic (the property tests hold the two to the same quotes). */
export function quoteInvoiceIn<A>(
  ar: Arithmetic<A>,
  invoice: QuotedInvoiceInput,
  paidOn: CalendarDate,
  rules: MoneyRules,
): Quote {
  const outstanding = ar.amount(invoice.outstandingAmount);
  const matched: MatchedInvoice<A> = {
    currency: invoice.currency,
    transactionDate: invoice.transactionDate,
    dueDate: invoice.dueDate,
    transactionAmount:
      invoice.transactionAmount === invoice.outstandingAmount
        ? outstanding
        : ar.amount(invoice.transactionAmount),
    outstandingAmount: outstanding,
  };

  const offers: { offer: QuotedOffer; discount: A; priority: number }[] = [];
  for (const offer of invoice.offers) {
    const discount = manualOfferDiscount(ar, offer, matched, paidOn);
    if (discount === null) continue;
    offers.push({
      discount,
      priority: offer.priority,
      offer: {
        source: 'Manual',
        id: offer.id,
        groupId: null,
        type: offer.type,
        description: offer.description,
        validUntil: offer.validUntil,
        discount: ar.text(discount),
      },
    });
  }
  const group = chosen(
    invoice.settlementChoice,
    rules.defaultSettlementGroupId,
    rules.settlementGroups,
  );
  if (group?.customerEnabled) {
    for (const rule of group.configurations) {
      const generated = settlementDiscount(ar, rule, matched, paidOn);
      if (generated === null) continue;
      offers.push({
        discount: generated.discount,
        priority: -1,
        offer: {
          source: 'Generated',
          id: rule.id,
          groupId: group.id,
          type: rule.type,
          description: rule.description,
          validUntil: generated.validUntil,
          discount: ar.text(generated.discount),
        },
      });
    }
  }
  // The best offer gives the largest discount; on a tie a manual offer, then the higher priority.
  const best = offers.reduce<(typeof offers)[number] | null>((current, candidate) => {
    if (current === null) return candidate;
    const byDiscount = ar.cmp(candidate.discount, current.discount);
    if (byDiscount !== 0) return byDiscount > 0 ? candidate : current;
    return candidate.priority > current.priority ? candidate : current;
  }, null);

  const fees: FeeLine[] = [];
  let feeTotal = ar.zero;
  let latePayment: LatePaymentQuote | null = null;
  const configuration = chosen(
    invoice.latePaymentChoice,
    rules.defaultLatePaymentConfigurationId,
    rules.latePaymentConfigurations,
  );
  if (configuration?.enabled && configuration.type === 'Uk' && invoice.dueDate !== null) {
    const statutory = statutoryFeesIn(
      ar,
      {
        debt: outstanding,
        currency: invoice.currency,
        dueDate: invoice.dueDate,
        gracePeriodInDays: configuration.gracePeriodInDays,
        applyCharges: configuration.applyCharges,
        paidOn,
      },
      rules.bankRates,
    );
    if (statutory) {
      const notApplied = !rules.latePaymentsApplied
        ? 'LatePaymentsNotEnabled'
        : invoice.currency !== 'GBP'
          ? 'CurrencyNotGbp'
          : statutory.annualRate === null
            ? 'NoReferenceRate'
            : null;
      latePayment = {
        configurationId: configuration.id,
        interestStart: statutory.interestStart,
        daysLate: statutory.daysLate,
        referenceRate: statutory.referenceRate ? percentText(statutory.referenceRate) : null,
        annualRate: statutory.annualRate ? percentText(statutory.annualRate) : null,
        notApplied,
      };
      if (notApplied === null || notApplied === 'NoReferenceRate') {
        if (ar.isPositive(statutory.interest)) {
          feeTotal = ar.plus(feeTotal, statutory.interest);
          fees.push({
            type: 'StatutoryInterest',
            amount: ar.text2(statutory.interest),
            description: `Statutory interest at ${percentText(statutory.annualRate!)}% a year for ${statutory.daysLate} days`,
          });
        }
        if (ar.isPositive(statutory.fixedSum)) {
          feeTotal = ar.plus(feeTotal, statutory.fixedSum);
          fees.push({
            type: 'FixedSum',
            amount: ar.text2(statutory.fixedSum),
            description: 'Fixed-sum debt recovery cost',
          });
        }
      }
    }
  }

  const outstandingText = ar.text(outstanding);
  let amountToPay = outstanding;
  if (best !== null && ar.isPositive(best.discount))
    amountToPay = ar.minus(amountToPay, best.discount);
  if (fees.length > 0) amountToPay = ar.plus(amountToPay, feeTotal);
  return {
    transactionId: invoice.id,
    paidOn,
    currency: invoice.currency,
    outstandingAmount: outstandingText,
    offers: offers.map((entry) => entry.offer),
    bestOffer: best?.offer ?? null,
    discount: best?.offer.discount ?? '0',
    fees,
    latePayment,
    amountToPay: amountToPay === outstanding ? outstandingText : ar.text(amountToPay),
  };
}

// A page's late invoices share a few reference and annual rates: each printed once.
const percentTexts = new WeakMap<Big, string>();

/** A rate as the quote shows it: two decimals ('5.25'). */
function percentText(rate: Big): string {
  let text = percentTexts.get(rate);
  if (text === undefined) {
    text = rate.toFixed(2);
    percentTexts.set(rate, text);
  }
  return text;
}
