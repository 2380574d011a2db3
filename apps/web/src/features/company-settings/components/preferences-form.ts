import {
  customHostIdOptions,
  expiryUnits,
  fallbackCountry,
  paymentRequestSettingsMessages as rm,
  preferenceSwitches,
  updateCustomHostIdSettingBody,
  updatePaymentRequestSettingsBody,
  usageTypes,
  type CompanyPreferences,
  type CustomHostIdOption,
  type CustomHostIdSetting,
  type ExpiryUnit,
  type PaymentRequestSettings,
  type UpdateCompanyPreferencesBody,
  type UpdateCustomHostIdSettingBody,
  type UpdatePaymentRequestSettingsBody,
  type UsageType,
} from '@ledgerline/contract';

/** The General tab: the general preferences and the payment request settings (spec 3 §2). */
export type GeneralForm = {
  defaultCountryId: string;
  canEditPayments: boolean;
  allowTransactionCurrencyChange: boolean;
  /** '' is the '-' option: links do not expire. */
  expiryUnit: ExpiryUnit | '';
  expiryQuantity: number | string;
  defaultUsageType: UsageType;
};

/** The Advanced tab: the custom host id setting. */
export type AdvancedForm = {
  createOption: CustomHostIdOption;
  updateOption: CustomHostIdOption;
  trimWhiteSpace: boolean;
  parseValue: string;
};

export const countryRequired = 'Default country is required';
export { expiryUnits, usageTypes, customHostIdOptions, preferenceSwitches };

export function generalValues(
  preferences: CompanyPreferences,
  requestSettings: PaymentRequestSettings,
  countryIds: ReadonlySet<number>,
): GeneralForm {
  // spec 3 §5: the default falls back to the country with alpha-2 code GB.
  const country = countryIds.has(preferences.defaultCountryId)
    ? preferences.defaultCountryId
    : fallbackCountry.id;
  return {
    defaultCountryId: String(country),
    canEditPayments: preferences.defaultEditPaymentStatus === 'Allow',
    allowTransactionCurrencyChange: preferences.allowTransactionCurrencyChange === 'Allow',
    expiryUnit: requestSettings.validUntilAddition?.unit ?? '',
    expiryQuantity: requestSettings.validUntilAddition?.quantity ?? 0,
    defaultUsageType: requestSettings.defaultUsageType,
  };
}

export function advancedValues(setting: CustomHostIdSetting): AdvancedForm {
  return {
    createOption: setting.createOption,
    updateOption: setting.updateOption,
    trimWhiteSpace: setting.trimWhiteSpace,
    parseValue: setting.parseValue ?? '',
  };
}

export function preferencesBody(values: GeneralForm): UpdateCompanyPreferencesBody {
  return {
    defaultCountryId: Number(values.defaultCountryId),
    defaultEditPaymentStatus: values.canEditPayments ? 'Allow' : 'Disable',
    allowTransactionCurrencyChange: values.allowTransactionCurrencyChange ? 'Allow' : 'Disable',
  };
}

/** spec 3 §5: with no unit no valid-until addition is sent. */
export function paymentRequestBody(values: GeneralForm): UpdatePaymentRequestSettingsBody {
  return {
    validUntilAddition:
      values.expiryUnit === ''
        ? null
        : {
            unit: values.expiryUnit,
            quantity:
              typeof values.expiryQuantity === 'number' ? values.expiryQuantity : Number.NaN,
          },
    defaultUsageType: values.defaultUsageType,
    linkSize: 'Long',
  };
}

export function customHostIdBody(values: AdvancedForm): UpdateCustomHostIdSettingBody {
  return values;
}

/** Field errors of the General tab, from the contract's rules. */
export function validateGeneral(values: GeneralForm): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.defaultCountryId) errors.defaultCountryId = countryRequired;
  if (values.expiryUnit !== '' && typeof values.expiryQuantity !== 'number')
    errors.expiryQuantity = rm.quantity;
  else {
    const parsed = updatePaymentRequestSettingsBody.safeParse(paymentRequestBody(values));
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = issue.path.includes('quantity')
          ? 'expiryQuantity'
          : issue.path.includes('unit')
            ? 'expiryUnit'
            : String(issue.path[0] ?? 'defaultUsageType');
        errors[field] ??= issue.message;
      }
  }
  return errors;
}

export function validateAdvanced(values: AdvancedForm): Record<string, string> {
  const parsed = updateCustomHostIdSettingBody.safeParse(customHostIdBody(values));
  const errors: Record<string, string> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}
