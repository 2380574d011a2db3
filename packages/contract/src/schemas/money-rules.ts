import { z } from 'zod';

/** What an accounting transaction costs if paid on a day: the money rules' quote. */
export const quotedOfferSchema = z
  .object({
    source: z.enum(['Manual', 'Generated']),
    id: z.uuid(),
    groupId: z.uuid().nullable(),
    type: z.string(),
    description: z.string().nullable(),
    validUntil: z.iso.date().nullable(),
    discount: z.number(),
  })
  .meta({ id: 'QuotedSettlementOffer' });

export const feeLineSchema = z
  .object({
    type: z.enum(['StatutoryInterest', 'FixedSum']),
    amount: z.number(),
    description: z.string(),
  })
  .meta({ id: 'FeeLine' });

export const transactionQuoteSchema = z
  .object({
    transactionId: z.uuid(),
    paidOn: z.iso.date(),
    currency: z.string(),
    outstandingAmount: z.number(),
    offers: z.array(quotedOfferSchema),
    bestOffer: quotedOfferSchema.nullable(),
    discount: z.number(),
    fees: z.array(feeLineSchema),
    latePayment: z
      .object({
        configurationId: z.uuid(),
        interestStart: z.iso.date().nullable(),
        daysLate: z.number().int(),
        referenceRate: z.number().nullable(),
        annualRate: z.number().nullable(),
        notApplied: z
          .enum(['LatePaymentsNotEnabled', 'CurrencyNotGbp', 'NoReferenceRate'])
          .nullable(),
      })
      .nullable(),
    amountToPay: z.number(),
  })
  .meta({ id: 'TransactionQuote' });
export type TransactionQuote = z.infer<typeof transactionQuoteSchema>;

export const quoteQuerySchema = z.object({
  paidOn: z.iso.date({ message: 'paidOn must be a date, YYYY-MM-DD' }).optional(),
});

/** A quote in a list row (GET transactions/quotes): the figures without the offers and lines. */
export const transactionQuoteSummarySchema = z
  .object({
    discount: z.number(),
    fees: z.number(),
    amountToPay: z.number(),
    bestOfferSource: z.enum(['Manual', 'Generated']).nullable(),
  })
  .meta({ id: 'TransactionQuoteSummary' });
export type TransactionQuoteSummary = z.infer<typeof transactionQuoteSummarySchema>;
