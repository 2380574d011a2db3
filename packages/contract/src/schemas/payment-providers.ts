import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { currencies } from '../reference/currencies.js';
import { paymentMethodTypes } from './payment-transaction-statuses.js';
import { providerKindSchemas } from './payment-provider-kinds.js';
import {
  paymentMethodGroups,
  paymentProviderLimits,
  paymentProviderMessages,
  paymentProviderNames,
  paymentProviderType,
  type PaymentProviderName,
} from './payment-provider-types.js';

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

const required = (label: string) => `${label} is required.`;

type Values = Record<string, unknown>;

/** Adds an issue for each credential of `labels` that is missing: path `credentials.<key>`. */
function requireCredentials(c: Values, labels: Record<string, string>, ctx: z.RefinementCtx) {
  for (const [key, label] of Object.entries(labels)) {
    if (!c[key])
      ctx.addIssue({ code: 'custom', path: ['credentials', key], message: required(label) });
  }
}

/** spec 3 §5 rules between a kind's settings and its credentials (both already parsed). */
function checkSettingsAgainstCredentials(
  providerName: PaymentProviderName,
  s: Values,
  c: Values,
  ctx: z.RefinementCtx,
): void {
  // spec 3 §5 card gateway: user name and password only outside test mode.
  if (providerName === 'TranSafe' && !s.useTestSite)
    requireCredentials(c, { userName: 'User name', password: 'Password' }, ctx);
  // TrueLayer's request signing key (refunds are signed requests): its id and its private key
  // together, or neither.
  if (providerName === 'TrueLayer' && Boolean(c.signingKeyId) !== Boolean(c.signingPrivateKey))
    ctx.addIssue({
      code: 'custom',
      path: ['credentials', c.signingKeyId ? 'signingPrivateKey' : 'signingKeyId'],
      message: c.signingKeyId
        ? paymentProviderMessages.signingPrivateKeyRequired
        : paymentProviderMessages.signingKeyIdRequired,
    });
  // A v3 payment is created with a signed request: a merchant account needs the whole key.
  if (
    providerName === 'TrueLayer' &&
    s.merchantAccountId &&
    !(c.signingKeyId && c.signingPrivateKey)
  )
    ctx.addIssue({
      code: 'custom',
      path: ['settings', 'merchantAccountId'],
      message: paymentProviderMessages.merchantAccountNeedsSigningKey,
    });
  // spec 3 §5 UK card provider: integration key and password only for Pi.
  if (providerName === 'Opayo' && s.integrationType === 'Pi')
    requireCredentials(
      c,
      { integrationKey: 'Integration key', integrationPassword: 'Integration password' },
      ctx,
    );
}

/** Each method configuration names a type the kind supports, once. */
function checkMethodConfigurations(
  providerName: PaymentProviderName,
  configurations: readonly PaymentMethodConfiguration[],
  ctx: z.RefinementCtx,
): void {
  const type = paymentProviderType(providerName)!;
  const supported = new Set(type.paymentMethodTypesInfo.map((info) => info.paymentMethodType));
  const seen = new Set<string>();
  configurations.forEach((configuration, index) => {
    const path = ['paymentMethodConfigurations', index, 'paymentMethodType'];
    if (!supported.has(configuration.paymentMethodType))
      ctx.addIssue({
        code: 'custom',
        path,
        message: paymentProviderMessages.methodTypeUnsupported,
      });
    if (seen.has(configuration.paymentMethodType))
      ctx.addIssue({ code: 'custom', path, message: paymentProviderMessages.methodTypeTwice });
    seen.add(configuration.paymentMethodType);
  });
}

/**
 * Checks settings and credentials with the kind's schema (issues land on `settings.x` and
 * `credentials.x`) and the method configurations against the kind's types; the output carries
 * the parsed values.
 */
function checkKind<
  T extends {
    providerName: PaymentProviderName;
    settings: Values;
    credentials: Values;
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
  if (settings.success && credentials.success)
    checkSettingsAgainstCredentials(
      body.providerName,
      settings.data as Values,
      credentials.data as Values,
      ctx,
    );
  checkMethodConfigurations(body.providerName, body.paymentMethodConfigurations, ctx);
  if (!settings.success || !credentials.success) return body;
  return { ...body, settings: settings.data as Values, credentials: credentials.data as Values };
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
