import { z } from 'zod';
import { paymentTransactionSchema } from './payment-transactions.js';

/** spec 2 §4, §7: capture (all or part of) and cancel a Pending payment. */
export const pendingMessages = {
  amountRequired: 'Amount to capture must be a number.',
  amountPositive: 'Amount to capture must be more than 0.',
  amountTooLarge: 'Amount to capture cannot be more than the amount authorised.',
  noteTooLong: 'Note must be at most 500 characters.',
  notPending: 'Only a pending payment can be captured or cancelled.',
} as const;

const note = z
  .string()
  .trim()
  .max(500, pendingMessages.noteTooLong)
  .nullish()
  .transform((value) => (value ? value : null));

export const captureBody = z
  .object({
    amountToCapture: z
      .number({ message: pendingMessages.amountRequired })
      .positive(pendingMessages.amountPositive)
      .max(999_999_999_999_999, pendingMessages.amountTooLarge),
    note,
  })
  .meta({ id: 'CapturePendingPayment' });
export type CaptureBody = z.input<typeof captureBody>;

export const cancelBody = z.object({ note }).meta({ id: 'CancelPendingPayment' });
export type CancelBody = z.input<typeof cancelBody>;

/** isError answers are shown as errors (spec 1 §8); the payment as it is afterwards. */
export const pendingActionResultSchema = z
  .object({
    isError: z.boolean(),
    errorMessage: z.string().nullable(),
    paymentTransaction: paymentTransactionSchema,
  })
  .meta({ id: 'PendingActionResult' });
export type PendingActionResult = z.infer<typeof pendingActionResultSchema>;

/** spec 2 §3 Provider event (its payload is read separately). */
export const providerEventSchema = z
  .object({
    id: z.uuid(),
    providerName: z.string(),
    eventType: z.string(),
    recordType: z.string().nullable(),
    recordId: z.string().nullable(),
    status: z.string().nullable(),
    payloadFileName: z.string().nullable(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'ProviderEvent' });
export type ProviderEvent = z.infer<typeof providerEventSchema>;

/** A refund staff ask for, through the payment's provider. */
export const refundLimits = { reason: 500 } as const;
export const refundMessages = {
  amountRequired: 'Amount to refund must be a number.',
  amountPositive: 'Amount to refund must be more than 0.',
  amountTooLarge: 'Amount to refund cannot be more than what is left of the payment.',
  /** The 422 when it is more than what is left: says how much is. */
  moreThanLeft: (left: string) =>
    `Amount to refund cannot be more than what is left of the payment (${left}).`,
  reasonTooLong: `Reason must be at most ${refundLimits.reason} characters.`,
  notRefundable: 'Only a paid payment can be refunded.',
  isRefund: 'A refund cannot be refunded.',
  notSupported:
    'Ledgerline cannot refund payments through this provider; refund it in the provider’s own dashboard.',
} as const;

export const refundBody = z
  .object({
    amount: z
      .number({ message: refundMessages.amountRequired })
      .positive(refundMessages.amountPositive)
      .max(999_999_999_999_999, refundMessages.amountTooLarge),
    reason: z
      .string()
      .trim()
      .max(refundLimits.reason, refundMessages.reasonTooLong)
      .nullish()
      .transform((value) => (value ? value : null)),
  })
  .meta({ id: 'RefundPayment' });
export type RefundBody = z.input<typeof refundBody>;

/**
 * POST payment-transactions/{id}/refund: the payment as it is afterwards and the Refund
 * transaction (null when the provider refused: `isError` with its words, nothing changed).
 * A Refund with status Processing is under way at the provider; its notification finishes it.
 */
export const refundResultSchema = z
  .object({
    isError: z.boolean(),
    errorMessage: z.string().nullable(),
    paymentTransaction: paymentTransactionSchema,
    refund: paymentTransactionSchema.nullable(),
  })
  .meta({ id: 'RefundResult' });
export type RefundResult = z.infer<typeof refundResultSchema>;

/**
 * Reservations — Pending payments (authorised, not captured), the one lapsing first
 * first, with bulk capture (the whole of each) and bulk cancel. The site builds its queue from these.
 */
export const reservationLimits = { maxPageSize: 100, defaultPageSize: 25, maxBulk: 100 } as const;

export const reservationMessages = {
  idsRequired: 'Choose at least one reservation.',
  tooMany: `Choose at most ${reservationLimits.maxBulk} reservations at a time.`,
  idInvalid: 'Each reservation id must be a UUID.',
  notFound: 'The payment transaction was not found.',
} as const;

export const reservationsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(reservationLimits.maxPageSize)
    .default(reservationLimits.defaultPageSize),
});
export type ReservationsQuery = z.infer<typeof reservationsQuery>;

export const reservationSchema = paymentTransactionSchema
  .extend({
    /** When the provider's authorisation lapses: the expiry job cancels it then. */
    expiresOn: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Reservation' });
export type Reservation = z.infer<typeof reservationSchema>;

export const reservationsPageSchema = z
  .object({ items: z.array(reservationSchema), totalItems: z.number().int() })
  .meta({ id: 'ReservationsPage' });
export type ReservationsPage = z.infer<typeof reservationsPageSchema>;

export const reservationActionBody = z
  .object({
    ids: z
      .array(z.uuid({ message: reservationMessages.idInvalid }), {
        message: reservationMessages.idsRequired,
      })
      .min(1, reservationMessages.idsRequired)
      .max(reservationLimits.maxBulk, reservationMessages.tooMany),
    note,
  })
  .meta({ id: 'ReservationAction' });
export type ReservationActionBody = z.input<typeof reservationActionBody>;

/** One result per id, in the order sent; a refusal (the provider's, not Pending, not found) says why. */
export const reservationActionResultSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.uuid(),
        isError: z.boolean(),
        errorMessage: z.string().nullable(),
        paymentTransaction: paymentTransactionSchema.nullable(),
      }),
    ),
  })
  .meta({ id: 'ReservationActionResult' });
export type ReservationActionResult = z.infer<typeof reservationActionResultSchema>;

/** The reservations routes: the server registers them, the site calls them. */
export const reservationRoutes = {
  list: { method: 'GET', path: '/api/v0/payment-transactions/reservations', permission: null },
  capture: {
    method: 'POST',
    path: '/api/v0/payment-transactions/reservations/capture',
    permission: 'CapturePendingPayment',
  },
  cancel: {
    method: 'POST',
    path: '/api/v0/payment-transactions/reservations/cancel',
    permission: 'CancelPendingPayment',
  },
} as const;
