import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { currencies } from '../reference/currencies.js';
import { paymentMethodTypes, type PaymentMethodType } from './payment-transactions.js';

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
  // Issue 19: TrueLayer's request signing key (refunds are signed requests).
  signingPrivateKey: 'Signing private key must be an EC P-521 private key in PEM.',
  signingKeyIdRequired: 'Signing key ID is required with a signing private key.',
  signingPrivateKeyRequired: 'Signing private key is required with a signing key ID.',
  // TrueLayer v3 payments into a merchant account: created with a signed request.
  merchantAccountId: 'Merchant account ID must be the UUID of a TrueLayer merchant account.',
  merchantAccountNeedsSigningKey:
    'Merchant account ID needs the signing key ID and signing private key: TrueLayer payments into a merchant account are signed requests.',
} as const;

const required = (label: string) => `${label} is required.`;
const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters.`;

/** A credential or setting text: trimmed, required, 1 to max. */
function text(label: string, max: number = paymentProviderLimits.credential.max) {
  return z
    .string({ message: required(label) })
    .trim()
    .min(1, required(label))
    .max(max, tooLong(label, max));
}
function optionalText(label: string, max: number = paymentProviderLimits.credential.max) {
  return z
    .string({ message: `${label} must be text.` })
    .trim()
    .max(max, tooLong(label, max))
    .nullish()
    .transform((value) => (value ? value : null));
}
const flag = (label: string, fallback: boolean) =>
  z.boolean({ message: `${label} must be true or false.` }).default(fallback);

/** spec 3 §2 card processor brands: primary ones on by default, the others must first be enabled on the merchant account. */
export const primaryCardBrands = ['VISA', 'VISADEBIT', 'MASTER', 'MASTERDEBIT'] as const;
export const otherCardBrands = [
  'AMEX',
  'VISAELECTRON',
  'MAESTRO',
  'DINERS',
  'DISCOVER',
  'JCB',
  'UNIONPAY',
] as const;
export const cardBrands = [...primaryCardBrands, ...otherCardBrands] as const;
export type CardBrand = (typeof cardBrands)[number];
export const cardBrandLabels: Record<CardBrand, string> = {
  VISA: 'Visa',
  VISADEBIT: 'Visa Debit',
  MASTER: 'Mastercard',
  MASTERDEBIT: 'Mastercard Debit',
  AMEX: 'American Express',
  VISAELECTRON: 'Visa Electron',
  MAESTRO: 'Maestro',
  DINERS: 'Diners Club',
  DISCOVER: 'Discover',
  JCB: 'JCB',
  UNIONPAY: 'UnionPay',
};

export const opayoIntegrationTypes = ['Server', 'Pi'] as const;
export const opayoVendorTxCodeTypes = ['Guid', 'PaymentRequest'] as const;

/**
 * Per kind: its settings and credentials (spec 3 §3 table) with their rules (spec 3 §5), and
 * which credentials are secret (stored encrypted, read back as the sentinel). Credentials the
 * server keeps from a connection flow (`serverManaged`) are never taken from a form.
 */
export interface ProviderKindSchema {
  settings: z.ZodType;
  credentials: z.ZodType;
  secrets: readonly string[];
  serverManaged: readonly string[];
}

const tranSafe: ProviderKindSchema = {
  settings: z.object({ useTestSite: flag('Use test site', false) }),
  credentials: z.object({
    userName: optionalText('User name'),
    password: optionalText('Password'),
  }),
  secrets: ['password'],
  serverManaged: [],
};

const opayo: ProviderKindSchema = {
  settings: z.object({
    useTestServer: flag('Use test server', false),
    integrationType: z.enum(opayoIntegrationTypes, { message: 'Integration type is required.' }),
    vendorTxCodeType: z
      .enum(opayoVendorTxCodeTypes, { message: 'Vendor code generation is required.' })
      .default('PaymentRequest'),
  }),
  credentials: z.object({
    vendorName: text('Vendor name'),
    adminUser: text('Admin user'),
    adminPassword: text('Admin password'),
    integrationKey: optionalText('Integration key'),
    integrationPassword: optionalText('Integration password'),
  }),
  secrets: ['adminPassword', 'integrationPassword'],
  serverManaged: [],
};

const digits = (count: number, message: string) =>
  z
    .string({ message })
    .trim()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .refine((value) => new RegExp(`^\\d{${count}}$`).test(value), message);

/**
 * A PEM block as pasted: a single-line input drops its line breaks, so the base64 body is taken
 * whatever its spacing and wrapped again at 64 characters. Null when it is not one PEM block.
 */
export function normalisedPem(value: string): string | null {
  const block = /^-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----$/.exec(value.trim());
  if (!block) return null;
  const body = block[2]!.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  const lines = body.match(/.{1,64}/g)!;
  return `-----BEGIN ${block[1]}-----\n${lines.join('\n')}\n-----END ${block[1]}-----\n`;
}

/**
 * TrueLayer's request signing private key (issue 19): PEM of an EC key, PKCS#8 (`PRIVATE KEY`)
 * or SEC1 (`EC PRIVATE KEY`); blank is none, the sentinel keeps the stored one. The curve (P-521)
 * is checked by the server, which can read the key.
 */
const signingPrivateKey = z
  .string({ message: paymentProviderMessages.signingPrivateKey })
  .max(paymentProviderLimits.privateKeyPem.max, paymentProviderMessages.signingPrivateKey)
  .nullish()
  .transform((value, ctx) => {
    const given = value?.trim();
    if (!given) return null;
    if (given === secretSentinel) return given;
    const pem = normalisedPem(given);
    if (!pem || !/^-----BEGIN (EC )?PRIVATE KEY-----/.test(pem)) {
      ctx.addIssue({ code: 'custom', message: paymentProviderMessages.signingPrivateKey });
      return z.NEVER;
    }
    return pem;
  });

const trueLayer: ProviderKindSchema = {
  settings: z.object({
    beneficiaryName: text('Payees Name', paymentProviderLimits.beneficiaryName.max),
    beneficiaryReference: text('Payees Reference', paymentProviderLimits.reference.max),
    remitterReference: text('Payees Reference', paymentProviderLimits.reference.max),
    beneficiaryBankAccount: z.object(
      {
        accountName: optionalText('Account name', paymentProviderLimits.accountName.max),
        accountNumber: digits(
          paymentProviderLimits.accountNumberDigits,
          paymentProviderMessages.accountNumber,
        ),
        sortCode: digits(paymentProviderLimits.sortCodeDigits, paymentProviderMessages.sortCode),
        iban: z.null().default(null),
        currency: z
          .literal('GBP', { message: paymentProviderMessages.bankCurrency })
          .default('GBP'),
      },
      { message: 'Bank details are required.' },
    ),
    // With the signing key: payments are v3 payments into this TrueLayer merchant account, which
    // TrueLayer can refund; without it, v1 single immediate payments to the bank details above.
    merchantAccountId: z
      .string({ message: paymentProviderMessages.merchantAccountId })
      .trim()
      .nullish()
      .transform((value) => (value ? value.toLowerCase() : null))
      .refine(
        (value) => value === null || z.uuid().safeParse(value).success,
        paymentProviderMessages.merchantAccountId,
      ),
  }),
  credentials: z.object({
    clientId: text('Client ID'),
    clientSecret: text('Client Secret'),
    useSandbox: flag('Use sandbox', false),
    // Issue 19: the key TrueLayer refunds are signed with (its id in TrueLayer's console).
    signingKeyId: optionalText('Signing key ID'),
    signingPrivateKey,
  }),
  secrets: ['clientSecret', 'signingPrivateKey'],
  serverManaged: [],
};

const oppwa: ProviderKindSchema = {
  settings: z
    .object({
      storePayerPaymentMethod: flag('Store card details', false),
      saveCardOptionDefault: flag('Save card option default', false),
      brands: z
        .array(z.enum(cardBrands, { message: paymentProviderMessages.brandUnknown }))
        .max(cardBrands.length)
        .default([...primaryCardBrands]),
    })
    // spec 3 §2: the save-card default only applies while cards are stored.
    .transform((s) => ({
      ...s,
      saveCardOptionDefault: s.storePayerPaymentMethod && s.saveCardOptionDefault,
      brands: [...new Set(s.brands)],
    })),
  credentials: z.object({
    entityId: text('Entity ID'),
    accessToken: text('Access token'),
    useSandbox: flag('Use sandbox', false),
    // The webhook listener's decryption secret (64 hex characters): optional; without it OPPWA's
    // notifications (refunds, chargebacks) are refused (docs/decisions/094-oppwa-notifications-refunds-and-chargebacks.md).
    webhookSecret: optionalText('Webhook secret'),
  }),
  secrets: ['accessToken', 'webhookSecret'],
  serverManaged: [],
};

const stripe: ProviderKindSchema = {
  settings: z
    .object({
      useStripeCustomer: flag('Use Stripe customer', true),
      storePayerPaymentMethod: flag('Store card details', true),
      saveCardOptionDefault: flag('Save card option default', true),
    })
    // spec 3 §2: store-card is forced off without use-customer, save-card without store-card.
    .transform((s) => {
      const storePayerPaymentMethod = s.useStripeCustomer && s.storePayerPaymentMethod;
      return {
        ...s,
        storePayerPaymentMethod,
        saveCardOptionDefault: storePayerPaymentMethod && s.saveCardOptionDefault,
      };
    }),
  credentials: z.object({
    stripeAccountId: optionalText('Stripe account id'),
    connectClientId: optionalText('Connect client id'),
  }),
  secrets: [],
  serverManaged: ['stripeAccountId', 'connectClientId'],
};

const goCardless: ProviderKindSchema = {
  settings: z.object({}),
  credentials: z.object({ organisationId: optionalText('Organisation id') }),
  secrets: [],
  serverManaged: ['organisationId'],
};

const sandbox: ProviderKindSchema = {
  settings: z.object({}),
  credentials: z.object({}),
  secrets: [],
  serverManaged: [],
};

/**
 * spec 3 §2 card options (issue 21 item 31): whether the payer page offers to save the card with
 * a configuration, and whether the box starts ticked. Stripe stores cards only on a Stripe
 * customer (use-customer); OPPWA stores them as registrations. Null: no box, no card stored.
 */
export function saveCardOfferOf(
  providerName: string,
  settings: Record<string, unknown> | null | undefined,
): { checkedByDefault: boolean } | null {
  const s = settings ?? {};
  const stores =
    (providerName === 'Oppwa' && s.storePayerPaymentMethod === true) ||
    (providerName === 'Stripe' &&
      s.useStripeCustomer === true &&
      s.storePayerPaymentMethod === true);
  return stores ? { checkedByDefault: s.saveCardOptionDefault === true } : null;
}

export const providerKindSchemas: Record<PaymentProviderName, ProviderKindSchema> = {
  TranSafe: tranSafe,
  Opayo: opayo,
  TrueLayer: trueLayer,
  Oppwa: oppwa,
  Stripe: stripe,
  GoCardless: goCardless,
  Sandbox: sandbox,
};

/** spec 3 §3 Filter group of a method configuration: payment amount and currencies. */
const amount = (message: string) =>
  z
    .number({ message })
    .min(paymentProviderLimits.paymentAmount.min, message)
    .max(paymentProviderLimits.paymentAmount.max, message)
    .nullish()
    .transform((value) => value ?? null);

const isoCodes: ReadonlySet<string> = new Set(currencies.map((currency) => currency.code));

export const paymentAmountFilterSchema = z
  .object({
    filterType: z.literal('PaymentAmount'),
    isEnabled: z.boolean().default(true),
    minimumPaymentValue: amount(paymentProviderMessages.minimumPaymentAmount),
    maximumPaymentValue: amount(paymentProviderMessages.maximumPaymentAmount),
  })
  .superRefine((filter, ctx) => {
    const { minimumPaymentValue: min, maximumPaymentValue: max } = filter;
    if (min !== null && max !== null && !(max > min)) {
      ctx.addIssue({
        code: 'custom',
        path: ['maximumPaymentValue'],
        message: paymentProviderMessages.maximumNotAboveMinimum,
      });
    }
  });

export const currenciesFilterSchema = z.object({
  filterType: z.literal('Currencies'),
  isEnabled: z.boolean().default(true),
  currencies: z
    .array(
      z
        .string({ message: paymentProviderMessages.currencyCode })
        .refine((code) => isoCodes.has(code), paymentProviderMessages.currencyCode),
    )
    .max(200)
    .transform((codes) => [...new Set(codes)]),
});

export const filterGroupSchema = z.object({
  filterConfigurations: z
    .array(z.discriminatedUnion('filterType', [paymentAmountFilterSchema, currenciesFilterSchema]))
    .max(2),
});
export type FilterGroup = z.output<typeof filterGroupSchema>;

export const paymentMethodConfigurationSchema = z.object({
  paymentMethodType: z.enum(paymentMethodTypes),
  enabled: z.boolean().default(true),
  filterGroup: filterGroupSchema.nullish().transform((group) => group ?? null),
});
export type PaymentMethodConfiguration = z.output<typeof paymentMethodConfigurationSchema>;

/** How many filters of a configuration are in force: the list's filter count (spec 3 §2). */
export function filterCountOf(configurations: readonly PaymentMethodConfiguration[]): number {
  let count = 0;
  for (const configuration of configurations) {
    for (const filter of configuration.filterGroup?.filterConfigurations ?? []) {
      if (!filter.isEnabled) continue;
      if (
        filter.filterType === 'Currencies'
          ? filter.currencies.length > 0
          : filter.minimumPaymentValue !== null || filter.maximumPaymentValue !== null
      )
        count += 1;
    }
  }
  return count;
}

/** spec 3 §5 provider common: name, description, priority, enabled. */
export const paymentProviderCommonFields = {
  name: z
    .string({ message: paymentProviderMessages.nameRequired })
    .trim()
    .min(paymentProviderLimits.name.min, paymentProviderMessages.nameRequired)
    .max(paymentProviderLimits.name.max, paymentProviderMessages.nameTooLong),
  description: z
    .string({ message: paymentProviderMessages.descriptionTooLong })
    .trim()
    .max(paymentProviderLimits.description.max, paymentProviderMessages.descriptionTooLong)
    .nullish()
    .transform((value) => (value ? value : null)),
  enabled: z.boolean({ message: paymentProviderMessages.enabledRequired }),
  displayPriority: z
    .number({ message: paymentProviderMessages.priorityRequired })
    .int(paymentProviderMessages.priorityRange)
    .min(paymentProviderLimits.displayPriority.min, paymentProviderMessages.priorityRange)
    .max(paymentProviderLimits.displayPriority.max, paymentProviderMessages.priorityRange),
};

const bodyFields = {
  providerName: z.enum(paymentProviderNames, {
    message: paymentProviderMessages.providerNameUnknown,
  }),
  ...paymentProviderCommonFields,
  isTest: z.boolean().default(false),
  settings: z.record(z.string(), z.unknown()).default({}),
  credentials: z.record(z.string(), z.unknown()).default({}),
  paymentMethodConfigurations: z
    .array(paymentMethodConfigurationSchema)
    .max(paymentMethodTypes.length)
    .default([]),
};

/**
 * Checks settings and credentials with the kind's schema (issues land on `settings.x` and
 * `credentials.x`) and the method configurations against the kind's types; the output carries
 * the parsed values.
 */
function checkKind<
  T extends {
    providerName: PaymentProviderName;
    settings: Record<string, unknown>;
    credentials: Record<string, unknown>;
    paymentMethodConfigurations: PaymentMethodConfiguration[];
  },
>(body: T, ctx: z.RefinementCtx): T {
  const kind = providerKindSchemas[body.providerName];
  const settings = kind.settings.safeParse(body.settings);
  const credentials = kind.credentials.safeParse(body.credentials);
  for (const [part, result] of [
    ['settings', settings],
    ['credentials', credentials],
  ] as const) {
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({
          code: 'custom',
          path: [part, ...issue.path.map(String)],
          message: issue.message,
        });
    }
  }
  if (settings.success && credentials.success) {
    const s = settings.data as Record<string, unknown>;
    const c = credentials.data as Record<string, unknown>;
    // spec 3 §5 card gateway: user name and password only outside test mode.
    if (body.providerName === 'TranSafe' && !s.useTestSite) {
      if (!c.userName)
        ctx.addIssue({
          code: 'custom',
          path: ['credentials', 'userName'],
          message: required('User name'),
        });
      if (!c.password)
        ctx.addIssue({
          code: 'custom',
          path: ['credentials', 'password'],
          message: required('Password'),
        });
    }
    // Issue 19: a signing key is its id and its private key together, or neither.
    if (
      body.providerName === 'TrueLayer' &&
      Boolean(c.signingKeyId) !== Boolean(c.signingPrivateKey)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['credentials', c.signingKeyId ? 'signingPrivateKey' : 'signingKeyId'],
        message: c.signingKeyId
          ? paymentProviderMessages.signingPrivateKeyRequired
          : paymentProviderMessages.signingKeyIdRequired,
      });
    // A v3 payment is created with a signed request: a merchant account needs the whole key.
    if (
      body.providerName === 'TrueLayer' &&
      s.merchantAccountId &&
      !(c.signingKeyId && c.signingPrivateKey)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['settings', 'merchantAccountId'],
        message: paymentProviderMessages.merchantAccountNeedsSigningKey,
      });
    // spec 3 §5 UK card provider: integration key and password only for Pi.
    if (body.providerName === 'Opayo' && s.integrationType === 'Pi') {
      if (!c.integrationKey)
        ctx.addIssue({
          code: 'custom',
          path: ['credentials', 'integrationKey'],
          message: required('Integration key'),
        });
      if (!c.integrationPassword)
        ctx.addIssue({
          code: 'custom',
          path: ['credentials', 'integrationPassword'],
          message: required('Integration password'),
        });
    }
  }
  const type = paymentProviderType(body.providerName)!;
  const supported = new Set(type.paymentMethodTypesInfo.map((info) => info.paymentMethodType));
  const seen = new Set<string>();
  body.paymentMethodConfigurations.forEach((configuration, index) => {
    if (!supported.has(configuration.paymentMethodType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentMethodConfigurations', index, 'paymentMethodType'],
        message: paymentProviderMessages.methodTypeUnsupported,
      });
    }
    if (seen.has(configuration.paymentMethodType)) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentMethodConfigurations', index, 'paymentMethodType'],
        message: paymentProviderMessages.methodTypeTwice,
      });
    }
    seen.add(configuration.paymentMethodType);
  });
  if (!settings.success || !credentials.success) return body;
  return {
    ...body,
    settings: settings.data as Record<string, unknown>,
    credentials: credentials.data as Record<string, unknown>,
  };
}

const example = {
  providerName: 'Opayo',
  name: 'Opayo cards',
  description: 'Card payments on the payment page',
  enabled: true,
  displayPriority: 10,
  isTest: true,
  settings: { useTestServer: true, integrationType: 'Server', vendorTxCodeType: 'PaymentRequest' },
  credentials: { vendorName: 'ledgerline', adminUser: 'admin', adminPassword: 'secret-password' },
  paymentMethodConfigurations: [{ paymentMethodType: 'Card', enabled: true, filterGroup: null }],
};

/** POST providers (spec 3 §7: name, isTest, settings, credentials, paymentMethodConfigurations). */
export const createPaymentProviderBody = z
  .object(bodyFields)
  .transform(checkKind)
  .meta({ id: 'CreatePaymentProvider', examples: [example] });
export type CreatePaymentProviderBody = z.input<typeof createPaymentProviderBody>;
export type CreatePaymentProviderInput = z.output<typeof createPaymentProviderBody>;

/** PUT providers: the same plus the id; a secret sent as the sentinel keeps the stored one. */
export const updatePaymentProviderBody = z
  .object({
    id: z.uuid({ message: 'Id must be the id of a payment provider configuration.' }),
    ...bodyFields,
  })
  .transform(checkKind)
  .meta({ id: 'UpdatePaymentProvider' });
export type UpdatePaymentProviderBody = z.input<typeof updatePaymentProviderBody>;
export type UpdatePaymentProviderInput = z.output<typeof updatePaymentProviderBody>;

const filterConfigurationOut = z.union([
  z.object({
    filterType: z.literal('PaymentAmount'),
    isEnabled: z.boolean(),
    minimumPaymentValue: z.number().nullable(),
    maximumPaymentValue: z.number().nullable(),
  }),
  z.object({
    filterType: z.literal('Currencies'),
    isEnabled: z.boolean(),
    currencies: z.array(z.string()),
  }),
]);
const methodConfigurationOut = z.object({
  paymentMethodType: z.enum(paymentMethodTypes),
  enabled: z.boolean(),
  filterGroup: z.object({ filterConfigurations: z.array(filterConfigurationOut) }).nullable(),
});

const summaryFields = {
  id: z.uuid(),
  providerName: z.enum(paymentProviderNames),
  name: z.string(),
  description: z.string().nullable(),
  enabled: z.boolean(),
  displayPriority: z.number().int(),
  isTest: z.boolean(),
  isDefault: z.boolean(),
  filterCount: z.number().int(),
  settings: z.record(z.string(), z.unknown()),
  paymentMethodConfigurations: z.array(methodConfigurationOut),
  createdOn: z.iso.datetime(),
  updatedOn: z.iso.datetime(),
};

/** A row of the providers list; no credentials (anyone in the company reads the list). */
export const paymentProviderSummarySchema = z
  .object(summaryFields)
  .meta({ id: 'PaymentProviderSummary' });
export type PaymentProviderSummary = z.infer<typeof paymentProviderSummarySchema>;

/** One configuration with its credentials; each stored secret reads as the sentinel. */
export const paymentProviderSchema = z
  .object({ ...summaryFields, credentials: z.record(z.string(), z.unknown()) })
  .meta({ id: 'PaymentProvider' });
export type PaymentProvider = z.infer<typeof paymentProviderSchema>;

export const paymentProviderTypeSchema = z
  .object({
    providerName: z.enum(paymentProviderNames),
    displayName: z.string(),
    description: z.string(),
    supportedPaymentMethodGroups: z.array(z.enum(paymentMethodGroups)),
    paymentMethodTypesInfo: z.array(
      z.object({
        paymentMethodType: z.enum(paymentMethodTypes),
        supportedCurrencies: z.array(z.string()),
      }),
    ),
    isBeta: z.boolean(),
    featureFlag: z.string(),
    isTestProvider: z.boolean(),
    addedByAuthorisation: z.boolean(),
  })
  .meta({ id: 'PaymentProviderType' });

/** The company's default provider (spec 3 §4 "Default provider"). */
export const defaultPaymentProviderSchema = z
  .object({ paymentProviderId: z.uuid().nullable() })
  .meta({ id: 'DefaultPaymentProvider' });
export type DefaultPaymentProvider = z.infer<typeof defaultPaymentProviderSchema>;
export const setDefaultPaymentProviderBody = z.object({
  paymentProviderId: z.uuid({
    message: 'Payment provider id must be the id of a payment provider configuration.',
  }),
});
export const isDefaultPaymentProviderSchema = z.object({ isDefault: z.boolean() });

/** spec 3 §2 list: name ascending by default; the add form's unique-name lookup filters `name eq`. */
export const paymentProviderQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    name: { type: 'string', sortable: true, filterable: true },
    providerName: { type: 'enum', values: paymentProviderNames, sortable: true, filterable: true },
    description: { type: 'string', sortable: true, filterable: true },
    displayPriority: { type: 'number', sortable: true, filterable: true },
    enabled: { type: 'boolean', sortable: true, filterable: true },
    isTest: { type: 'boolean', sortable: true, filterable: true },
    createdOn: { type: 'date', sortable: true, filterable: true },
  },
  { defaultSort: 'name', search: { text: ['name', 'description'] } },
);

/**
 * Issue 12: what a provider said about a configuration (OAuth exchanges, account and creditor
 * reads, deauthorisation, connection tests, IP registration). The payload is the request as sent
 * and the answer as received, every secret masked; the dialog shows it on demand.
 */
export const paymentProviderEventSchema = z
  .object({
    id: z.uuid(),
    paymentProviderId: z.uuid(),
    providerName: z.string(),
    eventType: z.string(),
    recordType: z.string().nullable(),
    recordId: z.string().nullable(),
    status: z.string().nullable(),
    payload: z.string(),
    createdOn: z.iso.datetime(),
  })
  .meta({ id: 'PaymentProviderEvent' });
export type PaymentProviderEvent = z.infer<typeof paymentProviderEventSchema>;

/** `GET providers/{id}/events`: newest first. */
export const paymentProviderEventQuery = defineQueryFields(
  {
    createdOn: { type: 'date', sortable: true, filterable: true },
    eventType: { type: 'string', sortable: true, filterable: true },
    status: { type: 'string', sortable: true, filterable: true },
  },
  { defaultSort: '-createdOn' },
);
