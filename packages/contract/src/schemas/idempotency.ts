import { z } from 'zod';

/** design §6: how long the first answer to an Idempotency-Key is kept for its retries. */
export const idempotencyRetentionHours = 24;

export const idempotencyKeyMessage =
  'Idempotency-Key must be 1 to 255 visible ASCII characters, e.g. a UUID.';

/**
 * The optional `Idempotency-Key` header of a create (IETF draft, as Stripe). Other headers pass
 * through untouched.
 */
export const idempotencyKeyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7E]{1,255}$/, idempotencyKeyMessage)
    .optional()
    .describe(
      `A key the client makes up per operation (a UUID). A retry with the same key and body within ${idempotencyRetentionHours} ` +
        'hours gets the first answer again (header Idempotent-Replayed: true) instead of creating twice; ' +
        'the same key with another body is a 422; while the first call is still running, a 409.',
    ),
});
