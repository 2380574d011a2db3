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
import type { ProviderExchange } from '../../providers/adapter.js';
import { AppError, ConflictError } from '../../platform/errors.js';
import {
  GoCardlessError,
  type GoCardlessConnect,
} from '../../providers/gocardless/gocardless.connect.js';
import { ProviderUnreachableError } from '../../providers/http.js';
import type { ExchangeRecorder } from '../../providers/recorded-fetch.js';
import type { OpayoAdmin } from '../../providers/opayo/opayo.admin.js';
import { StripeError, type StripeConnect } from '../../providers/stripe/stripe.connect.js';
import type { TranSafeAdmin } from '../../providers/transafe/transafe.admin.js';
import type { OppwaAdmin } from '../../providers/oppwa/oppwa.admin.js';
import { TrueLayerTokenError } from '../../providers/truelayer/truelayer.checkout.js';
import type { ProviderScope } from './payment-providers.repository.js';
import type { Credentials, PaymentProvidersService } from './payment-providers.service.js';
import type { PaymentProvidersRepository } from './payment-providers.repository.js';
import type { PaymentProviderEventsRepository } from './payment-provider-events.repository.js';

const goCardlessNotConfigured =
  'GoCardless is not set up on this server yet: ask the operator to set GOCARDLESS_CLIENT_ID and GOCARDLESS_CLIENT_SECRET.';

/** The request's kinds of transaction: provider calls happen between them (style.md §7). */
export interface Transactions {
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: Tx) => Promise<T>, successStatus?: number): Promise<T>;
  /** A transaction that only keeps provider events (of a read or a failed call): no audit. */
  record<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** The exchanges one call made, in order, for the configuration's provider events. */
