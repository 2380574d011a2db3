import type { FastifyInstance } from 'fastify';
import type { TransactionQuoteSummary } from '@ledgerline/contract';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  estimatedPageOf,
  pageQuerySchema,
  parsePageQuery,
  quoteQuerySchema,
  transactionQuery,
  transactionQuoteSchema,
  transactionQuoteSummarySchema,
  transactionSchema,
  uuidParam,
} from '@ledgerline/contract';

import { NotFoundError } from '../../platform/errors.js';
import { createTransactionsRepository } from '../transactions/index.js';
import { quoteTransactions, toQuoteBody, toQuoteSummary, today } from './money-rules.service.js';
import { datasetScopeOf } from '../../platform/scope.js';

const tags = ['transactions'];
const paidOnNote =
  'paidOn (YYYY-MM-DD) defaults to today (UTC). Offers: the manual ones (spec 2) and those generated from the account’s settlement group; ' +
  'fees: UK statutory interest and the fixed sum when late payments apply; amountToPay = outstanding − best discount + fees.';

/**
 * The money rules where an amount to pay is shown: one transaction's quote for the
 * accounting transaction page and the payment request's transactions tab, and a page of
 * transactions with their quotes for the transaction list. Transactions are read through the
 * transactions repository.
 */
export async function moneyRulesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const transactions = createTransactionsRepository();

  r.get(
    '/api/v0/transactions/quotes',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'A page of accounting transactions, each with what it costs if paid on paidOn',
        description: `The paging, sorting and filters of GET transactions. ${paidOnNote}`,
        querystring: pageQuerySchema.extend(quoteQuerySchema.shape),
        response: {
          200: estimatedPageOf(transactionSchema.extend({ quote: transactionQuoteSummarySchema })),
        },
      },
    },
    async (request) => {
      const { paidOn, ...pageQuery } = request.query;
      const query = parsePageQuery(transactionQuery, pageQuery);
      const scope = datasetScopeOf(request);
      return request.tenantRead(async (tx) => {
        const page = await transactions.page(tx, scope, query);
        // The rules with the page's account choices and offers: one statement after the page.
        const quotes = await quoteTransactions(tx, scope, page.items, paidOn ?? today());
        // Each row gets its quote in place: a copy of 1,000 rows cost the page 1–1.5 ms.
        const items = page.items.map((item, i) => {
          const row = item as typeof item & { quote: TransactionQuoteSummary };
          row.quote = toQuoteSummary(quotes[i]!);
          return row;
        });
        return { ...page, items };
      });
    },
  );

  r.get(
    '/api/v0/transactions/:id/quote',
    {
      config: { access: 'dataset' },
      schema: {
        tags,
        summary: 'What an accounting transaction costs if paid on paidOn',
        description: `${paidOnNote} Another company’s transaction answers 404.`,
        params: uuidParam,
        querystring: quoteQuerySchema,
        response: { 200: transactionQuoteSchema },
      },
    },
    async (request) => {
      const scope = datasetScopeOf(request);
      return request.tenantRead(async (tx) => {
        const row = await transactions.findRow(tx, scope, request.params.id);
        if (!row) throw new NotFoundError('Transaction not found.');
        const [quote] = await quoteTransactions(tx, scope, [row], request.query.paidOn ?? today());
        return toQuoteBody(quote!);
      });
    },
  );
}

export default moneyRulesRoutes;
