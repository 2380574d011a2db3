import {
  createPaymentProviderBody,
  providerConnectionMessages as messages,
  secretSentinel,
  type GoCardlessCompleteResult,
  type GoCardlessCreditorInfo,
  type OpayoTestResult,
  type PaymentProviderName,
  type StripeAccountInfo,
  type StripeConnectResult,
  type StripeKeys,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { AppError, ConflictError } from '../../platform/errors.js';
import {
  GoCardlessError,
  type GoCardlessConnect,
} from '../../providers/gocardless/gocardless.connect.js';
import { ProviderUnreachableError } from '../../providers/http.js';
import type { OpayoAdmin } from '../../providers/opayo/opayo.admin.js';
import { StripeError, type StripeConnect } from '../../providers/stripe/stripe.connect.js';
import type { TranSafeAdmin } from '../../providers/transafe/transafe.admin.js';
import type { OppwaAdmin } from '../../providers/oppwa/oppwa.admin.js';
import { TrueLayerTokenError } from '../../providers/truelayer/truelayer.checkout.js';
import type { ProviderScope } from './payment-providers.repository.js';
import type { Credentials, PaymentProvidersService } from './payment-providers.service.js';
import type { PaymentProvidersRepository } from './payment-providers.repository.js';

const goCardlessNotConfigured =
  'GoCardless is not set up on this server yet: ask the operator to set GOCARDLESS_CLIENT_ID and GOCARDLESS_CLIENT_SECRET.';

/** The request's two kinds of transaction: provider calls happen between them (style.md §7). */
export interface Transactions {
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: Tx) => Promise<T>, successStatus?: number): Promise<T>;
}

const verificationStatuses: Record<string, GoCardlessCreditorInfo['status']> = {
  successful: 'Successful',
  in_review: 'InReview',
  action_required: 'ActionRequired',
};

const badRequest = (detail: string) => new AppError(400, 'Bad Request', detail);
const notConnected = () => new ConflictError(messages.notConnected, 'StripeNotConnected');

export interface ProviderConnectionsDeps {
  providers: PaymentProvidersService;
  repository: PaymentProvidersRepository;
  stripe: StripeConnect;
  goCardless: GoCardlessConnect;
  opayo: OpayoAdmin;
  tranSafe: TranSafeAdmin;
  oppwa: OppwaAdmin;
  trueLayer: { token(configuration: { credentials: Record<string, unknown> }): Promise<string> };
  publicUrl: string;
  opayoServerIp: string | undefined;
}

