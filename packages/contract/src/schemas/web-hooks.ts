import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { feeLineSchema } from './money-rules.js';
import { paymentRequestSchema } from './payment-requests.js';
import { reminderSchema } from './reminders.js';
import { allocatedStatuses } from './payment-transaction-statuses.js';
import { paymentTransactionSchema } from './payment-transactions.js';

/**
 * Outgoing web hooks (spec 3 §2 Web hooks page): the events Ledgerline sends to a
 * merchant's systems, through Svix or delivered by Ledgerline itself (Standard Webhooks).
 */
export const webHookEventTypes = [
  'payment.succeeded',
  'payment.failed',
  'payment.pending',
  'payment.captured',
  'payment.cancelled',
  'payment.refunded',
  'payment.refund-failed',
  'payment.disputed',
  'payment.dispute-won',
  'payment.dispute-lost',
  'payment.duplicated',
  'payment.allocated-status-changed',
  'payment-request.created',
  'payment-request.completed',
  'payment-request.expired',
  'payment-request.cancelled',
  'transaction.late-fee-applied',
  'reminder.sent',
] as const;
export type WebHookEventType = (typeof webHookEventTypes)[number];

/** payment.allocated-status-changed: small enough to be written set-based by a 100,000-row import. */
export const allocatedStatusChangeSchema = z
  .object({
    id: z.uuid().describe('The payment transaction'),
    allocatedStatus: z.enum(allocatedStatuses),
    previousAllocatedStatus: z.enum(allocatedStatuses),
  })
  .meta({ id: 'AllocatedStatusChangedEvent' });
export type AllocatedStatusChange = z.infer<typeof allocatedStatusChangeSchema>;

/** transaction.late-fee-applied: the fee lines stored with a payment against an invoice. */
export const lateFeeAppliedSchema = z
  .object({
    id: z.uuid().describe('The fee record'),
    transactionId: z.uuid(),
    paymentTransactionId: z.uuid(),
    currency: z.string(),
    fees: z.array(feeLineSchema),
  })
  .meta({ id: 'LateFeeAppliedEvent' });
export type LateFeeApplied = z.infer<typeof lateFeeAppliedSchema>;

/** The `data` of each event type: the API's own shapes (what GET of the record answers). */
export const webHookEventData = {
  'payment.succeeded': paymentTransactionSchema,
  'payment.failed': paymentTransactionSchema,
  'payment.pending': paymentTransactionSchema,
  'payment.captured': paymentTransactionSchema,
  'payment.cancelled': paymentTransactionSchema,
  'payment.refunded': paymentTransactionSchema,
  'payment.refund-failed': paymentTransactionSchema,
  'payment.disputed': paymentTransactionSchema,
  'payment.dispute-won': paymentTransactionSchema,
  'payment.dispute-lost': paymentTransactionSchema,
  'payment.duplicated': paymentTransactionSchema,
  'payment.allocated-status-changed': allocatedStatusChangeSchema,
  'payment-request.created': paymentRequestSchema,
  'payment-request.completed': paymentRequestSchema,
  'payment-request.expired': paymentRequestSchema,
  'payment-request.cancelled': paymentRequestSchema,
  'transaction.late-fee-applied': lateFeeAppliedSchema,
  'reminder.sent': reminderSchema,
} as const satisfies Record<WebHookEventType, z.ZodType>;

export const webHookEventDescriptions: Record<WebHookEventType, string> = {
  'payment.succeeded': 'A payment was taken (the payer page, a provider’s notification).',
  'payment.failed': 'A payment attempt failed or was refused.',
  'payment.pending': 'A payment is reserved (authorised, not yet captured).',
  'payment.captured': 'A Pending payment was captured (Payment transactions › Capture).',
  'payment.cancelled': 'A Pending payment was cancelled, or its authorisation expired.',
  'payment.refunded': 'Money of a payment was given back (in part, or all of it: Refunded).',
  'payment.refund-failed':
    'A refund under way failed or came back: the payment (its `refunds` show the one now Failed) is paid by its invoices again.',
  'payment.disputed': 'The payer’s bank disputes a payment (Disputed).',
  'payment.dispute-won': 'A dispute was won: the payment is Paid again, its allocations restored.',
  'payment.dispute-lost': 'A dispute was lost or charged back: its allocations were reversed.',
  'payment.duplicated':
    'A second payment of a Single request another payment already holds (Duplicated, unallocated).',
  'payment.allocated-status-changed':
    'A payment’s allocated status changed, one at a time or by import.',
  'payment-request.created': 'A payment request was created.',
  'payment-request.completed': 'A payment request was paid in full.',
  'payment-request.expired': 'A payment request passed its valid-until time unpaid.',
  'payment-request.cancelled': 'A member of staff cancelled an Open payment request.',
  'transaction.late-fee-applied': 'Late-payment fees were charged on an invoice with a payment.',
  'reminder.sent': 'A payment reminder was mailed to an account (a reminder schedule or Send now).',
};

