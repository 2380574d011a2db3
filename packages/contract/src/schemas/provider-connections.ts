import { z } from 'zod';

/**
 * spec 3 §4, §7, §8 connection flows and tests of the providers: Stripe Connect, GoCardless,
 * the Opayo and TranSafe connection tests.
 */
export const providerConnectionMessages = {
  // spec 3 §5 (exact)
  stateTwoItems: 'State should contain 2 items',
  testModeMismatch: 'Test mode does not match',
  invalidProviderType: 'Invalid payment provider type',
  unableToAddStripe: 'Unable to add Stripe configuration',
  accountNotFound: 'The Stripe account could not be found.',
  // spec 3 §4 toasts (exact)
  stripeConnected: 'Successfully connected to Stripe',
  stripeConnectFailed: 'Failed to connect to Stripe',
  goCardlessAuthorised: 'Successfully authorised with GoCardless',
  goCardlessFailed: 'Failed to authorise with GoCardless',
  // spec 3 §2 (exact)
  cardPaymentsUnsupported: 'This Stripe account does not support Card Payments',
  disconnectConfirm: 'Are you sure you want to disconnect from your Stripe account?',
  accountNotValid:
    'Either the Stripe account does not exist or the product no longer has the rights to access the account.',
  unknownError: 'An unknown error occurred',
  notConnected: 'This configuration is not connected to a Stripe account.',
  stateMismatch:
    'The authorisation was not started from this browser. Start it again from the payment providers.',
  stateSpent:
    'This authorisation has expired or was already used. Start it again from the payment providers.',
  opayoIpNotConfigured:
    'Ledgerline does not know the IP address Opayo sees it from, so it cannot register it with Opayo. ' +
    'Ask the operator to set OPAYO_SERVER_IP to that address, or OPAYO_IP_LOOKUP_URL to a service that answers it (such as https://api.ipify.org).',
  connectionTested: 'Connection successful.',
} as const;

/** spec 3 §8: what an Opayo Reporting & Admin error code means to the merchant. */
export function opayoErrorText(errorCode: string | null, detail: string | null): string {
  switch (errorCode) {
    case '0008':
      return 'The vendor name or admin user is wrong, or the user is locked.';
    case '0010':
      return 'The admin password is wrong.';
    case '0011':
      return 'The admin user needs administrator privileges.';
    case '3002':
      if (detail && /user ?name/i.test(detail)) return 'Invalid user name.';
      return 'Invalid vendor name.';
    default:
      return detail ?? 'An unknown error occurred';
  }
}

/** spec 3 §7 GET stripe/keys */
export const stripeKeysSchema = z
  .object({
    isTestMode: z.boolean(),
    connectClientId: z.string().nullable(),
    authoriseUrl: z.string(),
  })
  .meta({ id: 'StripeKeys' });
export type StripeKeys = z.infer<typeof stripeKeysSchema>;

/** spec 3 §4: state = configuration id (or empty), mode (0 add, 1 edit), test or live, and the browser's nonce. */
export const stripeConnectQuery = z.object({
  code: z.string().min(1).max(500),
  state: z.string().max(300),
});

export const stripeConnectResult = z
  .object({
    paymentProviderId: z.uuid(),
    account: z.object({ id: z.string(), displayName: z.string().nullable() }),
  })
  .meta({ id: 'StripeConnectResult' });
export type StripeConnectResult = z.infer<typeof stripeConnectResult>;

/** spec 3 §3 Card account link extras: the account info; `valid` false when it cannot be loaded. */
export const stripeAccountSchema = z
  .object({
    valid: z.boolean(),
    id: z.string(),
    displayName: z.string().nullable(),
    defaultCurrency: z.string().nullable(),
    isLegacyAccount: z.boolean(),
    isTestMode: z.boolean(),
    capabilities: z.object({ cardPayments: z.string().nullable() }),
  })
  .meta({ id: 'StripeAccount' });
export type StripeAccountInfo = z.infer<typeof stripeAccountSchema>;

/** An authorisation the server started: the provider's address, carrying the state it issued. */
export const authoriseStart = z
  .object({ url: z.string(), state: z.string() })
  .meta({ id: 'AuthoriseStart' });
/** Start a Stripe Connect authorisation: for a new configuration (null) or to relink one. */
export const stripeConnectStartBody = z.object({ paymentProviderId: z.uuid().nullable() });
export const goCardlessCompleteQuery = z.object({
  code: z.string().min(1).max(500),
  // Optional here so a return without one gets the state message, not a schema error.
  state: z.string().max(300).default(''),
});
/** spec 3 §3 completion result. */
export const goCardlessCompleteResult = z
  .object({
    success: z.boolean(),
    paymentProviderId: z.uuid().nullable(),
    errorMessage: z.string().nullable(),
  })
  .meta({ id: 'GoCardlessAuthoriseResult' });
export type GoCardlessCompleteResult = z.infer<typeof goCardlessCompleteResult>;

export const goCardlessVerificationStatuses = [
  'Unknown',
  'Successful',
  'InReview',
  'ActionRequired',
] as const;
/** spec 3 §3 creditor info. */
export const goCardlessCreditorSchema = z
  .object({
    organisationId: z.string().nullable(),
    name: z.string().nullable(),
    status: z.enum(goCardlessVerificationStatuses),
    verifyUrl: z.string().nullable(),
  })
  .meta({ id: 'GoCardlessCreditor' });
export type GoCardlessCreditorInfo = z.infer<typeof goCardlessCreditorSchema>;

const credential = (label: string) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(100, `${label} must be at most 100 characters.`);

/** spec 3 §7 POST transafe/admin/test-connection */
export const tranSafeTestBody = z.object({
  userName: credential('User name'),
  password: credential('Password'),
  useTestServer: z.boolean().default(false),
  paymentProviderId: z.uuid().nullish(),
});
export const tranSafeTestResult = z
  .object({ success: z.boolean(), message: z.string() })
  .meta({ id: 'TranSafeTestResult' });

/** POST truelayer/admin/test-connection: a client-credentials token proves the client id and secret. */
export const trueLayerTestBody = z.object({
  clientId: credential('Client ID'),
  clientSecret: credential('Client Secret'),
  useSandbox: z.boolean().default(false),
  paymentProviderId: z.uuid().nullish(),
});
/** POST oppwa/admin/test-connection: a 1.00 GBP checkout (nothing is charged) proves token and entity. */
export const oppwaTestBody = z.object({
  entityId: credential('Entity ID'),
  accessToken: credential('Access token'),
  useSandbox: z.boolean().default(false),
  paymentProviderId: z.uuid().nullish(),
});
export const connectionTestResult = z
  .object({ success: z.boolean(), message: z.string() })
  .meta({ id: 'ConnectionTestResult' });

/** spec 3 §7 POST opayo/admin/test-connection and register-ip */
export const opayoTestBody = z.object({
  vendor: credential('Vendor name'),
  user: credential('Admin user'),
  password: credential('Admin password'),
  useTestServer: z.boolean().default(false),
  paymentProviderId: z.uuid().nullish(),
});
export const opayoTestResult = z
  .object({ success: z.boolean(), errorCode: z.string().nullable(), detail: z.string().nullable() })
  .meta({ id: 'OpayoTestResult' });
export type OpayoTestResult = z.infer<typeof opayoTestResult>;
