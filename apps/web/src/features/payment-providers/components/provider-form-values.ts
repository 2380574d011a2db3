import {
  paymentProviderType,
  primaryCardBrands,
  type CreatePaymentProviderBody,
  type PaymentMethodConfiguration,
  type PaymentProvider,
  type PaymentProviderName,
} from '@ledgerline/contract';

/** What the provider forms edit: the body of POST/PUT providers, as inputs hold it. */
export interface ProviderFormValues {
  name: string;
  description: string;
  enabled: boolean;
  displayPriority: number | string;
  isTest: boolean;
  settings: Record<string, unknown>;
  credentials: Record<string, unknown>;
  paymentMethodConfigurations: PaymentMethodConfiguration[];
}

export type ProviderTab = 'general' | 'options' | 'bank';

/** spec 3 §2 tabs per kind. */
export const providerTabs: Record<PaymentProviderName, readonly ProviderTab[]> = {
  TranSafe: ['general'],
  Opayo: ['general', 'options'],
  TrueLayer: ['general', 'bank'],
  Oppwa: ['general', 'options'],
  Stripe: ['general', 'options'],
  GoCardless: ['general'],
  Sandbox: ['general'],
};

export const tabLabels: Record<ProviderTab, string> = {
  general: 'General',
  options: 'Options',
  bank: 'Bank details',
};

/** spec 3 §2: a failed validation opens the tab that holds the first invalid field. */
export function tabOfField(providerName: PaymentProviderName, path: string): ProviderTab {
  // TrueLayer's merchant account sits on General, by the signing key it needs.
  if (providerName === 'TrueLayer' && path === 'settings.merchantAccountId') return 'general';
  const onSettings = path.startsWith('settings.');
  if (providerName === 'TrueLayer' && onSettings) return 'bank';
  if (providerName === 'Opayo' && /^settings\.(integrationType|vendorTxCodeType)/.test(path))
    return 'options';
  if ((providerName === 'Oppwa' || providerName === 'Stripe') && onSettings) return 'options';
  return 'general';
}

/** A new TrueLayer configuration's settings and credentials. */
function trueLayerDefaults() {
  return {
    settings: {
      beneficiaryName: '',
      // spec 3 §2: the references default to an account-reference and a company-name placeholder.
      beneficiaryReference: '{accountReference}',
      remitterReference: '{companyName}',
      beneficiaryBankAccount: {
        accountName: '',
        accountNumber: '',
        sortCode: '',
        iban: null,
        currency: 'GBP',
      },
      merchantAccountId: '',
    },
    credentials: {
      clientId: '',
      clientSecret: '',
      useSandbox: false,
      signingKeyId: '',
      signingPrivateKey: '',
    },
  };
}

/** spec 3 §2, §3, §9: a new configuration's defaults per kind. */
export function newProviderValues(
  providerName: PaymentProviderName,
  options: { opayoPi: boolean },
): ProviderFormValues {
  const type = paymentProviderType(providerName)!;
  const common = {
    name: '',
    description: '',
    enabled: true,
    displayPriority: 0,
    isTest: type.isTestProvider,
    paymentMethodConfigurations: type.paymentMethodTypesInfo.map((info) => ({
      paymentMethodType: info.paymentMethodType,
      enabled: true,
      filterGroup: null,
    })),
  };
  switch (providerName) {
    case 'TranSafe':
      return {
        ...common,
        settings: { useTestSite: false },
        credentials: { userName: '', password: '' },
      };
    case 'Opayo':
      return {
        ...common,
        settings: {
          useTestServer: false,
          integrationType: options.opayoPi ? 'Pi' : 'Server',
          vendorTxCodeType: 'PaymentRequest',
        },
        credentials: {
          vendorName: '',
          adminUser: '',
          adminPassword: '',
          integrationKey: '',
          integrationPassword: '',
        },
      };
    case 'TrueLayer':
      return { ...common, ...trueLayerDefaults() };
    case 'Oppwa':
      return {
        ...common,
        settings: {
          storePayerPaymentMethod: false,
          saveCardOptionDefault: false,
          brands: [...primaryCardBrands],
        },
        credentials: { entityId: '', accessToken: '', useSandbox: false, webhookSecret: '' },
      };
    case 'Stripe':
      return {
        ...common,
        settings: {
          useStripeCustomer: true,
          storePayerPaymentMethod: true,
          saveCardOptionDefault: true,
        },
        credentials: {},
      };
    default:
      return { ...common, settings: {}, credentials: {} };
  }
}

/** The stored configuration as form values (texts never null in an input). */
export function editProviderValues(provider: PaymentProvider): ProviderFormValues {
  const credentials: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(provider.credentials)) credentials[key] = value ?? '';
  return {
    name: provider.name,
    description: provider.description ?? '',
    enabled: provider.enabled,
    displayPriority: provider.displayPriority,
    isTest: provider.isTest,
    settings:
      provider.providerName === 'TrueLayer'
        ? // Saved before it existed, or saved empty: an empty input.
          { ...provider.settings, merchantAccountId: provider.settings.merchantAccountId ?? '' }
        : provider.settings,
    credentials,
    paymentMethodConfigurations: provider.paymentMethodConfigurations,
  };
}

export function bodyOf(
  providerName: PaymentProviderName,
  values: ProviderFormValues,
): CreatePaymentProviderBody {
  const priority = values.displayPriority;
  return {
    providerName,
    name: values.name,
    description: values.description,
    enabled: values.enabled,
    displayPriority: priority === '' ? (undefined as unknown as number) : Number(priority),
    isTest: values.isTest,
    settings: values.settings,
    credentials: values.credentials,
    paymentMethodConfigurations: values.paymentMethodConfigurations,
  };
}
