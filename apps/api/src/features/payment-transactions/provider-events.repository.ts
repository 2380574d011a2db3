import { and, asc, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { providerEvents } from '../../db/schema-receivables.js';
import { NotFoundError } from '../../platform/errors.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';
import type { ProviderOutcome } from '../../providers/adapter.js';

/** Keeps what a provider said about a payment (a capture, cancel or refund) as a provider event. */
export async function insertProviderEvent(
  tx: Tx,
  scope: DatasetScope,
  event: {
    paymentTransactionId: string;
    providerName: string;
    exchange: ProviderOutcome['exchange'];
    /** The file name's record when the exchange names none. */
    fallbackRecordId: string;
  },
) {
  await tx.insert(providerEvents).values({
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
    id: uuidv7(),
    paymentTransactionId: event.paymentTransactionId,
    providerName: event.providerName,
    ...event.exchange,
    payloadFileName: `${event.exchange.recordId ?? event.fallbackRecordId}.json`,
  });
}

/** What the provider said about a payment, oldest first, without the payloads. */
export async function readProviderEvents(
  tx: Tx,
  scope: DatasetScope,
  paymentTransactionId: string,
) {
  const rows = await tx
    .select()
    .from(providerEvents)
    .where(
      and(
        inDataset(providerEvents, scope),
        eq(providerEvents.paymentTransactionId, paymentTransactionId),
      ),
    )
    .orderBy(asc(providerEvents.createdOn), asc(providerEvents.id));
  return rows.map(
    ({
      payload: _payload,
      tenantId: _tenant,
      datasetId: _dataset,
      paymentTransactionId: _payment,
      ...event
    }) => ({
      ...event,
      createdOn: event.createdOn.toISOString(),
    }),
  );
}

/** One provider event's payload, as text. */
export async function readProviderEventPayload(tx: Tx, scope: DatasetScope, eventId: string) {
  const [row] = await tx
    .select({ payload: providerEvents.payload })
    .from(providerEvents)
    .where(and(inDataset(providerEvents, scope), eq(providerEvents.id, eventId)));
  if (!row) throw new NotFoundError('The provider event was not found.');
  return row.payload;
}
