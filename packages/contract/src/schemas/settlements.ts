import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { currencies } from '../reference/currencies.js';

/** spec 3 §3 settlement configuration types and date types. */
export const settlementConfigurationTypes = [
  'PercentageDiscount',
  'AbsoluteDiscount',
  'ReplacementAmount',
  'None',
] as const;
export type SettlementConfigurationType = (typeof settlementConfigurationTypes)[number];
/** The types the site's "New settlement configuration" dropdown offers (spec 3 §2). */
export const creatableSettlementConfigurationTypes = [
  'PercentageDiscount',
  'AbsoluteDiscount',
] as const;
export const settlementDateTypes = ['DueDate', 'TransactionDate'] as const;
export type SettlementDateType = (typeof settlementDateTypes)[number];
/** spec 3 §9: DueDate is labelled 'before due date', TransactionDate 'after transaction date'. */
export const settlementDateTypeLabels: Record<SettlementDateType, string> = {
  DueDate: 'before due date',
  TransactionDate: 'after transaction date',
};
export const transactionAmountTypes = ['TransactionAmount', 'OutstandingAmount'] as const;

/** spec 3 §5, §9 limits. */
export const settlementLimits = {
  groupName: { min: 1, max: 100 },
  groupDescription: { max: 500 },
  configurationDescription: { max: 255 },
  percentage: { min: 0, max: 100 },
  numberOfDays: { min: 0, max: 3650 },
  amount: { min: 0, max: 1_000_000_000 },
} as const;