/** What a receiver gets: the envelope, the same through Svix and embedded delivery. */
export const webHookEventSchema = <T extends z.ZodType>(type: WebHookEventType, data: T) =>
  z.object({
    id: z.uuid().describe('The event id: also the webhook-id header and Svix’s eventId'),
    type: z.literal(type),
    timestamp: z.iso.datetime(),
    tenantId: z.uuid(),
    datasetId: z.number().int().describe('The company (dataset) the event belongs to'),
    data,
  });

export const webHookLimits = { url: 2000, description: 255 } as const;

export const webHookMessages = {
  urlRequired: 'URL is required',
  urlInvalid: 'URL must be a valid address such as https://example.com/hooks',
  urlHttps:
    'URL must start with https:// (http:// is accepted only for this computer in development)',
  urlTooLong: `URL must be at most ${webHookLimits.url} characters`,
  urlPrivate: 'URL must not point to a private, loopback or link-local address',
  urlPort: 'URL must use port 443 or 80, or another port this server allows',
  urlOwnHost: 'URL must not point to Ledgerline itself',
  descriptionTooLong: `Description must be at most ${webHookLimits.description} characters`,
  eventType: `Event types must be among ${webHookEventTypes.join(', ')}`,
  endpointNotFound: 'The web hook endpoint was not found.',
  deliveryNotFound: 'The web hook delivery was not found.',
  managedBySvix:
    'Web hooks of this server are managed in Svix: use the Svix portal on the Web Hooks page.',
  svixNotConfigured:
    'Svix is not configured on this server (SVIX_TOKEN); endpoints are managed here.',
} as const;

export const webHookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    /** The event types sent; empty means every type. */
    eventTypes: z.array(z.enum(webHookEventTypes)),
    disabled: z.boolean(),
    /** Why the endpoint is off: switched off by a user, or failing for 5 days. */
    disabledReason: z.string().nullable(),
    /** Since when every attempt has failed; null while the endpoint answers 2xx. */
    failingSince: z.iso.datetime().nullable(),
    createdOn: z.iso.datetime(),
    updatedOn: z.iso.datetime(),
  })
  .meta({ id: 'WebHookEndpoint' });
export type WebHookEndpoint = z.infer<typeof webHookEndpointSchema>;

export const webHookEndpointBody = z
  .object({
    url: z
      .string({ message: webHookMessages.urlRequired })
      .trim()
      .min(1, { message: webHookMessages.urlRequired, abort: true })
      .max(webHookLimits.url, { message: webHookMessages.urlTooLong, abort: true })
      .regex(/^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i, webHookMessages.urlInvalid),
    description: z
      .string()
      .trim()
      .max(webHookLimits.description, webHookMessages.descriptionTooLong)
      .nullish()
      .transform((value) => value || null),
    eventTypes: z
      .array(z.enum(webHookEventTypes, { message: webHookMessages.eventType }))
      .max(webHookEventTypes.length)
      .default([]),
    disabled: z.boolean().default(false),
  })
  .meta({ id: 'SaveWebHookEndpoint' });
export type WebHookEndpointInput = z.input<typeof webHookEndpointBody>;

export const webHookSecretSchema = z
  .object({ secret: z.string().describe('whsec_ followed by the base64 key (Standard Webhooks)') })
  .meta({ id: 'WebHookSecret' });

export const webHookDeliveryStatuses = ['Pending', 'Succeeded', 'Failed'] as const;

export const webHookDeliverySchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid(),
    eventType: z.enum(webHookEventTypes),
    recordId: z.string(),
    status: z.enum(webHookDeliveryStatuses),
    /** Attempts made so far (the last one's number). */
    attempts: z.number().int(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    /** Why the last attempt failed without an answer (timeout, refused address…). */
    error: z.string().nullable(),
    lastAttemptOn: z.iso.datetime().nullable(),
    nextAttemptOn: z.iso.datetime().nullable(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'WebHookDelivery' });
export type WebHookDelivery = z.infer<typeof webHookDeliverySchema>;

/** GET web-hooks/endpoints?search=: the endpoints grid's box reads URL and description. */
export const webHookEndpointQuery = defineQueryFields(
  {
    url: { type: 'string', sortable: true, filterable: true },
    description: { type: 'string', filterable: true },
  },
  { defaultSort: 'url', search: { text: ['url', 'description'] } },
);

export const webHookDeliveriesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(100).default(20),
});

export const webHookDeliveriesSchema = z.object({
  items: z.array(webHookDeliverySchema),
  totalItems: z.number().int(),
});

/** GET integrations/svix/dashboard-access (spec 3 §7): `url` is the frame source. */
export const svixDashboardAccessSchema = z
  .object({
    /** Svix: the app portal; Embedded: Ledgerline delivers, the page shows its own screens. */
    mode: z.enum(['Svix', 'Embedded']),
    url: z.string().nullable(),
    /** Whether `url` can be framed: not on a self-hosted Svix server (no portal UI there). */
    frameable: z.boolean(),
  })
  .meta({ id: 'SvixDashboardAccess' });
export type SvixDashboardAccess = z.infer<typeof svixDashboardAccessSchema>;
