import { z } from 'zod';
import { defineQueryFields } from '../query/query-fields.js';
import { usageTypes } from '../enums.js';
import { currencies } from '../reference/currencies.js';
import { countSchema } from './payment-transactions.js';
import { addressShape } from './address.js';

/** spec 2 §3 AccountSettings: who may edit a payment and whose status wins. */
export const editPaymentStatuses = ['Default', 'Allow', 'Disable'] as const;
export type EditPaymentStatus = (typeof editPaymentStatuses)[number];
export const editPaymentOverrideStatuses = ['UseAccountStatus', 'UsePaymentRequest'] as const;
export type EditPaymentOverrideStatus = (typeof editPaymentOverrideStatuses)[number];

/**
 * Limits of the account and payer bodies. spec 2 leaves the account payload open; text limits
 * follow spec 2 §5 "Contact edit" (255, company name 500, e-mail 1000) where a field matches.
 * Listed in docs/api.md.
 */
export const accountLimits = {
  accountReference: { min: 1, max: 50 },
  name: { min: 1, max: 255 },
  shortName: { max: 100 },
  accountType: { max: 50 },
  text: { max: 255 },
  companyName: { max: 500 },
  emailAddress: { max: 1000 },
  emailAddresses: { max: 20 },
  contacts: { max: 20 },
  addresses: { max: 10 },
  /** numeric(19,4): fifteen digits before the point. */
  amountAbsMax: 999_999_999_999_999,
} as const;

export const accountMessages = {
  accountReferenceRequired: 'Account reference is required.',
  accountReferenceTooLong: `Account reference must be at most ${accountLimits.accountReference.max} characters.`,
  accountReferenceTaken: (reference: string) =>
    `An account with reference '${reference}' already exists in this company.`,
  nameRequired: 'Name is required.',
  nameTooLong: `Name must be at most ${accountLimits.name.max} characters.`,
  shortNameTooLong: `Short name must be at most ${accountLimits.shortName.max} characters.`,
  accountTypeTooLong: `Account type must be at most ${accountLimits.accountType.max} characters.`,
  currencyFormat: 'Currency must be three capital letters, e.g. GBP.',
  currencyUnknown: 'Currency must be an ISO 4217 currency code, e.g. GBP.',
  amount: (label: string) =>
    `${label} must be a number between -${accountLimits.amountAbsMax} and ${accountLimits.amountAbsMax} with at most 4 decimals.`,
  creditLimitNegative: 'Credit limit must be 0 or more.',
  emailAddressesTooMany: `An account can have at most ${accountLimits.emailAddresses.max} email addresses.`,
  emailAddressInvalid: 'Email address must be a valid email address, e.g. accounts@example.com.',
  emailAddressTooLong: `Email address must be at most ${accountLimits.emailAddress.max} characters.`,
  oneDefaultEmail: 'Only one email address can be the default.',
  contactsTooMany: `An account can have at most ${accountLimits.contacts.max} contacts.`,
  addressesTooMany: `An account can have at most ${accountLimits.addresses.max} addresses.`,
  textTooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  settlementChoice:
    'Choose either auto-apply disabled or a settlement configuration group, not both.',
  latePaymentChoice:
    'Choose either late payments disabled or a late-payment configuration group, not both.',
  groupId: 'A configuration group id must be a UUID.',
  settlementGroupUnknown: 'No settlement configuration group of this company has this id.',
  latePaymentConfigurationUnknown: 'No late payment configuration of this company has this id.',
  configurationUnknown:
    'The chosen settlement configuration group or late payment configuration does not exist in this company.',
  editPaymentStatus: `Edit payment status must be one of ${editPaymentStatuses.join(', ')}.`,
  editPaymentOverrideStatus: `Edit payment override must be one of ${editPaymentOverrideStatuses.join(', ')}.`,
  booleanRequired: (label: string) => `${label} must be true or false.`,
  defaultUsageType: `Default usage type must be one of ${usageTypes.join(', ')}, or null for the company's default.`,
} as const;

const isoCurrencyCodes: ReadonlySet<string> = new Set(currencies.map((currency) => currency.code));

