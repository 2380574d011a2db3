import { and, count, inArray } from 'drizzle-orm';
import type { PageQuery, PaymentDispute, disputeQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { paymentDisputes as d, paymentTransactions as t } from '../../db/schema-receivables.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { toPaymentDispute } from '../payment-transactions/index.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

type Fields = (typeof disputeQuery)['fields'];
const columns = {
  stage: d.stage,
  openedOn: d.openedOn,
  respondBy: d.respondBy,
  closedOn: d.closedOn,
  amount: d.amount,
  currency: d.currency,
  reason: d.reason,
  disputeReference: d.disputeReference,
  paymentTransactionId: d.paymentTransactionId,
};

/** The company's disputes and chargebacks, each with the payment it is about. */
export function createDisputesRepository() {
  return {
    async page(executor: Executor, scope: DatasetScope, query: PageQuery<Fields>) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: d.id });
      const where = and(inDataset(d, scope), compiled.where);
      const [rows, [total]] = await Promise.all([
        executor
          .select()
          .from(d)
          .where(where)
          .orderBy(...compiled.orderBy)
          .limit(compiled.limit)
          .offset(compiled.offset),
        executor.select({ n: count() }).from(d).where(where),
      ]);
      const ids = [...new Set(rows.map((row) => row.paymentTransactionId))];
      const payments =
        ids.length === 0
          ? []
          : await executor
              .select()
              .from(t)
              .where(and(inDataset(t, scope), inArray(t.id, ids)));
      const byId = new Map(payments.map((row) => [row.id, row]));
      return {
        items: rows.map((row): PaymentDispute => {
          const payment = byId.get(row.paymentTransactionId)!;
          return {
            ...toPaymentDispute(row),
            paymentTransaction: {
              id: payment.id,
              ledgerlineReference: payment.ledgerlineReference,
              status: payment.status as NonNullable<PaymentDispute['paymentTransaction']>['status'],
              totalAmount: Number(payment.totalAmount),
              currency: payment.currency,
              customerName: payment.customerName,
              companyName: payment.companyName,
              accountId: payment.accountId,
              paymentRequestId: payment.paymentRequestId,
              paymentProviderName: payment.paymentProviderName,
              paymentProviderReference: payment.paymentProviderReference,
            },
          };
        }),
        totalItems: total?.n ?? 0,
      };
    },
  };
}
