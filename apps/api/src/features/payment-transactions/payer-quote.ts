import Big from 'big.js';
import { and, inArray } from 'drizzle-orm';
import { currencyDecimalPlaces, type PayerQuote } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { payQuotes } from '../../db/schema-pay.js';
import { transactions } from '../../db/schema-receivables.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

/** pay_quotes.offered as the payer page's start stores it (pay/pay-page.ts Offered). */
interface StoredOffered {
  quotedOn: string;
  invoices: {
    transactionId: string;
    outstandingAmount: string;
    discount: string;
    offer: {
      id: string;
      source: 'Manual' | 'Generated';
      description: string | null;
      validUntil: string | null;
    } | null;
    fees: { type: 'StatutoryInterest' | 'FixedSum'; amount: string; description: string }[];
    feesReason?: string | null;
    amountToPay: string;
    paidAmount?: string;
  }[];
  discountTotal: string;
  feeTotal: string;
  total: string;
  amountOffered?: string;
}

/**
 * What the payer page offered for one payment, for the merchant's detail; null for a
 * payment not started on the payer page. Invoice references are read as they are now.
 */
export async function readPayerQuote(
  executor: Executor,
  scope: DatasetScope,
  payment: { id: string; currency: string },
): Promise<PayerQuote | null> {
  return (await readPayerQuotes(executor, scope, [payment])).get(payment.id) ?? null;
}

/**
 * readPayerQuote of several payments in two statements (the web hook payloads of a batch of
 * settled payments): the payments without a quote are left out.
 */
export async function readPayerQuotes(
  executor: Executor,
  scope: DatasetScope,
  payments: { id: string; currency: string }[],
): Promise<Map<string, PayerQuote>> {
  const quotes = new Map<string, PayerQuote>();
  if (payments.length === 0) return quotes;
  const rows = await executor
    .select({
      paymentTransactionId: payQuotes.paymentTransactionId,
      offered: payQuotes.offered,
      createdOn: payQuotes.createdOn,
    })
    .from(payQuotes)
    .where(
      and(
        inDataset(payQuotes, scope),
        inArray(
          payQuotes.paymentTransactionId,
          payments.map((payment) => payment.id),
        ),
      ),
    );
  if (rows.length === 0) return quotes;
  const ids = [
    ...new Set(
      rows.flatMap((row) =>
        (row.offered as StoredOffered).invoices.map((invoice) => invoice.transactionId),
      ),
    ),
  ];
  const references =
    ids.length === 0
      ? []
      : await executor
          .select({ id: transactions.id, reference: transactions.transactionReference })
          .from(transactions)
          .where(and(inDataset(transactions, scope), inArray(transactions.id, ids)));
  const referenceOf = new Map(references.map((r) => [r.id, r.reference]));
  const currencyOf = new Map(payments.map((payment) => [payment.id, payment.currency]));
  for (const row of rows) {
    const currency = currencyOf.get(row.paymentTransactionId)!;
    quotes.set(
      row.paymentTransactionId,
      toPayerQuote(row.offered as StoredOffered, row.createdOn, currency, referenceOf),
    );
  }
  return quotes;
}

function toPayerQuote(
  offered: StoredOffered,
  createdOn: Date,
  currency: string,
  referenceOf: Map<string, string | null>,
): PayerQuote {
  const decimals = currencyDecimalPlaces(currency);
  const money = (value: string | number) => Number(new Big(value).toFixed(decimals));
  return {
    quotedAt: createdOn.toISOString(),
    quotedOn: offered.quotedOn,
    currency,
    invoices: offered.invoices.map((invoice) => ({
      transactionId: invoice.transactionId,
      reference: referenceOf.get(invoice.transactionId) ?? null,
      outstandingAmount: money(invoice.outstandingAmount),
      discount: money(invoice.discount),
      offer: invoice.offer && {
        id: invoice.offer.id,
        source: invoice.offer.source,
        description: invoice.offer.description,
        validUntil: invoice.offer.validUntil,
      },
      fees: invoice.fees.map((fee) => ({
        type: fee.type,
        amount: money(fee.amount),
        description: fee.description,
      })),
      feesReason: invoice.feesReason ?? null,
      chosenAmount: invoice.paidAmount === undefined ? null : money(invoice.paidAmount),
      amountToPay: money(invoice.amountToPay),
    })),
    discountTotal: money(offered.discountTotal),
    feeTotal: money(offered.feeTotal),
    total: money(offered.amountOffered ?? offered.total),
    amountChosen: money(offered.total),
  };
}