/** Trimmed, at most `max`; empty or absent becomes null. */
export const optionalAccountText = (max: number, label: string) =>
  z
    .string({ message: `${label} must be text.` })
    .trim()
    .max(max, accountMessages.textTooLong(label, max))
    .nullish()
    .transform((value) => (value ? value : null));

const amount = (label: string) =>
  z
    .number({ message: accountMessages.amount(label) })
    .min(-accountLimits.amountAbsMax, accountMessages.amount(label))
    .max(accountLimits.amountAbsMax, accountMessages.amount(label))
    .refine(
      (value) => Number.isInteger(Number((value * 10_000).toFixed(6))),
      accountMessages.amount(label),
    );

export const accountEmailAddressSchema = z
  .object({ emailAddress: z.string(), type: z.string().nullable(), isDefault: z.boolean() })
  .meta({ id: 'AccountEmailAddress' });
export type AccountEmailAddress = z.infer<typeof accountEmailAddressSchema>;

export const accountContactSchema = z
  .object({
    firstNames: z.string().nullable(),
    surname: z.string().nullable(),
    jobTitle: z.string().nullable(),
  })
  .meta({ id: 'AccountContact' });
export type AccountContact = z.infer<typeof accountContactSchema>;

export const accountAddressSchema = z
  .object(addressShape(() => z.string().nullable()))
  .meta({ id: 'AccountAddress' });
export type AccountAddress = z.infer<typeof accountAddressSchema>;

/** spec 2 §3 AccountSettings as stored and answered. */
export const accountSettingsSchema = z
  .object({
    disableAutoApplySettlements: z.boolean(),
    settlementConfigurationGroupId: z.uuid().nullable(),
    disableLatePayments: z.boolean(),
    latePaymentConfigurationGroupId: z.uuid().nullable(),
    editPaymentStatus: z.enum(editPaymentStatuses),
    editPaymentOverrideStatus: z.enum(editPaymentOverrideStatuses),
    /**
     * spec 2 §4: the usage type of the account's new payment requests, and the one a request
     * without its own shows; null: the company's default (docs/decisions/142-an-account-s-default-usage-type.md). Always answered;
     * optional so records and fixtures from before it still parse.
     */
    defaultUsageType: z.enum(usageTypes).nullable().optional(),
  })
  .meta({ id: 'AccountSettings' });
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/** How many records hang off an account: the count badges of the account page (`expand=counts`). */
export const accountCountsSchema = z
  .object({
    transactions: countSchema,
    paymentTransactions: countSchema,
    paymentRequests: countSchema,
    payers: countSchema,
    /** The reminders mailed to the account, its Reminders tab's count. */
    reminders: countSchema,
  })
  .meta({ id: 'AccountCounts' });
export type AccountCounts = z.infer<typeof accountCountsSchema>;

/** spec 2 §3 Account. */
export const accountSchema = z
  .object({
    id: z.uuid(),
    accountReference: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    accountType: z.string(),
    currency: z.string().nullable(),
    balance: z.number(),
    overdueAmount: z.number(),
    disputedAmount: z.number(),
    creditLimit: z.number().nullable(),
    emailAddresses: z.array(accountEmailAddressSchema),
    contacts: z.array(accountContactSchema),
    addresses: z.array(accountAddressSchema),
    accountSettings: accountSettingsSchema,
    createdOn: z.iso.datetime(),
    updatedOn: z.iso.datetime(),
    /** Only with `expand=counts`. */
    counts: accountCountsSchema.optional(),
  })
  .meta({ id: 'Account' });
export type Account = z.infer<typeof accountSchema>;

/**
 * PUT accounts/{id}/settings (spec 2 §7). The site's three-way choice maps onto two fields:
 * 'none' = disable… true and no group; 'default' = false and no group; a group = false and its id.
 * A chosen group or late payment configuration must exist in the company (422 otherwise).
 */
