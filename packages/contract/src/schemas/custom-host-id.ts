import { z } from 'zod';
import { rebuildStatuses } from '../enums.js';

/** spec 3 §3 Custom host id setting: when a transaction's custom host id is computed. */
export const customHostIdOptions = ['CreateIfNull', 'AlwaysCreate', 'NeverCreate'] as const;
export type CustomHostIdOption = (typeof customHostIdOptions)[number];

/**
 * The transaction fields a parse value may name as `{field}` (docs/decisions/027-custom-host-id.md, "Custom host
 * id"): the texts that identify a transaction in its ERP. A null field reads as empty text.
 */
export const customHostIdFields = [
  'transactionReference',
  'transactionSecondReference',
  'orderReference',
  'transactionType',
  'currency',
  'postingApplication',
  'accountReference',
] as const;
export type CustomHostIdField = (typeof customHostIdFields)[number];

/** spec 3 §5: parseValue max 500. The example transaction's texts are bounded like a push's. */
export const customHostIdLimits = { parseValue: 500, exampleField: 100 } as const;

export const customHostIdMessages = {
  // spec 3 §5 gives the rules, not their wording.
  parseValueRequired: 'Parse value is required.',
  parseValueTooLong: `Parse value must be at most ${customHostIdLimits.parseValue} characters.`,
  trimWhiteSpaceRequired: 'Trim white space is required and must be true or false.',
  createOption: `Create option must be one of ${customHostIdOptions.join(', ')}.`,
  updateOption: `Update option must be one of ${customHostIdOptions.join(', ')}.`,
  exampleField: `Example fields must be text of at most ${customHostIdLimits.exampleField} characters.`,
  rebuildBusy:
    'Custom host ids are already being rebuilt for this company. Wait until the rebuild has finished.',
  rebuildNoParseValue: 'Save a parse value before rebuilding the custom host ids.',
} as const;

/** GET company-settings/custom-host-id: the saved setting, or the default when none is saved. */
export const customHostIdSettingSchema = z
  .object({
    id: z.literal('transaction'),
    createOption: z.enum(customHostIdOptions),
    updateOption: z.enum(customHostIdOptions),
    trimWhiteSpace: z.boolean(),
    parseValue: z.string().nullable(),
    rebuildState: z.enum(rebuildStatuses),
  })
  .meta({ id: 'CustomHostIdSetting' });
export type CustomHostIdSetting = z.infer<typeof customHostIdSettingSchema>;

// Not trimmed: spaces in a parse value are literal text of the custom host id.
const parseValue = z
  .string({ message: customHostIdMessages.parseValueRequired })
  .min(1, customHostIdMessages.parseValueRequired)
  .max(customHostIdLimits.parseValue, customHostIdMessages.parseValueTooLong);
const trimWhiteSpace = z.boolean({ message: customHostIdMessages.trimWhiteSpaceRequired });

/** PUT company-settings/custom-host-id (spec 3 §5); the parse value's syntax is checked too. */
export const updateCustomHostIdSettingBody = z
  .object({
    createOption: z.enum(customHostIdOptions, { message: customHostIdMessages.createOption }),
    updateOption: z.enum(customHostIdOptions, { message: customHostIdMessages.updateOption }),
    trimWhiteSpace,
    parseValue,
  })
  .meta({ id: 'UpdateCustomHostIdSetting' });
export type UpdateCustomHostIdSettingBody = z.input<typeof updateCustomHostIdSettingBody>;
export type UpdateCustomHostIdSettingInput = z.output<typeof updateCustomHostIdSettingBody>;

const exampleField = z
  .string({ message: customHostIdMessages.exampleField })
  .max(customHostIdLimits.exampleField, customHostIdMessages.exampleField)
  .nullish();

/** POST company-settings/custom-host-id/example: "test parse" on an example transaction. */
export const customHostIdExampleBody = z
  .object({
    parseValue,
    trimWhiteSpace,
    transaction: z
      .object(
        Object.fromEntries(customHostIdFields.map((field) => [field, exampleField])) as Record<
          CustomHostIdField,
          typeof exampleField
        >,
      )
      .partial()
      .nullish(),
  })
  .meta({
    id: 'CustomHostIdExample',
    examples: [
      {
        parseValue: '{accountReference}-{transactionReference}',
        trimWhiteSpace: true,
        transaction: { accountReference: 'ACME001', transactionReference: 'INV-10042' },
      },
    ],
  });
export type CustomHostIdExampleBody = z.input<typeof customHostIdExampleBody>;

export const customHostIdExampleResponse = z
  .object({
    customHostId: z
      .string()
      .nullable()
      .describe('What the parse value gives the example transaction; null when nothing is left'),
  })
  .meta({ id: 'CustomHostIdExampleResult' });
