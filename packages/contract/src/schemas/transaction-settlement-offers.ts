import { z } from 'zod';
import { calendarDateInput } from './calendar-date.js';
import {
  offerableSettlementOfferTypes,
  transactionLimits,
  transactionMessages,
} from './transactions.js';

/** spec 2 §5 settlement offer form: the fields both add and edit send. */
const settlementOfferFields = {
  type: z.enum(offerableSettlementOfferTypes, { message: transactionMessages.offerTypeRequired }),
  description: z
    .string()
    .trim()
    .max(transactionLimits.offerDescription, transactionMessages.offerDescriptionTooLong)
    .nullish()
    .transform((value) => (value ? value : null)),
  validFrom: calendarDateInput('Valid From must be a date (YYYY-MM-DD).').nullish(),
  validUntil: calendarDateInput('Valid To must be a date (YYYY-MM-DD).').nullish(),
  amount: z
    .number({ message: transactionMessages.offerAmountRequired })
    .min(0, transactionMessages.offerAmountRange)
    .nullish(),
  percentageDiscount: z
    .number({ message: transactionMessages.offerPercentageRequired })
    .min(0, transactionMessages.offerPercentageRange)
    .max(100, transactionMessages.offerPercentageRange)
    .nullish(),
};

type OfferShape = {
  type: (typeof offerableSettlementOfferTypes)[number];
  validFrom?: string | null;
  validUntil?: string | null;
  amount?: number | null;
  percentageDiscount?: number | null;
};
function checkOffer(body: OfferShape, ctx: z.RefinementCtx) {
  if (
    body.validFrom &&
    body.validUntil &&
    // Days, both inclusive: an offer may be valid for one day (YYYY-MM-DD compares as text).
    body.validFrom > body.validUntil
  ) {
    ctx.addIssue({ code: 'custom', path: ['validUntil'], message: transactionMessages.offerDates });
  }
  if (
    body.type === 'PercentageDiscount' &&
    (body.percentageDiscount === null || body.percentageDiscount === undefined)
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['percentageDiscount'],
      message: transactionMessages.offerPercentageRequired,
    });
  }
  if (body.type !== 'PercentageDiscount' && (body.amount === null || body.amount === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: ['amount'],
      message: transactionMessages.offerAmountRequired,
    });
  }
}

export const createSettlementOfferBody = z
  .object(settlementOfferFields)
  .superRefine(checkOffer)
  .meta({ id: 'CreateSettlementOffer' });
export type CreateSettlementOfferBody = z.input<typeof createSettlementOfferBody>;
export type CreateSettlementOfferInput = z.output<typeof createSettlementOfferBody>;

export const updateSettlementOfferBody = z
  .object({
    id: z.uuid({ message: transactionMessages.offerIdRequired }),
    ...settlementOfferFields,
  })
  .superRefine(checkOffer)
  .meta({ id: 'UpdateSettlementOffer' });
export type UpdateSettlementOfferBody = z.input<typeof updateSettlementOfferBody>;
export type UpdateSettlementOfferInput = z.output<typeof updateSettlementOfferBody>;

export const deleteSettlementOfferBody = z
  .object({ id: z.uuid({ message: transactionMessages.offerIdRequired }) })
  .meta({ id: 'DeleteSettlementOffer' });
/**
 * DELETE transactions/{id}/settlement-offers names the offer in its body (spec 2 §7) or, for
 * clients that send no body with DELETE (browsers' fetch wrappers, some proxies), in `offerId`.
 */
export const deleteSettlementOfferQuery = z.object({
  offerId: z.uuid({ message: transactionMessages.offerIdRequired }).optional(),
});