export const accountSettingsBody = z
  .object({
    disableAutoApplySettlements: z.boolean({
      message: accountMessages.booleanRequired('Disable auto-apply settlements'),
    }),
    settlementConfigurationGroupId: z
      .uuid({ message: accountMessages.groupId })
      .nullable()
      .default(null),
    disableLatePayments: z.boolean({
      message: accountMessages.booleanRequired('Disable late payments'),
    }),
    latePaymentConfigurationGroupId: z
      .uuid({ message: accountMessages.groupId })
      .nullable()
      .default(null),
    editPaymentStatus: z.enum(editPaymentStatuses, { message: accountMessages.editPaymentStatus }),
    editPaymentOverrideStatus: z.enum(editPaymentOverrideStatuses, {
      message: accountMessages.editPaymentOverrideStatus,
    }),
    /** Absent: stays as saved; null: the company's default. */
    defaultUsageType: z
      .enum(usageTypes, { message: accountMessages.defaultUsageType })
      .nullable()
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.disableAutoApplySettlements && value.settlementConfigurationGroupId) {
      ctx.addIssue({
        code: 'custom',
        path: ['settlementConfigurationGroupId'],
        message: accountMessages.settlementChoice,
      });
    }
    if (value.disableLatePayments && value.latePaymentConfigurationGroupId) {
      ctx.addIssue({
        code: 'custom',
        path: ['latePaymentConfigurationGroupId'],
        message: accountMessages.latePaymentChoice,
      });
    }
  })
  .meta({ id: 'AccountSettingsUpdate' });
export type AccountSettingsBody = z.input<typeof accountSettingsBody>;

/** The settings form's choice for settlements or late payments (spec 2 §2 Settings tab). */
export type ConfigurationChoice = 'none' | 'default' | (string & {});
export function configurationChoice(
  disabled: boolean,
  groupId: string | null,
): ConfigurationChoice {
  return disabled ? 'none' : (groupId ?? 'default');
}
export function fromConfigurationChoice(choice: ConfigurationChoice): {
  disabled: boolean;
  groupId: string | null;
} {
  if (choice === 'none') return { disabled: true, groupId: null };
  if (choice === 'default') return { disabled: false, groupId: null };
  return { disabled: false, groupId: choice };
}

const emailAddressInput = z
  .string({ message: accountMessages.emailAddressInvalid })
  .trim()
  .max(accountLimits.emailAddress.max, accountMessages.emailAddressTooLong)
  .pipe(z.email({ message: accountMessages.emailAddressInvalid }));

const accountEmailAddressInput = z.object({
  emailAddress: emailAddressInput,
  type: optionalAccountText(accountLimits.text.max, 'Email type'),
  isDefault: z.boolean({ message: accountMessages.booleanRequired('isDefault') }).default(false),
});

const accountContactInput = z.object({
  firstNames: optionalAccountText(accountLimits.text.max, 'First names'),
  surname: optionalAccountText(accountLimits.text.max, 'Surname'),
  jobTitle: optionalAccountText(accountLimits.text.max, 'Job title'),
});

const accountAddressInput = z.object(
  addressShape((label) => optionalAccountText(accountLimits.text.max, label)),
);

const accountReferenceInput = z
  .string({ message: accountMessages.accountReferenceRequired })
  .trim()
  .min(accountLimits.accountReference.min, accountMessages.accountReferenceRequired)
  .max(accountLimits.accountReference.max, accountMessages.accountReferenceTooLong);

/** The fields an ERP connector owns; the settings are the merchant's (PUT …/settings). */
const accountFields = {
  name: z
    .string({ message: accountMessages.nameRequired })
    .trim()
    .min(accountLimits.name.min, accountMessages.nameRequired)
    .max(accountLimits.name.max, accountMessages.nameTooLong),
  shortName: optionalAccountText(accountLimits.shortName.max, 'Short name'),
  accountType: z
    .string({ message: 'Account type must be text.' })
    .trim()
    .max(accountLimits.accountType.max, accountMessages.accountTypeTooLong)
    .optional()
    .transform((value) => (value ? value : 'Customer'))
    .describe("Free text from the ERP; 'Customer' when absent or empty."),
  currency: z
    .string({ message: accountMessages.currencyFormat })
    .trim()
    .superRefine((value, ctx) => {
      if (value === '') return;
      if (!/^[A-Z]{3}$/.test(value))
        ctx.addIssue({ code: 'custom', message: accountMessages.currencyFormat });
      else if (!isoCurrencyCodes.has(value))
        ctx.addIssue({ code: 'custom', message: accountMessages.currencyUnknown });
    })
    .nullish()
    .transform((value) => (value ? value : null))
    .describe('ISO 4217 code in capitals, e.g. GBP; null when the account has none.'),
  balance: amount('Balance').default(0),
  overdueAmount: amount('Overdue amount').default(0),
  disputedAmount: amount('Disputed amount').default(0),
  creditLimit: amount('Credit limit')
    .refine((value) => value >= 0, accountMessages.creditLimitNegative)
    .nullish()
    .transform((value) => value ?? null),
  emailAddresses: z
    .array(accountEmailAddressInput)
    .max(accountLimits.emailAddresses.max, accountMessages.emailAddressesTooMany)
    .refine(
      (list) => list.filter((item) => item.isDefault).length <= 1,
      accountMessages.oneDefaultEmail,
    )
    .default([]),
  contacts: z
    .array(accountContactInput)
    .max(accountLimits.contacts.max, accountMessages.contactsTooMany)
    .default([]),
  addresses: z
    .array(accountAddressInput)
    .max(accountLimits.addresses.max, accountMessages.addressesTooMany)
    .default([]),
};

