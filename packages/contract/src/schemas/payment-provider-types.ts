import type { PaymentMethodType } from './payment-transaction-statuses.js';

/**
 * spec 3 §2, §3, §5, §9 payment provider configurations. The provider name is the kind's key
 * (`providers/types`, the site's `/settings/payment-providers/new/{type}`); the six real kinds of
 * reference/providers.md and Ledgerline's own Sandbox test provider (docs/decisions/045-payment-provider-configurations.md,
 * "Payment provider configurations").
 */
export const paymentProviderNames = [
  'TranSafe',
  'Opayo',
  'TrueLayer',
  'Oppwa',
  'Stripe',
  'GoCardless',
  'Sandbox',
] as const;
export type PaymentProviderName = (typeof paymentProviderNames)[number];

/** spec 3 §3 method groups, and their labels. */
export const paymentMethodGroups = [
  'Card',
  'BankTransfer',
  'BankDebit',
  'BankRedirects',
  'Wallets',
  'BuyNowPayLater',
] as const;
export type PaymentMethodGroup = (typeof paymentMethodGroups)[number];
export const paymentMethodGroupLabels: Record<PaymentMethodGroup, string> = {
  Card: 'Card',
  BankTransfer: 'Bank Transfer',
  BankDebit: 'Bank Debit',
  BankRedirects: 'Bank Redirects',
  Wallets: 'Wallets',
  BuyNowPayLater: 'Buy Now, Pay Later',
};

/** spec 3 §3 Provider type info, with what the add dialog needs (spec 3 §2, §6). */
export interface PaymentProviderTypeInfo {
  providerName: PaymentProviderName;
  displayName: string;
  description: string;
  supportedPaymentMethodGroups: PaymentMethodGroup[];
  paymentMethodTypesInfo: { paymentMethodType: PaymentMethodType; supportedCurrencies: string[] }[];
  /** Hidden in the add dialog unless the tenant setting ShowBetaPaymentProviders is 'true'. */
  isBeta: boolean;
  /** spec 3 §6 per-provider flag (provider name prefixed); off hides the card. */
  featureFlag: string;
  /** Ledgerline's own provider: never moves money (demo companies and tests). */
  isTestProvider: boolean;
  /** Added through the provider's authorisation, not by posting a form (spec 3 §4). */
  addedByAuthorisation: boolean;
}

const majorCurrencies = ['GBP', 'EUR', 'USD'];
const cardCurrencies = ['GBP', 'EUR', 'USD', 'AUD', 'CAD', 'CHF', 'NZD', 'NOK', 'SEK', 'DKK'];

export const paymentProviderTypes: readonly PaymentProviderTypeInfo[] = [
  {
    providerName: 'TranSafe',
    displayName: 'TranSafe',
    description: 'Card gateway (Monetra): card payments through the TranSafe payment frame.',
    supportedPaymentMethodGroups: ['Card'],
    paymentMethodTypesInfo: [{ paymentMethodType: 'Card', supportedCurrencies: ['USD', 'CAD'] }],
    isBeta: false,
    featureFlag: 'TranSafeProvider',
    isTestProvider: false,
    addedByAuthorisation: false,
  },
  {
    providerName: 'Opayo',
    displayName: 'Opayo',
    description:
      'UK card provider (Elavon): a hosted card page (Server) or an integrated form (Pi).',
    supportedPaymentMethodGroups: ['Card'],
    paymentMethodTypesInfo: [{ paymentMethodType: 'Card', supportedCurrencies: majorCurrencies }],
    isBeta: false,
    featureFlag: 'OpayoProvider',
    isTestProvider: false,
    addedByAuthorisation: false,
  },
  {
    providerName: 'TrueLayer',
    displayName: 'TrueLayer',
    description: 'Open-banking bank transfer: the payer approves the payment in their own bank.',
    supportedPaymentMethodGroups: ['BankTransfer'],
    paymentMethodTypesInfo: [{ paymentMethodType: 'BankTransfer', supportedCurrencies: ['GBP'] }],
    isBeta: true,
    featureFlag: 'TrueLayerProvider',
    isTestProvider: false,
    addedByAuthorisation: false,
  },
  {
    providerName: 'Oppwa',
    displayName: 'Total Processing',
    description:
      'Card processor (ACI Open Payment Platform): card payments through its payment widget.',
    supportedPaymentMethodGroups: ['Card', 'Wallets'],
    paymentMethodTypesInfo: [{ paymentMethodType: 'Card', supportedCurrencies: cardCurrencies }],
    isBeta: false,
    featureFlag: 'OppwaProvider',
    isTestProvider: false,
    addedByAuthorisation: false,
  },
  {
    providerName: 'Stripe',
    displayName: 'Stripe',
    description: 'Card payments on your own Stripe account, connected through Stripe Connect.',
    supportedPaymentMethodGroups: ['Card', 'Wallets'],
    paymentMethodTypesInfo: [{ paymentMethodType: 'Card', supportedCurrencies: cardCurrencies }],
    isBeta: false,
    featureFlag: 'StripeProvider',
    isTestProvider: false,
    addedByAuthorisation: false,
  },
  {
    providerName: 'GoCardless',
    displayName: 'GoCardless',
    description: 'Direct debit and instant bank pay, connected through GoCardless.',
    supportedPaymentMethodGroups: ['BankDebit', 'BankTransfer'],
    paymentMethodTypesInfo: [
      { paymentMethodType: 'BankDebit', supportedCurrencies: ['GBP', 'EUR'] },
      { paymentMethodType: 'BankTransfer', supportedCurrencies: ['GBP'] },
    ],
    isBeta: false,
    featureFlag: 'GoCardlessProvider',
    isTestProvider: false,
    addedByAuthorisation: true,
  },
  {
    providerName: 'Sandbox',
    displayName: 'Sandbox (test provider)',
    description:
      "Ledgerline's own test provider: payments are simulated and no money moves. Captures of amounts ending in .99 are declined.",
    supportedPaymentMethodGroups: ['Card'],
    paymentMethodTypesInfo: [{ paymentMethodType: 'Card', supportedCurrencies: majorCurrencies }],
    isBeta: false,
    featureFlag: 'SandboxProvider',
    isTestProvider: true,
    addedByAuthorisation: false,
  },
];