function exchangeLog() {
  const exchanges: ProviderExchange[] = [];
  return { exchanges, recorder: (exchange: ProviderExchange) => void exchanges.push(exchange) };
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
  events: PaymentProviderEventsRepository;
  stripe: StripeConnect;
  goCardless: GoCardlessConnect;
  opayo: OpayoAdmin;
  tranSafe: TranSafeAdmin;
  oppwa: OppwaAdmin;
  trueLayer: {
    token(
      configuration: { credentials: Record<string, unknown> },
      recorder?: ExchangeRecorder,
    ): Promise<string>;
  };
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
  const { providers, repository, events, stripe, goCardless, opayo, tranSafe, oppwa, trueLayer } =
    deps;
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

  /**
   * Keeps a call's exchanges as events of a configuration in a transaction of their own: for a
   * read, a connection test or a call that failed (a change keeps them in its own transaction).
   * A test of a form not saved yet, or of an id that is not this company's configuration of the
   * kind, has no configuration to keep them with.
   */
  async function keep(
    db: Transactions,
    scope: ProviderScope,
    configuration: { id: string; providerName: string } | null | undefined,
    exchanges: readonly ProviderExchange[],
  ) {
    if (!configuration || exchanges.length === 0) return;
    await db.record((tx) => events.insert(tx, scope, configuration, exchanges));
  }

  /** The configuration a connection test names, if it is this company's one of the kind. */
  async function keepForTest(
    db: Transactions,
    scope: ProviderScope,
    kind: PaymentProviderName,
    id: string | null | undefined,
    exchanges: readonly ProviderExchange[],
  ) {
    if (!id || exchanges.length === 0) return;
    await db.record(async (tx) => {
      const row = await repository.find(tx, scope, id);
      if (row?.providerName === kind) await events.insert(tx, scope, row, exchanges);
    });
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
      // Checked before the code is spent: the configuration must be a card account link.
      const edited = editing
        ? (await db.read((tx) => configurationOf(tx, scope, configurationId, 'Stripe'))).row
        : null;
      const { exchanges, recorder } = exchangeLog();
      // A failed connection of an existing configuration still keeps what Stripe said.
      const fail = async (error: AppError): Promise<never> => {
        await keep(db, scope, edited, exchanges);
        throw error;
      };
      const exchanged = await reach<{ accountId: string; livemode: boolean } | AppError>(
        () => stripe.exchangeCode(input.code, recorder),
        (message) => badRequest(message),
      );
      if (exchanged instanceof AppError) return fail(exchanged);
      if (exchanged.livemode === stripe.isTestMode())
        return fail(badRequest(messages.testModeMismatch));
      const account = await reach(
        () => stripe.account(exchanged.accountId, recorder),
        () => null,
      );
      if (!account) return fail(badRequest(messages.accountNotFound));
      const serverCredentials: Credentials = {
        stripeAccountId: account.id,
        connectClientId: stripe.clientId(),
      };
      const paymentProviderId = await db.write(async (tx) => {
        let id: string;
        if (editing) {
          await configurationOf(tx, scope, configurationId, 'Stripe');
          id = (await providers.setServerCredentials(tx, scope, configurationId, serverCredentials))
            .id;
        } else {
          const base = (account.displayName ?? account.id).slice(0, 90);
          const name = uniqueName(base, await repository.namesLike(tx, scope, base));
          try {
            id = (await providers.create(tx, scope, stripeCreateBody(name), serverCredentials)).id;
          } catch (error) {
            if (error instanceof AppError) throw badRequest(messages.unableToAddStripe);
            throw error;
          }
        }
        await events.insert(tx, scope, { id, providerName: 'Stripe' }, exchanges);
        return id;
      });
      return { paymentProviderId, account: { id: account.id, displayName: account.displayName } };
    },

    async stripeAccount(
      db: Transactions,
      scope: ProviderScope,
      id: string,
    ): Promise<StripeAccountInfo> {
      const { row, credentials } = await db.read((tx) => configurationOf(tx, scope, id, 'Stripe'));
      const accountId = credentials.stripeAccountId;
      if (typeof accountId !== 'string' || accountId === '') throw notConnected();
      const { exchanges, recorder } = exchangeLog();
      const account = await reach(
        () => stripe.account(accountId, recorder),
        () => null,
      );
      await keep(db, scope, row, exchanges);
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
      const { row, credentials } = await db.read((tx) => configurationOf(tx, scope, id, 'Stripe'));
      const accountId = credentials.stripeAccountId;
      if (typeof accountId !== 'string' || accountId === '') throw notConnected();
      const { exchanges, recorder } = exchangeLog();
      const refused = await reach<AppError | null>(
        async () => {
          await stripe.deauthorize(accountId, recorder);
          return null;
        },
        (message) => badRequest(message),
      );
      if (refused) {
        await keep(db, scope, row, exchanges);
        throw refused;
      }
      await db.write(async (tx) => {
        await configurationOf(tx, scope, id, 'Stripe');
        await providers.setServerCredentials(tx, scope, id, { stripeAccountId: null });
        await events.insert(tx, scope, row, exchanges);
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
      // A refused code adds no configuration: its exchange has nothing to be kept with.
      const { exchanges, recorder } = exchangeLog();
      try {
        token = await goCardless.exchangeCode({ code, redirectUri: goCardlessReturn }, recorder);
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
        const { id } = await providers.create(tx, scope, body, {
          organisationId: token.organisationId,
          accessToken: token.accessToken,
        });
        await events.insert(tx, scope, { id, providerName: 'GoCardless' }, exchanges);
        return id;
      });
      return { success: true, paymentProviderId, errorMessage: null };
    },

    async goCardlessCreditor(
      db: Transactions,
      scope: ProviderScope,
      id: string,
    ): Promise<GoCardlessCreditorInfo> {
      const { row, credentials } = await db.read((tx) =>
        configurationOf(tx, scope, id, 'GoCardless'),
      );
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
      const { exchanges, recorder } = exchangeLog();
      const creditor = await reach(
        () => goCardless.creditor(accessToken, recorder),
        () => null,
      );
      await keep(db, scope, row, exchanges);
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
      const { exchanges, recorder } = exchangeLog();
      const result = await reach(
        () =>
          tranSafe.testConnection(
            { useTestServer: input.useTestServer, userName: input.userName, password },
            recorder,
          ),
        (message) => ({ success: false, message }),
      );
      await keepForTest(db, scope, 'TranSafe', input.paymentProviderId, exchanges);
      return result;
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
      const { exchanges, recorder } = exchangeLog();
      const result = await reach(
        async () => {
          try {
            await trueLayer.token(
              {
                credentials: {
                  clientId: input.clientId,
                  clientSecret,
                  useSandbox: input.useSandbox,
                },
              },
              recorder,
            );
            return { success: true, message: messages.connectionTested };
          } catch (error) {
            if (error instanceof TrueLayerTokenError)
              return { success: false, message: error.message };
            throw error;
          }
        },
        (message) => ({ success: false, message }),
      );
      await keepForTest(db, scope, 'TrueLayer', input.paymentProviderId, exchanges);
      return result;
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
      const { exchanges, recorder } = exchangeLog();
      const result = await reach(
        () =>
          oppwa.testConnection(
            { useSandbox: input.useSandbox, entityId: input.entityId, accessToken },
            recorder,
          ),
        (message) => ({ success: false, message }),
      );
      await keepForTest(db, scope, 'Oppwa', input.paymentProviderId, exchanges);
      return result;
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
      const { exchanges, recorder } = exchangeLog();
      const answer = await reach(
        () =>
          opayo.testConnection(
            {
              useTestServer: input.useTestServer,
              vendor: input.vendor,
              user: input.user,
              password,
            },
            recorder,
          ),
        (message) => ({ errorCode: 'HTTP', error: message }),
      );
      await keepForTest(db, scope, 'Opayo', input.paymentProviderId, exchanges);
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
      const { exchanges, recorder } = exchangeLog();
      const answer = await reach(
        () =>
          opayo.registerIp(
            {
              useTestServer: input.useTestServer,
              vendor: input.vendor,
              user: input.user,
              password,
              ip,
              note: 'Ledgerline',
            },
            recorder,
          ),
        (message) => ({ errorCode: 'HTTP', error: message }),
      );
      await keepForTest(db, scope, 'Opayo', input.paymentProviderId, exchanges);
      return answer.errorCode === '0000'
        ? { success: true, errorCode: null, detail: null }
        : { success: false, errorCode: answer.errorCode, detail: answer.error };
    },
  };
}
export type ProviderConnections = ReturnType<typeof createProviderConnections>;
