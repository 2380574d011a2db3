import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import type { TransactionQuote, TransactionQuoteSummary } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Executor, Tx } from '../../db/client.js';
import { paymentFeeTransactions, transactions } from '../../db/schema-receivables.js';
import { toCalendarDate, type CalendarDate } from './calendar-date.js';
import {
  readInvoiceFacts,
  readRulesAndInvoiceFacts,
  type InvoiceFacts,
} from './money-rules.repository.js';
import { quoteInvoice, type MoneyRules, type Quote } from './quote.js';
import { recordWebhookEvent } from '../web-hooks/index.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

/** An accounting transaction as the transactions repository answers it (dates ISO or YYYY-MM-DD). */
export interface QuotableTransaction {
  id: string;
  accountId: string;
  currency: string;
  transactionDate: string | Date;
  dueDate: string | Date | null;
  transactionAmount: number | string;
  allocatedAmount: number | string;
  discountedAmount: number | string;
}

/** The quote with the API's JSON numbers (design §3). */
export function toQuoteBody(quote: Quote): TransactionQuote {
  const offer = (o: Quote['offers'][number]) => ({ ...o, discount: Number(o.discount) });
  return {
    ...quote,
    outstandingAmount: Number(quote.outstandingAmount),
    offers: quote.offers.map(offer),
    bestOffer: quote.bestOffer && offer(quote.bestOffer),
    discount: Number(quote.discount),
    fees: quote.fees.map((fee) => ({ ...fee, amount: Number(fee.amount) })),
    latePayment: quote.latePayment && {
      ...quote.latePayment,
      referenceRate:
        quote.latePayment.referenceRate === null ? null : Number(quote.latePayment.referenceRate),
      annualRate:
        quote.latePayment.annualRate === null ? null : Number(quote.latePayment.annualRate),
    },
    amountToPay: Number(quote.amountToPay),
  };
}

/** A list row's quote: its figures only (the list shows the amount to pay). */
export function toQuoteSummary(quote: Quote): TransactionQuoteSummary {
  const fees = quote.fees.reduce((sum, fee) => sum + Math.round(Number(fee.amount) * 100), 0) / 100;
  return {
    discount: Number(quote.discount),
    fees,
    amountToPay: Number(quote.amountToPay),
    bestOfferSource: quote.bestOffer?.source ?? null,
  };
}

export function today(): CalendarDate {
  return toCalendarDate(new Date());
}

/**
 * Quotes many transactions on one day: the rules (unless the caller holds them), account choices
 * and manual offers are read once, in one statement, then every invoice is priced in memory.
 */
export async function quoteTransactions(
  executor: Executor,
  scope: DatasetScope,
  items: readonly QuotableTransaction[],
  paidOn: CalendarDate,
  rules?: MoneyRules,
): Promise<Quote[]> {
  if (items.length === 0) return [];
  const accountIds = items.map((item) => item.accountId);
  const transactionIds = items.map((item) => item.id);
  if (rules) {
    const facts = await readInvoiceFacts(executor, scope, accountIds, transactionIds);
    return priceTransactions(items, facts, paidOn, rules);
  }
  const read = await readRulesAndInvoiceFacts(executor, scope, accountIds, transactionIds);
  return priceTransactions(items, read.facts, paidOn, read.rules);
}

/** The in-memory half of `quoteTransactions`: every invoice priced with the facts read. */
export function priceTransactions(
  items: readonly QuotableTransaction[],
  { choices, offers }: InvoiceFacts,
  paidOn: CalendarDate,
  rules: MoneyRules,
): Quote[] {
  return items.map((item) => {
    const choice = choices.get(item.accountId);
    const amount = item.transactionAmount;
    // Most invoices have nothing allocated or discounted: what is outstanding is the amount (the
    // engine reads it once, in whole units).
    const outstanding =
      Number(item.allocatedAmount) === 0 && Number(item.discountedAmount) === 0
        ? amount
        : new Big(amount).minus(item.allocatedAmount).minus(item.discountedAmount);
    return quoteInvoice(
      {
        id: item.id,
        currency: item.currency,
        transactionDate: toCalendarDate(item.transactionDate),
        dueDate: item.dueDate === null ? null : toCalendarDate(item.dueDate),
        transactionAmount: amount,
        outstandingAmount: outstanding,
        settlementChoice: choice?.settlement ?? 'default',
        latePaymentChoice: choice?.latePayment ?? 'default',
        offers: offers.get(item.id) ?? [],
      },
      paidOn,
      rules,
    );
  });
}

/**
 * The fee-record write path for the payer page (spec 2 §3 Late-payment fee record): when a payment
 * is taken against an invoice, the late-payment fee lines of its quote on the payment day are
 * stored with the payment, in the caller's transaction. Null when the quote carries no fees.
 */
export async function recordLatePaymentFees(
  tx: Tx,
  scope: DatasetScope,
  payment: { paymentTransactionId: string; transactionId: string; paidOn: CalendarDate },
) {
  const [row] = await tx
    .select()
    .from(transactions)
    .where(and(inDataset(transactions, scope), eq(transactions.id, payment.transactionId)))
    .for('update');
  if (!row) return null;
  const [quote] = await quoteTransactions(tx, scope, [row], payment.paidOn);
  if (!quote || quote.fees.length === 0) return null;
  const id = uuidv7();
  const feeDetails = quote.fees.map((fee) => ({
    type: 'LatePayment',
    kind: fee.type,
    currency: quote.currency,
    amount: Number(fee.amount),
    description: fee.description,
  }));
  await tx.insert(paymentFeeTransactions).values({
    ...scope,
    id,
    transactionId: payment.transactionId,
    paymentTransactionId: payment.paymentTransactionId,
    feeDetails,
  });
  // The transaction.late-fee-applied web hook event, delivered once the payment's transaction commits.
  await recordWebhookEvent(tx, scope, {
    type: 'transaction.late-fee-applied',
    recordType: 'Transaction',
    recordId: payment.transactionId,
    payload: {
      id,
      transactionId: payment.transactionId,
      paymentTransactionId: payment.paymentTransactionId,
      currency: quote.currency,
      fees: quote.fees.map((fee) => ({
        type: fee.type,
        amount: Number(fee.amount),
        description: fee.description,
      })),
    },
  });
  return { id, quote, feeDetails };
}
