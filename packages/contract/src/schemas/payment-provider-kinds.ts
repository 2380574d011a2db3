import { z } from 'zod';
import {
  paymentProviderLimits,
  paymentProviderMessages,
  secretSentinel,
  type PaymentProviderName,
} from './payment-provider-types.js';

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
 * TrueLayer's request signing private key: PEM of an EC key, PKCS#8 (`PRIVATE KEY`)
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
    // The key TrueLayer refunds are signed with (its id in TrueLayer's console).
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
 * spec 3 §2 card options: whether the payer page offers to save the card with
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
