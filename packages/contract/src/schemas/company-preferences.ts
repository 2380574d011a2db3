import { z } from 'zod';
import { usageTypes } from '../enums.js';
import { customHostIdSettingSchema, updateCustomHostIdSettingBody } from './custom-host-id.js';
import { isTimeZoneName, reminderMessages, reminderTimePattern } from './reminders.js';

/** spec 3 §3 Company preferences: Disable or Allow. */
export const preferenceSwitches = ['Disable', 'Allow'] as const;
export type PreferenceSwitch = (typeof preferenceSwitches)[number];

/** spec 3 §5: the default country falls back to GB (ISO 3166-1 numeric 826). */
export const fallbackCountry = { id: 826, alpha2Code: 'GB' } as const;

export const companyPreferencesMessages = {
  groupNotFound: 'No settlement configuration group of this company has this id',
  latePaymentNotFound: 'No late payment configuration of this company has this id',
  // spec 3 §5 gives the rule (a required number), not its wording.
  defaultCountryRequired: 'Default country is required',
  defaultCountryUnknown: 'No country has this id',
  editPaymentStatus: 'Can payments be edited must be Disable or Allow',
  currencyChange: 'Allow transaction currency change must be Disable or Allow',
  // spec 3 §8: thrown when saving preferences and none exist.
  noPreferences: 'No preferences found',
} as const;

/**
 * spec 3 §3 Company preferences. A company that has saved none reads the defaults: no default
 * group or configuration, GB, Disable and Disable (docs/decisions/068-preferences.md, "Preferences").
 */
export const companyPreferencesSchema = z
  .object({
    defaultSettlementConfigurationGroupId: z.uuid().nullable(),
    defaultLatePaymentConfigurationId: z.uuid().nullable(),
    defaultCountryId: z.number().int(),
    defaultEditPaymentStatus: z.enum(preferenceSwitches),
    allowTransactionCurrencyChange: z.enum(preferenceSwitches),
    /** The reminder schedule of accounts that chose 'default'; null: none. */
    defaultReminderScheduleId: z.uuid().nullable().default(null),
    /** When the daily reminder run goes out (HH:MM in reminderTimeZone). */
    reminderTime: z.string().default('09:00'),
    reminderTimeZone: z.string().default('Europe/London'),
  })
  .meta({ id: 'CompanyPreferences' });
export type CompanyPreferences = z.infer<typeof companyPreferencesSchema>;

/** PUT replaces the fields it carries; an absent field stays as it is. */
export const updateCompanyPreferencesBody = z
  .object({
    defaultSettlementConfigurationGroupId: z.uuid().nullish(),
    defaultLatePaymentConfigurationId: z.uuid().nullish(),
    defaultCountryId: z
      .number({ message: companyPreferencesMessages.defaultCountryRequired })
      .int(companyPreferencesMessages.defaultCountryRequired)
      .optional(),
    defaultEditPaymentStatus: z
      .enum(preferenceSwitches, { message: companyPreferencesMessages.editPaymentStatus })
      .optional(),
    allowTransactionCurrencyChange: z
      .enum(preferenceSwitches, { message: companyPreferencesMessages.currencyChange })
      .optional(),
    defaultReminderScheduleId: z.uuid({ message: reminderMessages.scheduleNotFound }).nullish(),
    reminderTime: z
      .string({ message: reminderMessages.reminderTime })
      .trim()
      .regex(reminderTimePattern, reminderMessages.reminderTime)
      .optional(),
    reminderTimeZone: z
      .string({ message: reminderMessages.reminderTimeZone })
      .trim()
      .refine(isTimeZoneName, reminderMessages.reminderTimeZone)
      .optional(),
  })
  .meta({ id: 'UpdateCompanyPreferences' });
export type UpdateCompanyPreferencesBody = z.input<typeof updateCompanyPreferencesBody>;

/**
 * spec 3 §3 Payment request settings. Time units range from Second to Year; Days, Weeks, Months
 * and Years are selectable (the others are refused).
 */
export const timeUnits = ['Second', 'Minute', 'Hour', 'Day', 'Week', 'Month', 'Year'] as const;
export type TimeUnit = (typeof timeUnits)[number];
export const expiryUnits = ['Day', 'Week', 'Month', 'Year'] as const;
export type ExpiryUnit = (typeof expiryUnits)[number];
export const linkSizes = ['Short', 'Long'] as const;

/** spec 3 §5, §9: 500 days, weeks use the month cap 24, 24 months, 5 years. */
export const expiryQuantityMaximum: Readonly<Record<ExpiryUnit, number>> = {
  Day: 500,
  Week: 24,
  Month: 24,
  Year: 5,
};

export const expiryUnitNames: Readonly<Record<ExpiryUnit, { one: string; many: string }>> = {
  Day: { one: 'day', many: 'days' },
  Week: { one: 'week', many: 'weeks' },
  Month: { one: 'month', many: 'months' },
  Year: { one: 'year', many: 'years' },
};