/** What an ERP connector sends for one customer account (the OpenAPI page's example). */
const accountExample = {
  accountReference: 'ACME001',
  name: 'Acme Widgets Ltd',
  shortName: 'ACME',
  accountType: 'Customer',
  currency: 'GBP',
  balance: 1250.5,
  overdueAmount: 200,
  disputedAmount: 0,
  creditLimit: 5000,
  emailAddresses: [{ emailAddress: 'accounts@acme.example', type: 'Accounts', isDefault: true }],
  contacts: [{ firstNames: 'Jo', surname: 'Bloggs', jobTitle: 'Accounts payable' }],
  addresses: [
    {
      type: 'Billing',
      address1: '1 Mill Lane',
      city: 'Leeds',
      postCode: 'LS1 4AB',
      country: 'United Kingdom',
    },
  ],
};
const { accountReference: _reference, ...upsertAccountExample } = accountExample;

/** POST accounts and PUT accounts/{id}: the whole account as the connector knows it. */
export const createAccountBody = z
  .object({ accountReference: accountReferenceInput, ...accountFields })
  .meta({ id: 'CreateAccount', examples: [accountExample] });
export type CreateAccountBody = z.input<typeof createAccountBody>;
export type CreateAccountInput = z.output<typeof createAccountBody>;

/** PUT accounts/by-reference/{accountReference}: the reference comes from the path. */
export const upsertAccountBody = z
  .object(accountFields)
  .meta({ id: 'UpsertAccount', examples: [upsertAccountExample] });
export type UpsertAccountBody = z.input<typeof upsertAccountBody>;
export type UpsertAccountInput = z.output<typeof upsertAccountBody>;

export const accountReferenceParam = z.object({ accountReference: accountReferenceInput });

/** spec 2 §2 Accounts list; spec 2 §9: default sort account reference ascending. */
export const accountQuery = defineQueryFields(
  {
    id: { type: 'uuid', filterable: true },
    accountReference: { type: 'string', sortable: true, filterable: true },
    name: { type: 'string', sortable: true, filterable: true },
    shortName: { type: 'string', sortable: true, filterable: true },
    accountType: { type: 'string', sortable: true, filterable: true },
    currency: { type: 'string', sortable: true, filterable: true },
    balance: { type: 'number', sortable: true, filterable: true },
    overdueAmount: { type: 'number', sortable: true, filterable: true },
    disputedAmount: { type: 'number', sortable: true, filterable: true },
    creditLimit: { type: 'number', sortable: true, filterable: true },
    createdOn: { type: 'date', sortable: true, filterable: true },
    updatedOn: { type: 'date', sortable: true, filterable: true },
  },
  {
    defaultSort: 'accountReference',
    search: { text: ['accountReference', 'name'], amount: 'balance' },
  },
);

/** GET accounts/{id}: what `expand` may name (spec 2 §7 "optional expansion"). */
export const accountExpansions = { expand: ['counts'] as const };

export const accountExpandQuery = z.object({
  expand: z
    .string()
    .optional()
    .describe("Comma list; 'counts' adds the counts of related records."),
});