/** spec 3 §4 "made unique by appending a counter": Name, Name 2, Name 3… */
function uniqueName(base: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((name) => name.toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let counter = 2; ; counter += 1) {
    const candidate = `${base} ${counter}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * A provider that did not answer, or refused the call, is a failure the screen can show (never a
 * 5xx, which the site would turn into an error page).
 */
async function reach<T>(call: () => Promise<T>, failed: (message: string) => T): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof ProviderUnreachableError ||
      error instanceof StripeError ||
      error instanceof GoCardlessError
    )
      return failed(error.message);
    throw error;
  }
}

export function createProviderConnections(deps: ProviderConnectionsDeps) {
  const { providers, repository, stripe, goCardless, opayo, tranSafe, oppwa, trueLayer } = deps;
  const stripeReturn = `${deps.publicUrl}/stripe-connect/connect/oauth`;
  const goCardlessReturn = `${deps.publicUrl}/gocardless/connect/oauth`;

  /** A configuration of one kind with its credentials in clear (for the provider call only). */
  async function configurationOf(
    tx: Tx,
    scope: ProviderScope,
    id: string,
    kind: PaymentProviderName,
  ) {
    const { row, credentials } = await providers.credentialsFor(tx, scope, id);
    if (row.providerName !== kind) throw badRequest(messages.invalidProviderType);
    return { row, credentials };
  }

  /** A secret sent as the sentinel stands for the stored one of the named configuration. */
  async function secretOf(
    db: Transactions,
    scope: ProviderScope,
    kind: PaymentProviderName,
    given: string,
    id: string | null | undefined,
    key: string,
  ) {
    if (given !== secretSentinel) return given;
    if (!id) throw badRequest(`${key} is required.`);
    const { credentials } = await db.read((tx) => configurationOf(tx, scope, id, kind));
    const stored = credentials[key];
    if (typeof stored !== 'string' || stored === '') throw badRequest(`${key} is required.`);
    return stored;
  }

  function stripeCreateBody(name: string) {
    return createPaymentProviderBody.parse({
      providerName: 'Stripe',
      name,
      enabled: true,
      displayPriority: 0,
      isTest: stripe.isTestMode(),
      settings: {
        useStripeCustomer: true,
        storePayerPaymentMethod: true,
        saveCardOptionDefault: true,
      },
      credentials: {},
    });
  }

  return {
    stripeKeys: (): StripeKeys => ({
      isTestMode: stripe.isTestMode(),
      connectClientId: stripe.clientId(),
      authoriseUrl: stripe.authoriseUrl(),
    }),
    stripeRedirectUri: () => stripeReturn,
    goCardlessRedirectUri: () => goCardlessReturn,

    /** spec 3 §4, §5 the card connection return: state checks, code exchange, add or edit. */
    async stripeConnect(
      db: Transactions,
      scope: ProviderScope,
      input: { code: string; state: string },
    ): Promise<StripeConnectResult> {
      const parts = input.state.split('|');
      if (parts.length < 2) throw badRequest(messages.stateTwoItems);
      const [configurationId = '', mode, testOrLive] = parts;
      if (testOrLive !== undefined && (testOrLive === 'test') !== stripe.isTestMode())
        throw badRequest(messages.testModeMismatch);
      const editing = mode === '1';
      if (editing) {
        // Checked before the code is spent: the configuration must be a card account link.
        await db.read((tx) => configurationOf(tx, scope, configurationId, 'Stripe'));
      }
      const exchanged = await reach(
        () => stripe.exchangeCode(input.code),
        (message) => {
          throw badRequest(message);
        },
      );
      if (exchanged.livemode === stripe.isTestMode()) throw badRequest(messages.testModeMismatch);
      const account = await reach(
        () => stripe.account(exchanged.accountId),
        () => null,
      );
      if (!account) throw badRequest(messages.accountNotFound);
      const serverCredentials: Credentials = {
        stripeAccountId: account.id,
        connectClientId: stripe.clientId(),
      };
      const paymentProviderId = await db.write(async (tx) => {
        if (editing) {
          await configurationOf(tx, scope, configurationId, 'Stripe');
          return (
            await providers.setServerCredentials(tx, scope, configurationId, serverCredentials)
          ).id;
        }
        const base = (account.displayName ?? account.id).slice(0, 90);
        const name = uniqueName(base, await repository.namesLike(tx, scope, base));
        try {
          return (await providers.create(tx, scope, stripeCreateBody(name), serverCredentials)).id;
        } catch (error) {
          if (error instanceof AppError) throw badRequest(messages.unableToAddStripe);
          throw error;
        }
      });
      return { paymentProviderId, account: { id: account.id, displayName: account.displayName } };
    },

    async stripeAccount(
      db: Transactions,
      scope: ProviderScope,
      id: string,
    ): Promise<StripeAccountInfo> {
      const { credentials } = await db.read((tx) => configurationOf(tx, scope, id, 'Stripe'));
      const accountId = credentials.stripeAccountId;
      if (typeof accountId !== 'string' || accountId === '') throw notConnected();
      const account = await reach(
        () => stripe.account(accountId),
        () => null,
      );
      if (!account)
        return {
          valid: false,
          id: accountId,
          displayName: null,
          defaultCurrency: null,
          isLegacyAccount: false,
          isTestMode: stripe.isTestMode(),
          capabilities: { cardPayments: null },
        };
      return { valid: true, ...account, isTestMode: stripe.isTestMode() };
    },

    /** spec 3 §4: deauthorise at Stripe, then clear the account id. */
    async stripeDisconnect(db: Transactions, scope: ProviderScope, id: string): Promise<void> {
      const { credentials } = await db.read((tx) => configurationOf(tx, scope, id, 'Stripe'));
      const accountId = credentials.stripeAccountId;
      if (typeof accountId !== 'string' || accountId === '') throw notConnected();
      await reach(
        () => stripe.deauthorize(accountId),
        (message) => {
          throw badRequest(message);
        },
      );
      await db.write(async (tx) => {
        await configurationOf(tx, scope, id, 'Stripe');
        await providers.setServerCredentials(tx, scope, id, { stripeAccountId: null });
      }, 204);
    },

    goCardlessStart(state: string) {
      // A server without the partner app's credentials cannot start the flow: a clear 422, not a 500.
      if (!goCardless.isConfigured())
        throw new AppError(422, 'Unprocessable Content', goCardlessNotConfigured, {
          errorCode: 'goCardlessNotConfigured',
        });
      return { url: goCardless.authoriseUrl({ state, redirectUri: goCardlessReturn }) };
    },

    /** spec 3 §4 direct-debit connection: exchange the code, add the configuration. */
    async goCardlessComplete(
      db: Transactions,
      scope: ProviderScope,
      code: string,
    ): Promise<GoCardlessCompleteResult> {
      let token: { accessToken: string; organisationId: string };
      try {
        token = await goCardless.exchangeCode({ code, redirectUri: goCardlessReturn });
      } catch (error) {
        return {
          success: false,
          paymentProviderId: null,
          errorMessage: error instanceof Error ? error.message : messages.unknownError,
        };
      }
      const paymentProviderId = await db.write(async (tx) => {
        const name = uniqueName('GoCardless', await repository.namesLike(tx, scope, 'GoCardless'));
        const body = createPaymentProviderBody.parse({
          providerName: 'GoCardless',
          name,
          enabled: true,
          displayPriority: 0,
          isTest: !goCardless.isLive(),
          settings: {},
          credentials: {},
        });
        return (
          await providers.create(tx, scope, body, {
            organisationId: token.organisationId,
            accessToken: token.accessToken,
          })
        ).id;
      });
      return { success: true, paymentProviderId, errorMessage: null };
    },

    async goCardlessCreditor(
      db: Transactions,
      scope: ProviderScope,
      id: string,
    ): Promise<GoCardlessCreditorInfo> {
      const { credentials } = await db.read((tx) => configurationOf(tx, scope, id, 'GoCardless'));
      const organisationId =
        typeof credentials.organisationId === 'string' ? credentials.organisationId : null;
      const accessToken = credentials.accessToken;
      const unknown: GoCardlessCreditorInfo = {
        organisationId,
        name: null,
        status: 'Unknown',
        verifyUrl: null,
      };
      if (typeof accessToken !== 'string') return unknown;
      const creditor = await reach(
        () => goCardless.creditor(accessToken),
        () => null,
      );
      if (!creditor) return unknown;
      const status = verificationStatuses[creditor.verificationStatus] ?? 'Unknown';
      return {
        organisationId,
        name: creditor.name,
        status,
        verifyUrl: status === 'ActionRequired' ? goCardless.verifyUrl() : null,
      };
    },

    async tranSafeTest(
      db: Transactions,
      scope: ProviderScope,
      input: {
        userName: string;
        password: string;
        useTestServer: boolean;
        paymentProviderId?: string | null;
      },
    ) {
      const password = await secretOf(
        db,
        scope,
        'TranSafe',
        input.password,
        input.paymentProviderId,
        'password',
      );
      return reach(
        () =>
          tranSafe.testConnection({
            useTestServer: input.useTestServer,
            userName: input.userName,
            password,
          }),
        (message) => ({ success: false, message }),
      );
    },

    /** A client-credentials token for the client proves its id and secret. */
    async trueLayerTest(
      db: Transactions,
      scope: ProviderScope,
      input: {
        clientId: string;
        clientSecret: string;
        useSandbox: boolean;
        paymentProviderId?: string | null;
      },
    ) {
      const clientSecret = await secretOf(
        db,
        scope,
        'TrueLayer',
        input.clientSecret,
        input.paymentProviderId,
        'clientSecret',
      );
      return reach(
        async () => {
          try {
            await trueLayer.token({
              credentials: { clientId: input.clientId, clientSecret, useSandbox: input.useSandbox },
            });
            return { success: true, message: messages.connectionTested };
          } catch (error) {
            if (error instanceof TrueLayerTokenError)
              return { success: false, message: error.message };
            throw error;
          }
        },
        (message) => ({ success: false, message }),
      );
    },

    /** A 1.00 GBP checkout (nothing is charged) proves the access token and entity. */
    async oppwaTest(
      db: Transactions,
      scope: ProviderScope,
      input: {
        entityId: string;
        accessToken: string;
        useSandbox: boolean;
        paymentProviderId?: string | null;
      },
    ) {
      const accessToken = await secretOf(
        db,
        scope,
        'Oppwa',
        input.accessToken,
        input.paymentProviderId,
        'accessToken',
      );
      return reach(
        () =>
          oppwa.testConnection({
            useSandbox: input.useSandbox,
            entityId: input.entityId,
            accessToken,
          }),
        (message) => ({ success: false, message }),
      );
    },

    async opayoTest(
      db: Transactions,
      scope: ProviderScope,
      input: {
        vendor: string;
        user: string;
        password: string;
        useTestServer: boolean;
        paymentProviderId?: string | null;
      },
    ): Promise<OpayoTestResult> {
      const password = await secretOf(
        db,
        scope,
        'Opayo',
        input.password,
        input.paymentProviderId,
        'adminPassword',
      );
      const answer = await reach(
        () =>
          opayo.testConnection({
            useTestServer: input.useTestServer,
            vendor: input.vendor,
            user: input.user,
            password,
          }),
        (message) => ({ errorCode: 'HTTP', error: message }),
      );
      return answer.errorCode === '0000'
        ? { success: true, errorCode: null, detail: null }
        : { success: false, errorCode: answer.errorCode, detail: answer.error };
    },

    async opayoRegisterIp(
      db: Transactions,
      scope: ProviderScope,
      input: {
        vendor: string;
        user: string;
        password: string;
        useTestServer: boolean;
        paymentProviderId?: string | null;
      },
    ): Promise<OpayoTestResult> {
      if (!deps.opayoServerIp)
        return { success: false, errorCode: null, detail: messages.opayoIpNotConfigured };
      const password = await secretOf(
        db,
        scope,
        'Opayo',
        input.password,
        input.paymentProviderId,
        'adminPassword',
      );
      const ip = deps.opayoServerIp;
      const answer = await reach(
        () =>
          opayo.registerIp({
            useTestServer: input.useTestServer,
            vendor: input.vendor,
            user: input.user,
            password,
            ip,
            note: 'Ledgerline',
          }),
        (message) => ({ errorCode: 'HTTP', error: message }),
      );
      return answer.errorCode === '0000'
        ? { success: true, errorCode: null, detail: null }
        : { success: false, errorCode: answer.errorCode, detail: answer.error };
    },
  };
}
export type ProviderConnections = ReturnType<typeof createProviderConnections>;
