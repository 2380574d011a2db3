import { and, count, eq } from 'drizzle-orm';
import type { PageQuery, paymentProviderEventQuery } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.js';
import { paymentProviderEvents as events } from '../../db/schema-providers.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

type EventFields = (typeof paymentProviderEventQuery)['fields'];

const columns = {
  createdOn: events.createdOn,
  eventType: events.eventType,
  status: events.status,
};

/** A configuration's provider events; every method takes the company scope. */
export function createPaymentProviderEventsRepository() {
  return {
    async insert(
      executor: Executor,
      scope: DatasetScope,
      configuration: { id: string; providerName: string },
      exchanges: readonly ProviderExchange[],
    ): Promise<void> {
      if (exchanges.length === 0) return;
      await executor.insert(events).values(
        exchanges.map((exchange) => ({
          tenantId: scope.tenantId,
          datasetId: scope.datasetId,
          // v7 ids follow the order of the exchanges, which the list uses to break ties.
          id: uuidv7(),
          paymentProviderId: configuration.id,
          providerName: configuration.providerName,
          eventType: exchange.eventType,
          recordType: exchange.recordType,
          recordId: exchange.recordId,
          status: exchange.status,
          payload: exchange.payload,
        })),
      );
    },

    /** One page of a configuration's events; the index (…, configuration, created on, id) serves it. */
    async page(
      executor: Executor,
      scope: DatasetScope,
      paymentProviderId: string,
      query: PageQuery<EventFields>,
    ) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: events.id });
      const where = and(
        inDataset(events, scope),
        eq(events.paymentProviderId, paymentProviderId),
        compiled.where,
      );
      const rows = await executor
        .select()
        .from(events)
        .where(where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit)
        .offset(compiled.offset);
      const [total] = await executor.select({ n: count() }).from(events).where(where);
      return {
        items: rows.map(({ tenantId: _tenant, datasetId: _dataset, ...event }) => ({
          ...event,
          createdOn: event.createdOn.toISOString(),
        })),
        totalItems: total?.n ?? 0,
      };
    },
  };
}
export type PaymentProviderEventsRepository = ReturnType<
  typeof createPaymentProviderEventsRepository
>;