export function paymentProviderType(name: string): PaymentProviderTypeInfo | undefined {
  return paymentProviderTypes.find((type) => type.providerName === name);
}

/**
 * spec 3 §9: a stored secret reads back as this sentinel, and the sentinel sent back means
 * "unchanged" (docs/decisions/046-provider-credentials-at-rest.md, "Provider credentials at rest").
 */
export const secretSentinel = '__stored_secret__';

/** spec 3 §9: TranSafe's public test-site credentials, set by the test switch. */
export const tranSafeTestCredentials = {
  userName: 'test_retail|public',
  password: 'publ1ct3st',
} as const;

/** spec 3 §5, §9 limits. */
export const paymentProviderLimits = {
  name: { min: 1, max: 100 },
  description: { max: 1000 },
  displayPriority: { min: 0, max: 100 },
  credential: { min: 1, max: 100 },
  accountNumberDigits: 8,
  sortCodeDigits: 6,
  accountName: { min: 1, max: 30 },
  beneficiaryName: { min: 1, max: 30 },
  reference: { min: 1, max: 60 },
  iban: { max: 34 },
  paymentAmount: { min: 0, max: 999_999_999_999 },
  /** A P-521 private key in PEM is about 380 characters; room for a PKCS#8 one with a public part. */
  privateKeyPem: { max: 4000 },
} as const;

export const paymentProviderMessages = {
  nameRequired: 'Name is required.',
  nameTooLong: `Name must be at most ${paymentProviderLimits.name.max} characters.`,
  nameExists: 'A payment provider with this name already exists.',
  descriptionTooLong: `Description must be at most ${paymentProviderLimits.description.max} characters.`,
  // spec 3 §5 (exact)
  priorityRequired: 'Priority is required',
  priorityRange: 'Priority must be between 0 and 100.',
  enabledRequired: 'Enabled is required and must be true or false.',
  providerNameUnknown: `Provider name must be one of ${paymentProviderNames.join(', ')}.`,
  providerNameChanged: 'The provider of a configuration cannot be changed.',
  addedByAuthorisation: 'GoCardless configurations are added through the GoCardless authorisation.',
  minimumPaymentAmount: 'Minimum payment amount must be 0 or more.',
  maximumPaymentAmount: 'Maximum payment amount must be 0 or more.',
  maximumNotAboveMinimum: 'Maximum payment amount must be greater than the minimum payment amount.',
  currencyCode: 'Currencies must be ISO 4217 codes, e.g. GBP.',
  methodTypeUnsupported: 'This provider does not support that payment method type.',
  methodTypeTwice: 'Each payment method type can be configured once.',
  accountNumber: 'Account number must be 8 digits.',
  sortCode: 'Sort code must be 6 digits.',
  bankCurrency: 'The bank account currency must be GBP.',
  brandUnknown: 'Unknown card brand.',
  noDefault: 'No default payment provider is set.',
  // spec 3 §2 list banners and load failure (exact), and the form's unknown type.
  noProvidersConfigured: 'No Payment Providers Configured',
  noDefaultSelected: 'No Default Payment Provider Selected',
  loadFailed: 'An error occurred loading the data',
  unknownProvider: 'unknown provider',
  // spec 1 §8: toasts of provider add, update, delete and default update; wording not shown.
  added: 'Payment provider successfully added',
  updated: 'Payment provider successfully updated',
  deleted: 'Payment provider successfully deleted',
  defaultUpdated: 'Default payment provider successfully updated',
  addFailed: 'An error occurred while adding the payment provider: ',
  updateFailed: 'An error occurred while updating the payment provider: ',
  deleteFailed: 'An error occurred while deleting the payment provider: ',
  defaultUpdateFailed: 'An error occurred while updating the default payment provider: ',
  notFound: 'Payment provider configuration could not be found.',
  // TrueLayer's request signing key (refunds are signed requests).
  signingPrivateKey: 'Signing private key must be an EC P-521 private key in PEM.',
  signingKeyIdRequired: 'Signing key ID is required with a signing private key.',
  signingPrivateKeyRequired: 'Signing private key is required with a signing key ID.',
  // TrueLayer v3 payments into a merchant account: created with a signed request.
  merchantAccountId: 'Merchant account ID must be the UUID of a TrueLayer merchant account.',
  merchantAccountNeedsSigningKey:
    'Merchant account ID needs the signing key ID and signing private key: TrueLayer payments into a merchant account are signed requests.',
} as const;