/** spec 3 §5 messages, quoted; the others are ours (docs/api.md). */
export const settlementMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${settlementLimits.groupName.max} characters`,
  groupDescriptionTooLong: `Description must be at most ${settlementLimits.groupDescription.max} characters`,
  configurationDescriptionTooLong: `Description must be at most ${settlementLimits.configurationDescription.max} characters`,
  percentageRequired: 'Percentage Discount is required',
  daysRequired: 'Number of Days is required',
  amountRequired: 'An amount is required',
  dateTypeRequired: 'Date type is required',
  currencyLength: 'Currency must be a three-letter ISO 4217 code',
  currencyRequired: 'Currency is required for an absolute discount',
  replacementCurrencyRequired: 'Currency is required for a replacement amount',
  minimumAboveMaximum: 'Maximum transaction value must be greater than the minimum',
  groupInUse: 'This settlement configuration group is in use',
} as const;

const isoCodes: ReadonlySet<string> = new Set(currencies.map((currency) => currency.code));
const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => code.length === 3 && isoCodes.has(code), settlementMessages.currencyLength);

/** spec 3 §5: minimum and maximum are optional numbers; NaN becomes empty. */
const optionalAmount = z.preprocess(
  (value) => (typeof value === 'number' && Number.isNaN(value) ? null : value),
  z
    .number()
    .min(0)
    .max(settlementLimits.amount.max)
    .nullish()
    .transform((value) => value ?? null),
);

export const settlementFilterSchema = z.discriminatedUnion('filterType', [
  z.object({
    filterType: z.literal('TransactionAmount'),
    isEnabled: z.boolean().default(true),
    amountType: z.enum(transactionAmountTypes).default('TransactionAmount'),
    minimumTransactionValue: optionalAmount,
    maximumTransactionValue: optionalAmount,
  }),
  z.object({
    filterType: z.literal('Currencies'),
    isEnabled: z.boolean().default(true),
    currencies: z.array(currencyCode).max(200).default([]),
  }),
  z.object({
    filterType: z.literal('PaymentAmount'),
    isEnabled: z.boolean().default(true),
    minimumPaymentValue: optionalAmount,
    maximumPaymentValue: optionalAmount,
  }),
]);
export type SettlementFilter = z.output<typeof settlementFilterSchema>;

export const settlementFilterGroupSchema = z
  .object({ filterConfigurations: z.array(settlementFilterSchema).max(10).default([]) })
  .meta({ id: 'SettlementFilterGroup' });

const daysField = z
  .number({ message: settlementMessages.daysRequired })
  .int(settlementMessages.daysRequired)
  .min(settlementLimits.numberOfDays.min, settlementMessages.daysRequired)
  .max(
    settlementLimits.numberOfDays.max,
    `Number of Days must be at most ${settlementLimits.numberOfDays.max}`,
  );

/** The body of a configuration (spec 3 §3, §5); the rules per type are checked together. */
export const settlementConfigurationBody = z
  .object({
    type: z.enum(settlementConfigurationTypes),
    description: z
      .string()
      .trim()
      .max(
        settlementLimits.configurationDescription.max,
        settlementMessages.configurationDescriptionTooLong,
      )
      .nullish()
      .transform((value) => (value ? value : null)),
    dateType: z.enum(settlementDateTypes, { message: settlementMessages.dateTypeRequired }),
    numberOfDays: daysField,
    percentageDiscount: z.number({ message: settlementMessages.percentageRequired }).nullish(),
    amount: z.number({ message: settlementMessages.amountRequired }).nullish(),
    currency: currencyCode.nullish(),
    filterGroup: settlementFilterGroupSchema.default({ filterConfigurations: [] }),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'PercentageDiscount') {
      const p = body.percentageDiscount;
      if (
        p === null ||
        p === undefined ||
        p < settlementLimits.percentage.min ||
        p > settlementLimits.percentage.max
      )
        ctx.addIssue({
          code: 'custom',
          path: ['percentageDiscount'],
          message: settlementMessages.percentageRequired,
        });
    }
    if (body.type === 'AbsoluteDiscount' || body.type === 'ReplacementAmount') {
      const a = body.amount;
      if (
        a === null ||
        a === undefined ||
        a < settlementLimits.amount.min ||
        a > settlementLimits.amount.max
      )
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: settlementMessages.amountRequired,
        });
      // An amount is money of one currency; without it, it would apply to every currency.
      if (!body.currency)
        ctx.addIssue({
          code: 'custom',
          path: ['currency'],
          message:
            body.type === 'AbsoluteDiscount'
              ? settlementMessages.currencyRequired
              : settlementMessages.replacementCurrencyRequired,
        });
    }
    body.filterGroup.filterConfigurations.forEach((filter, index) => {
      if (
        filter.filterType === 'TransactionAmount' &&
        filter.minimumTransactionValue !== null &&
        filter.maximumTransactionValue !== null &&
        filter.maximumTransactionValue <= filter.minimumTransactionValue
      )
        ctx.addIssue({
          code: 'custom',
          path: ['filterGroup', 'filterConfigurations', index, 'maximumTransactionValue'],
          message: settlementMessages.minimumAboveMaximum,
        });
    });
  })
  .meta({ id: 'SettlementConfigurationBody' });
export type SettlementConfigurationBody = z.input<typeof settlementConfigurationBody>;
export type SettlementConfigurationInput = z.output<typeof settlementConfigurationBody>;

export const updateSettlementConfigurationBody = settlementConfigurationBody
  .and(z.object({ id: z.uuid() }))
  .meta({ id: 'UpdateSettlementConfiguration' });

export const settlementConfigurationSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(settlementConfigurationTypes),
    description: z.string().nullable(),
    dateType: z.enum(settlementDateTypes),
    numberOfDays: z.number().int(),
    percentageDiscount: z.number().nullable(),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    filterGroup: z.object({
      filterConfigurations: z.array(
        z.object({
          filterType: z.string(),
          isEnabled: z.boolean(),
          amountType: z.string().optional(),
          minimumTransactionValue: z.number().nullable().optional(),
          maximumTransactionValue: z.number().nullable().optional(),
          minimumPaymentValue: z.number().nullable().optional(),
          maximumPaymentValue: z.number().nullable().optional(),
          currencies: z.array(z.string()).optional(),
        }),
      ),
    }),
  })
  .meta({ id: 'SettlementConfiguration' });
export type SettlementConfiguration = z.infer<typeof settlementConfigurationSchema>;

const groupFields = {
  name: z
    .string({ message: settlementMessages.nameRequired })
    .trim()
    .min(settlementLimits.groupName.min, settlementMessages.nameRequired)
    .max(settlementLimits.groupName.max, settlementMessages.nameTooLong),
  description: z
    .string()
    .trim()
    .max(settlementLimits.groupDescription.max, settlementMessages.groupDescriptionTooLong)
    .nullish()
    .transform((value) => (value ? value : null)),
  customerEnabled: z.boolean().default(true),
  transactionEnabled: z.boolean().default(false),
};

export const createSettlementGroupBody = z
  .object(groupFields)
  .meta({ id: 'CreateSettlementConfigurationGroup' });
export type CreateSettlementGroupBody = z.input<typeof createSettlementGroupBody>;
export const updateSettlementGroupBody = z
  .object({ id: z.uuid(), ...groupFields })
  .meta({ id: 'UpdateSettlementConfigurationGroup' });
export type UpdateSettlementGroupBody = z.input<typeof updateSettlementGroupBody>;

export const settlementGroupSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    customerEnabled: z.boolean(),
    transactionEnabled: z.boolean(),
    isDefault: z.boolean(),
    configurations: z.array(settlementConfigurationSchema),
  })
  .meta({ id: 'SettlementConfigurationGroup' });
export type SettlementGroup = z.infer<typeof settlementGroupSchema>;

export const settlementGroupQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    name: { type: 'string', sortable: true, filterable: true },
    description: { type: 'string', sortable: true, filterable: true },
  },
  { defaultSort: 'name', search: { text: ['name', 'description'] } },
);

export const groupConfigurationParams = z.object({ groupId: z.uuid(), configurationId: z.uuid() });
export const groupParams = z.object({ groupId: z.uuid() });

/**
 * The one-sentence summary of a configuration on the group page (spec 3 §2), e.g. '2% off when
 * paid within 10 days of the transaction date'.
 */
export function settlementConfigurationSummary(
  configuration: Pick<
    SettlementConfiguration,
    'type' | 'dateType' | 'numberOfDays' | 'percentageDiscount' | 'amount' | 'currency'
  >,
): string {
  const off =
    configuration.type === 'PercentageDiscount'
      ? `${configuration.percentageDiscount ?? 0}% off`
      : configuration.type === 'AbsoluteDiscount'
        ? `${configuration.currency ?? ''} ${(configuration.amount ?? 0).toFixed(2)} off`.trim()
        : configuration.type === 'ReplacementAmount'
          ? `pay ${configuration.currency ?? ''} ${(configuration.amount ?? 0).toFixed(2)}`.replace(
              '  ',
              ' ',
            )
          : 'no discount';
  const days = configuration.numberOfDays;
  const when =
    configuration.dateType === 'TransactionDate'
      ? `when paid within ${days} ${days === 1 ? 'day' : 'days'} of the transaction date`
      : days === 0
        ? 'when paid by the due date'
        : `when paid at least ${days} ${days === 1 ? 'day' : 'days'} before the due date`;
  return `${off} ${when}`;
}
