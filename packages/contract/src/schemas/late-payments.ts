import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';

/** spec 3 §3 Late payment configuration. Only Uk opens a form (spec 3 §2). */
export const latePaymentTypes = ['Uk', 'Custom'] as const;
export type LatePaymentType = (typeof latePaymentTypes)[number];

export const latePaymentLimits = {
  name: { min: 1, max: 100 },
  description: { max: 500 },
  gracePeriodInDays: { min: 0, max: 3650 },
} as const;

export const latePaymentMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${latePaymentLimits.name.max} characters`,
  descriptionTooLong: `Description must be at most ${latePaymentLimits.description.max} characters`,
  gracePeriodRequired: 'Grace period is required',
  gracePeriodTooLong: `Grace period must be at most ${latePaymentLimits.gracePeriodInDays.max} days`,
  customNotAvailable: 'Custom late payment configurations are not available yet',
  betaBanner:
    'Late Payments is currently in beta and not enabled on your site. You will be able to create configurations but they will not be applied to transactions.',
  configurationInUse: 'This late payment configuration is in use',
} as const;

const latePaymentFields = {
  type: z.enum(latePaymentTypes),
  name: z
    .string({ message: latePaymentMessages.nameRequired })
    .trim()
    .min(latePaymentLimits.name.min, latePaymentMessages.nameRequired)
    .max(latePaymentLimits.name.max, latePaymentMessages.nameTooLong),
  description: z
    .string()
    .trim()
    .max(latePaymentLimits.description.max, latePaymentMessages.descriptionTooLong)
    .nullish()
    .transform((value) => (value ? value : null)),
  enabled: z.boolean().default(true),
  // spec 3 §5: required, min 0.
  gracePeriodInDays: z
    .number({ message: latePaymentMessages.gracePeriodRequired })
    .int(latePaymentMessages.gracePeriodRequired)
    .min(latePaymentLimits.gracePeriodInDays.min, latePaymentMessages.gracePeriodRequired)
    .max(latePaymentLimits.gracePeriodInDays.max, latePaymentMessages.gracePeriodTooLong),
  applyCharges: z.boolean().default(true),
};

export const createLatePaymentBody = z
  .object(latePaymentFields)
  .meta({ id: 'CreateLatePaymentConfiguration' });
export type CreateLatePaymentBody = z.input<typeof createLatePaymentBody>;
export const updateLatePaymentBody = z
  .object({ id: z.uuid(), ...latePaymentFields })
  .meta({ id: 'UpdateLatePaymentConfiguration' });
export type UpdateLatePaymentBody = z.input<typeof updateLatePaymentBody>;

export const latePaymentConfigurationSchema = z
  .object({
    id: z.uuid(),
    feeGroupType: z.literal('LatePayment'),
    type: z.enum(latePaymentTypes),
    name: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    gracePeriodInDays: z.number().int(),
    recurringPeriodInDays: z.number().int().nullable(),
    percentage: z.number().nullable(),
    amount: z.number().nullable(),
    applyCharges: z.boolean(),
    isDefault: z.boolean(),
  })
  .meta({ id: 'LatePaymentConfiguration' });
export type LatePaymentConfiguration = z.infer<typeof latePaymentConfigurationSchema>;

export const latePaymentQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    name: { type: 'string', sortable: true, filterable: true },
    description: { type: 'string', sortable: true, filterable: true },
    gracePeriodInDays: { type: 'number', sortable: true, filterable: true },
  },
  { defaultSort: 'name', search: { text: ['name', 'description'] } },
);

/** spec 3 §3 UK late payment info: to 0 means 'or more', from 0 means 'up to'. */
export const ukLatePaymentInfoSchema = z
  .object({
    annualStatutoryInterestRate: z.number(),
    currentBoEBaseRate: z.number(),
    /** The reference rate of today's half-year, fixed on 30 June or 31 December. */
    referenceRate: z.number(),
    referenceRateFixedOn: z.iso.date(),
    latePaymentsApplied: z.boolean(),
    charges: z.array(z.object({ from: z.number(), to: z.number(), charge: z.number() })),
  })
  .meta({ id: 'UkLatePaymentInfo' });
export type UkLatePaymentInfo = z.infer<typeof ukLatePaymentInfoSchema>;

/** '£40', '£1,000', '£9,999.99': pounds with .00 trimmed (spec 3 §9). */
export function formatPounds(value: number): string {
  const text = value.toLocaleString('en-GB', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `£${text.endsWith('.00') ? text.slice(0, -3) : text}`;
}

/** A row of the debt recovery cost table in words: 'up to £999.99', '£10,000 or more'. */
export function debtBandLabel(row: { from: number; to: number }): string {
  if (row.from === 0) return `up to ${formatPounds(row.to)}`;
  if (row.to === 0) return `${formatPounds(row.from)} or more`;
  return `${formatPounds(row.from)} to ${formatPounds(row.to)}`;
}