export const paymentRequestSettingsMessages = {
  // spec 3 §5 quotes this one.
  quantity: 'Quantity must be a number',
  quantityWhole: 'Quantity must be a whole number',
  quantityNegative: 'Quantity must be 0 or more',
  quantityTooLarge: (unit: ExpiryUnit) =>
    `Quantity must be at most ${expiryQuantityMaximum[unit]} ${expiryUnitNames[unit].many}`,
  unit: 'Expiry unit must be Day, Week, Month or Year',
  usageType: 'Default usage type is required',
  linkSize: 'The link size is fixed to Long',
} as const;

/** spec 3 §2: the hint under the expiry fields, the unit singular at 1. */
export function expiryHint(unit: ExpiryUnit | null, quantity: number | null): string {
  if (unit === null || quantity === null || !(quantity > 0))
    return 'The Payment Request link will not expire';
  const name = expiryUnitNames[unit];
  return `The Payment Request link will expire after ${quantity} ${quantity === 1 ? name.one : name.many}`;
}

const validUntilAddition = z
  .object({
    unit: z.enum(expiryUnits, { message: paymentRequestSettingsMessages.unit }),
    quantity: z
      .number({ message: paymentRequestSettingsMessages.quantity })
      .int(paymentRequestSettingsMessages.quantityWhole)
      .min(0, paymentRequestSettingsMessages.quantityNegative),
  })
  .superRefine((value, ctx) => {
    if (value.quantity > expiryQuantityMaximum[value.unit])
      ctx.addIssue({
        code: 'custom',
        path: ['quantity'],
        message: paymentRequestSettingsMessages.quantityTooLarge(value.unit),
      });
  });

/** GET and PUT company-settings/payment-request. A null validUntilAddition: links do not expire. */
export const paymentRequestSettingsSchema = z
  .object({
    validUntilAddition: z
      .object({ unit: z.enum(expiryUnits), quantity: z.number().int() })
      .nullable(),
    defaultUsageType: z.enum(usageTypes),
    linkSize: z.enum(linkSizes),
  })
  .meta({ id: 'PaymentRequestSettings' });
export type PaymentRequestSettings = z.infer<typeof paymentRequestSettingsSchema>;

/**
 * spec 3 §5: a quantity of 0 (or no unit) means no expiry and is stored as null. The link size
 * is fixed to Long.
 */
export const updatePaymentRequestSettingsBody = z
  .object({
    validUntilAddition: validUntilAddition
      .nullable()
      .transform((value) => (value && value.quantity > 0 ? value : null)),
    defaultUsageType: z.enum(usageTypes, { message: paymentRequestSettingsMessages.usageType }),
    linkSize: z
      .literal('Long', { message: paymentRequestSettingsMessages.linkSize })
      .default('Long'),
  })
  .meta({ id: 'UpdatePaymentRequestSettings' });
export type UpdatePaymentRequestSettingsBody = z.input<typeof updatePaymentRequestSettingsBody>;
export type UpdatePaymentRequestSettingsInput = z.output<typeof updatePaymentRequestSettingsBody>;

/** The first moment a new request's link no longer works: `from` plus the addition. */
export function addExpiry(
  from: Date,
  addition: { unit: ExpiryUnit; quantity: number } | null,
): Date | null {
  if (!addition || addition.quantity <= 0) return null;
  const at = new Date(from.getTime());
  switch (addition.unit) {
    case 'Day':
      at.setUTCDate(at.getUTCDate() + addition.quantity);
      break;
    case 'Week':
      at.setUTCDate(at.getUTCDate() + 7 * addition.quantity);
      break;
    case 'Month':
      at.setUTCMonth(at.getUTCMonth() + addition.quantity);
      break;
    case 'Year':
      at.setUTCFullYear(at.getUTCFullYear() + addition.quantity);
      break;
  }
  return at;
}

/**
 * PUT company-settings/all-preferences: the Preferences page's one Save (spec 3 §2 "Saving on the
 * General tab validates both sub-forms first; if either fails nothing is saved"): the general
 * preferences, the payment request settings and the custom host id setting, saved in one
 * transaction. Field messages are keyed `preferences.…`, `paymentRequest.…`, `customHostId.…`.
 */
export const savePreferencesPageBody = z
  .object({
    preferences: updateCompanyPreferencesBody,
    paymentRequest: updatePaymentRequestSettingsBody,
    customHostId: updateCustomHostIdSettingBody,
  })
  .meta({ id: 'SavePreferencesPage' });
export type SavePreferencesPageBody = z.input<typeof savePreferencesPageBody>;

export const preferencesPageSchema = z
  .object({
    preferences: companyPreferencesSchema,
    paymentRequest: paymentRequestSettingsSchema,
    customHostId: customHostIdSettingSchema,
  })
  .meta({ id: 'PreferencesPage' });
export type PreferencesPage = z.infer<typeof preferencesPageSchema>;
