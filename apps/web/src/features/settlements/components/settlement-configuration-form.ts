import {
  currencies,
  settlementDateTypes,
  settlementMessages,
  type SettlementConfiguration,
  type SettlementConfigurationBody,
  type SettlementDateType,
} from '@ledgerline/contract';

export type CreatableType = 'PercentageDiscount' | 'AbsoluteDiscount';
const creatableTypes: readonly string[] = ['PercentageDiscount', 'AbsoluteDiscount'];

/**
 * spec 3 §4: "An unsupported settlement type in the dialog, or an unknown transaction date type,
 * is an error." The dialog edits percentage and absolute discounts only; a ReplacementAmount or
 * None configuration (a connector may push them) gets this message instead of another type's form.
 * Null when the dialog can edit the configuration.
 */
export function unsupportedConfigurationMessage(
  configuration: Pick<SettlementConfiguration, 'type' | 'dateType'> | undefined,
): string | null {
  if (!configuration) return null;
  if (!creatableTypes.includes(configuration.type))
    return `This dialog edits percentage and absolute discounts only: a settlement configuration of type ${configuration.type} cannot be edited here.`;
  if (!(settlementDateTypes as readonly string[]).includes(configuration.dateType))
    return `The date type ${String(configuration.dateType)} of this settlement configuration is unknown: it cannot be edited here.`;
  return null;
}

export interface SettlementConfigurationFormValues {
  type: CreatableType;
  description: string;
  dateType: SettlementDateType;
  numberOfDays: number | string;
  percentageDiscount: number | string;
  amount: number | string;
  currency: string;
  amountType: 'TransactionAmount' | 'OutstandingAmount';
  minimumTransactionValue: number | string;
  maximumTransactionValue: number | string;
}

type Filters = SettlementConfiguration['filterGroup']['filterConfigurations'];

/** spec 3 §9: the shared ISO 4217 list, the most used first (priority), then by code. */
export const currencyOptions = [...currencies]
  .sort((a, b) => b.priority - a.priority || a.code.localeCompare(b.code))
  .map((currency) => ({ value: currency.code, label: `${currency.code} ${currency.name}` }));

/** NaN or an empty input becomes empty (spec 3 §5). */
function numberOrEmpty(value: number | null | undefined): number | string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : value;
}

/** spec 3 §4: add defaults 0 days, 0 percent or amount, DueDate, GBP; edit prefills. */
export function initialConfigurationValues(
  type: CreatableType,
  configuration?: SettlementConfiguration,
): SettlementConfigurationFormValues {
  const filters: Filters = configuration?.filterGroup.filterConfigurations ?? [];
  const amountFilter = filters.find((filter) => filter.filterType === 'TransactionAmount');
  const currencyFilter = filters.find((filter) => filter.filterType === 'Currencies');
  return {
    type: (configuration?.type as CreatableType | undefined) ?? type,
    description: configuration?.description ?? '',
    dateType: configuration?.dateType ?? 'DueDate',
    numberOfDays: configuration?.numberOfDays ?? 0,
    percentageDiscount: configuration?.percentageDiscount ?? 0,
    amount: configuration?.amount ?? 0,
    currency:
      configuration?.currency ?? currencyFilter?.currencies?.[0] ?? (configuration ? '' : 'GBP'),
    amountType:
      (amountFilter?.amountType as SettlementConfigurationFormValues['amountType']) ??
      'TransactionAmount',
    minimumTransactionValue: numberOrEmpty(amountFilter?.minimumTransactionValue),
    maximumTransactionValue: numberOrEmpty(amountFilter?.maximumTransactionValue),
  };
}

const isBlank = (value: number | string) => value === '' || Number.isNaN(Number(value));

/** spec 3 §5 messages, the ones the server answers too. */
export function validateConfiguration(values: SettlementConfigurationFormValues) {
  const errors: Partial<Record<keyof SettlementConfigurationFormValues, string>> = {};
  if (isBlank(values.numberOfDays) || Number(values.numberOfDays) < 0)
    errors.numberOfDays = settlementMessages.daysRequired;
  if (values.type === 'PercentageDiscount') {
    const p = Number(values.percentageDiscount);
    if (isBlank(values.percentageDiscount) || p < 0 || p > 100)
      errors.percentageDiscount = settlementMessages.percentageRequired;
  } else {
    if (isBlank(values.amount) || Number(values.amount) < 0)
      errors.amount = settlementMessages.amountRequired;
    // An absolute discount is money of one currency.
    if (values.currency.trim() === '') errors.currency = settlementMessages.currencyRequired;
  }
  if (values.description.trim().length > 255)
    errors.description = settlementMessages.configurationDescriptionTooLong;
  if (
    !isBlank(values.minimumTransactionValue) &&
    !isBlank(values.maximumTransactionValue) &&
    Number(values.maximumTransactionValue) <= Number(values.minimumTransactionValue)
  )
    errors.maximumTransactionValue = settlementMessages.minimumAboveMaximum;
  return errors;
}

/**
 * The body to save. spec 3 §4: the transaction-amount filter is updated or added, the currency
 * filter replaced with one currency (the selected one for a percentage, the discount currency for
 * an absolute discount; none = every currency); other filters stay.
 */
export function configurationBodyOf(
  values: SettlementConfigurationFormValues,
  existing?: SettlementConfiguration,
): SettlementConfigurationBody {
  const optional = (value: number | string) => (isBlank(value) ? null : Number(value));
  const kept = (existing?.filterGroup.filterConfigurations ?? []).filter(
    (filter) => filter.filterType !== 'TransactionAmount' && filter.filterType !== 'Currencies',
  );
  const currency = values.currency.trim().toUpperCase();
  const percentage = values.type === 'PercentageDiscount';
  return {
    type: values.type,
    description: values.description.trim() || null,
    dateType: values.dateType,
    numberOfDays: Number(values.numberOfDays),
    percentageDiscount: percentage ? Number(values.percentageDiscount) : null,
    amount: percentage ? null : Number(values.amount),
    currency: currency || null,
    filterGroup: {
      filterConfigurations: [
        ...(kept as never[]),
        {
          filterType: 'TransactionAmount',
          isEnabled: true,
          amountType: values.amountType,
          minimumTransactionValue: optional(values.minimumTransactionValue),
          maximumTransactionValue: optional(values.maximumTransactionValue),
        },
        { filterType: 'Currencies', isEnabled: true, currencies: currency ? [currency] : [] },
      ],
    },
  } as SettlementConfigurationBody;
}
