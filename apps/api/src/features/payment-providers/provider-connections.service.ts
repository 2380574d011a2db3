import {
  createPaymentProviderBody,
  opayoErrorText,
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
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { providerOAuthStates } from '../../db/schema-providers.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import { AppError, ConflictError } from '../../platform/errors.js';
import {
  GoCardlessError,
  type GoCardlessConnect,
} from '../../providers/gocardless/gocardless.connect.js';
import { ProviderUnreachableError } from '../../providers/http.js';
import type { ExchangeRecorder } from '../../providers/recorded-fetch.js';
import type { OpayoAdmin } from '../../providers/opayo/opayo.admin.js';
import type { OutgoingIp } from '../../providers/opayo/outgoing-ip.js';
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

const stripeConnectNotConfigured =
  'Stripe Connect is not set up on this server yet: ask the operator to set STRIPE_CONNECT_CLIENT_ID.';

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

/** How long an authorisation the server started may take to come back (issue 20 item 9). */
export const oauthStateLifetimeMinutes = 15;

/** The caller an authorisation's state is bound to: its session, or its access key. */
export type StateOwner = string;

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex');
const stateRefused = (detail: string) =>
  new AppError(400, 'Bad Request', detail, { errorCode: 'AuthorisationStateRefused' });

/** Keeps a new state's hash, bound to the caller and the company, for the lifetime above. */
async function issueState(
  tx: Tx,
  scope: ProviderScope,
  input: { owner: StateOwner; kind: 'Stripe' | 'GoCardless'; paymentProviderId: string | null },
  state: string,
) {
  await tx.insert(providerOAuthStates).values({
    tenantId: scope.tenantId,
    datasetId: scope.datasetId,
    id: uuidv7(),
    providerName: input.kind,
    paymentProviderId: input.paymentProviderId,
    owner: input.owner,
    stateHash: stateHash(state),
    expiresOn: sql`now() + make_interval(mins => ${oauthStateLifetimeMinutes})`,
  });
}

/**
 * Spends a state once (one UPDATE, so two returns cannot both pass): it must be this company's,
 * this caller's and of this provider, unused and unexpired. A missing or foreign state is
 * 'not started from this browser'; a spent or expired one of this caller says so.
 */
async function spendState(
  tx: Tx,
  scope: ProviderScope,
  owner: StateOwner,
  kind: 'Stripe' | 'GoCardless',
  state: string,
): Promise<{ paymentProviderId: string | null }> {
  if (state === '') throw stateRefused(messages.stateMismatch);
  const mine = and(
    eq(providerOAuthStates.tenantId, scope.tenantId),
    eq(providerOAuthStates.datasetId, scope.datasetId),
    eq(providerOAuthStates.stateHash, stateHash(state)),
    eq(providerOAuthStates.providerName, kind),
    eq(providerOAuthStates.owner, owner),
  );
  const [spent] = await tx
    .update(providerOAuthStates)
    .set({ usedOn: sql`now()` })
    .where(
      and(mine, isNull(providerOAuthStates.usedOn), gt(providerOAuthStates.expiresOn, sql`now()`)),
    )
    .returning({ paymentProviderId: providerOAuthStates.paymentProviderId });
  if (spent) return spent;
  const [known] = await tx
    .select({ id: providerOAuthStates.id })
    .from(providerOAuthStates)
    .where(mine);
  throw stateRefused(known ? messages.stateSpent : messages.stateMismatch);
}
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
  /** The address Opayo sees this server's calls from (providers/opayo/outgoing-ip.ts). */
  opayoServerIp: () => Promise<OutgoingIp>;
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

  /** Registers this server's address with Opayo (`addValidIPs`) with the given admin credentials. */
  async function registerOpayoIp(
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
    const outgoing = await deps.opayoServerIp();
    if (outgoing.ip === null) return { success: false, errorCode: null, detail: outgoing.problem };
    const password = await secretOf(
      db,
      scope,
      'Opayo',
      input.password,
      input.paymentProviderId,
      'adminPassword',
    );
    const ip = outgoing.ip;
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
  }

  return {
    stripeKeys: (): StripeKeys => ({
      isTestMode: stripe.isTestMode(),
      connectClientId: stripe.clientId(),
      authoriseUrl: stripe.authoriseUrl(),
    }),
    stripeRedirectUri: () => stripeReturn,
    goCardlessRedirectUri: () => goCardlessReturn,

    /**
     * spec 3 §4 Start: Stripe's authorisation address with a state of the configuration id (or
     * empty), the mode (0 add, 1 edit), test or live, and a random part; the server keeps it.
     */
    async stripeStart(
      db: Transactions,
      scope: ProviderScope,
      owner: StateOwner,
      paymentProviderId: string | null,
    ): Promise<{ url: string; state: string }> {
      const clientId = stripe.clientId();
      if (!clientId)
        throw new AppError(422, 'Unprocessable Content', stripeConnectNotConfigured, {
          errorCode: 'stripeConnectNotConfigured',
        });
      const state = [
        paymentProviderId ?? '',
        paymentProviderId ? '1' : '0',
        stripe.isTestMode() ? 'test' : 'live',
        randomBytes(24).toString('base64url'),
      ].join('|');
      await db.write(async (tx) => {
        if (paymentProviderId) await configurationOf(tx, scope, paymentProviderId, 'Stripe');
        await issueState(tx, scope, { owner, kind: 'Stripe', paymentProviderId }, state);
      });
      const url = new URL(stripe.authoriseUrl());
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        scope: 'read_write',
        state,
        redirect_uri: stripeReturn,
      }).toString();
      return { url: url.toString(), state };
    },

    /** spec 3 §4, §5 the card connection return: state checks, code exchange, add or edit. */
    async stripeConnect(
      db: Transactions,
      scope: ProviderScope,
      owner: StateOwner,
      input: { code: string; state: string },
    ): Promise<StripeConnectResult> {
      const parts = input.state.split('|');
      if (parts.length < 2) throw badRequest(messages.stateTwoItems);
      const [configurationId = '', mode, testOrLive] = parts;
      if (testOrLive !== undefined && (testOrLive === 'test') !== stripe.isTestMode())
        throw badRequest(messages.testModeMismatch);
      const editing = mode === '1';
      // The state this caller was given, spent before the code reaches Stripe (issue 20 item 9).
      // Its configuration id is part of what was hashed, so it cannot be swapped.
      await db.record((tx) => spendState(tx, scope, owner, 'Stripe', input.state));
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

    /** GoCardless's authorisation address with a random state the server keeps for this caller. */
    async goCardlessStart(
      db: Transactions,
      scope: ProviderScope,
      owner: StateOwner,
    ): Promise<{ url: string; state: string }> {
      // A server without the partner app's credentials cannot start the flow: a clear 422, not a 500.
      if (!goCardless.isConfigured())
        throw new AppError(422, 'Unprocessable Content', goCardlessNotConfigured, {
          errorCode: 'goCardlessNotConfigured',
        });
      const state = randomBytes(24).toString('base64url');
      await db.write((tx) =>
        issueState(tx, scope, { owner, kind: 'GoCardless', paymentProviderId: null }, state),
      );
      return { url: goCardless.authoriseUrl({ state, redirectUri: goCardlessReturn }), state };
    },

    /** spec 3 §4 direct-debit connection: exchange the code, add the configuration. */
    async goCardlessComplete(
      db: Transactions,
      scope: ProviderScope,
      owner: StateOwner,
      input: { code: string; state: string },
    ): Promise<GoCardlessCompleteResult> {
      const { code } = input;
      // The state this caller was given, spent before the code reaches GoCardless.
      await db.record((tx) => spendState(tx, scope, owner, 'GoCardless', input.state));
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

    opayoRegisterIp: registerOpayoIp,

    /**
     * spec 3 §4 "UK provider with integration type Server first registers the IP address and stops
     * saving if that fails": the save of an Opayo Server configuration (add or edit, through any
     * client) registers this server's address first, before its transaction (style.md §7), and a
     * failure is a 400 that stops the save. Other kinds and Pi: nothing to do.
     */
    async registerIpForSave(
      db: Transactions,
      scope: ProviderScope,
      input: {
        providerName: string;
        settings: Credentials;
        credentials: Credentials;
        id?: string | null;
      },
    ): Promise<void> {
      if (input.providerName !== 'Opayo' || input.settings.integrationType !== 'Server') return;
      const text = (key: string) =>
        typeof input.credentials[key] === 'string' ? (input.credentials[key] as string) : '';
      // A new configuration has no stored password: the save refuses the sentinel with its own message.
      if (text('adminPassword') === secretSentinel && !input.id) return;
      const result = await registerOpayoIp(db, scope, {
        vendor: text('vendorName'),
        user: text('adminUser'),
        password: text('adminPassword'),
        useTestServer: input.settings.useTestServer === true,
        paymentProviderId: input.id ?? null,
      });
      if (result.success) return;
      throw new AppError(
        400,
        'Bad Request',
        result.errorCode === null
          ? (result.detail ?? messages.opayoIpNotConfigured)
          : opayoErrorText(result.errorCode, result.detail),
        { errorCode: 'OpayoIpNotRegistered' },
      );
    },
  };
}
export type ProviderConnections = ReturnType<typeof createProviderConnections>;
