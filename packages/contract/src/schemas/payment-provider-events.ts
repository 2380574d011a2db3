import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';

/**
 * What a provider said about a configuration (OAuth exchanges, account and creditor
 * reads, deauthorisation, connection tests, IP registration). The payload is the request as sent
 * and the answer as received, every secret masked; the dialog shows it on demand.
 */
export const paymentProviderEventSchema = z
  .object({
    id: z.uuid(),
    paymentProviderId: z.uuid(),
    providerName: z.string(),
    eventType: z.string(),
    recordType: z.string().nullable(),
    recordId: z.string().nullable(),
    status: z.string().nullable(),
    payload: z.string(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'PaymentProviderEvent' });
export type PaymentProviderEvent = z.infer<typeof paymentProviderEventSchema>;

/** `GET providers/{id}/events`: newest first. */
export const paymentProviderEventQuery = defineQueryFields(
  {
    createdOn: { type: 'date', sortable: true, filterable: true },
    eventType: { type: 'string', sortable: true, filterable: true },
    status: { type: 'string', sortable: true, filterable: true },
  },
  { defaultSort: '-createdOn' },
);
