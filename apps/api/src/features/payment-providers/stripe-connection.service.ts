import {
  createPaymentProviderBody,
  providerConnectionMessages as messages,
  type StripeAccountInfo,
  type StripeConnectResult,
  type StripeKeys,
} from '@ledgerline/contract';
import { randomBytes } from 'node:crypto';
import { AppError, ConflictError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { Credentials } from './payment-providers.service.js';
import {
  badRequest,
  exchangeLog,
  issueState,
  reach,
  spendState,
  uniqueName,
  type ConnectionSupport,
  type StateOwner,
  type Transactions,
} from './provider-connections.support.js';

const stripeConnectNotConfigured =
  'Stripe Connect is not set up on this server yet: ask the operator to set STRIPE_CONNECT_CLIENT_ID.';

const notConnected = () => new ConflictError(messages.notConnected, 'StripeNotConnected');

const stripeReturnOf = (c: ConnectionSupport) => `${c.deps.publicUrl}/stripe-connect/connect/oauth`;

function stripeCreateBody(c: ConnectionSupport, name: string) {
  return createPaymentProviderBody.parse({
    providerName: 'Stripe',
    name,
    enabled: true,
    displayPriority: 0,
    isTest: c.deps.clients.Stripe.isTestMode(),
    settings: {
      useStripeCustomer: true,
      storePayerPaymentMethod: true,
      saveCardOptionDefault: true,
    },
    credentials: {},
  });
}

/**
 * spec 3 §4 Start: Stripe's authorisation address with a state of the configuration id (or
 * empty), the mode (0 add, 1 edit), test or live, and a random part; the server keeps it.
 */
async function stripeStart(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  owner: StateOwner,
  paymentProviderId: string | null,
): Promise<{ url: string; state: string }> {
  const stripe = c.deps.clients.Stripe;
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
    if (paymentProviderId) await c.configurationOf(tx, scope, paymentProviderId, 'Stripe');
    await issueState(tx, scope, { owner, kind: 'Stripe', paymentProviderId }, state);
  });
  const url = new URL(stripe.authoriseUrl());
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    scope: 'read_write',
    state,
    redirect_uri: stripeReturnOf(c),
  }).toString();
  return { url: url.toString(), state };
}

/** Adds the connected account as a new configuration, or sets it on the edited one. */
async function saveStripeAccount(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  input: {
    configurationId: string | null;
    account: { id: string; displayName: string | null };
    exchanges: Parameters<ConnectionSupport['keep']>[3];
  },
): Promise<string> {
  const { providers, repository, events } = c.deps;
  const stripe = c.deps.clients.Stripe;
  const { configurationId, account } = input;
  const serverCredentials: Credentials = {
    stripeAccountId: account.id,
    connectClientId: stripe.clientId(),
  };
  return db.write(async (tx) => {
    let id: string;
    if (configurationId !== null) {
      await c.configurationOf(tx, scope, configurationId, 'Stripe');
      id = (await providers.setServerCredentials(tx, scope, configurationId, serverCredentials)).id;
    } else {
      const base = (account.displayName ?? account.id).slice(0, 90);
      const name = uniqueName(base, await repository.namesLike(tx, scope, base));
      try {
        id = (await providers.create(tx, scope, stripeCreateBody(c, name), serverCredentials)).id;
      } catch (error) {
        if (error instanceof AppError) throw badRequest(messages.unableToAddStripe);
        throw error;
      }
    }
    await events.insert(tx, scope, { id, providerName: 'Stripe' }, input.exchanges);
    return id;
  });
}

/** spec 3 §4, §5 the card connection return: state checks, code exchange, add or edit. */
async function stripeConnect(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  owner: StateOwner,
  input: { code: string; state: string },
): Promise<StripeConnectResult> {
  const stripe = c.deps.clients.Stripe;
  const parts = input.state.split('|');
  if (parts.length < 2) throw badRequest(messages.stateTwoItems);
  const [configurationId = '', mode, testOrLive] = parts;
  if (testOrLive !== undefined && (testOrLive === 'test') !== stripe.isTestMode())
    throw badRequest(messages.testModeMismatch);
  const editing = mode === '1';
  // The state this caller was given, spent before the code reaches Stripe. Its configuration id
  // is part of what was hashed, so it cannot be swapped.
  await db.record((tx) => spendState(tx, scope, owner, 'Stripe', input.state));
  // Checked before the code is spent: the configuration must be a card account link.
  const edited = editing
    ? (await db.read((tx) => c.configurationOf(tx, scope, configurationId, 'Stripe'))).row
    : null;
  const { exchanges, recorder } = exchangeLog();
  // A failed connection of an existing configuration still keeps what Stripe said.
  const fail = async (error: AppError): Promise<never> => {
    await c.keep(db, scope, edited, exchanges);
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
  const paymentProviderId = await saveStripeAccount(c, db, scope, {
    configurationId: editing ? configurationId : null,
    account,
    exchanges,
  });
  return { paymentProviderId, account: { id: account.id, displayName: account.displayName } };
}

async function stripeAccount(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  id: string,
): Promise<StripeAccountInfo> {
  const stripe = c.deps.clients.Stripe;
  const { row, credentials } = await db.read((tx) => c.configurationOf(tx, scope, id, 'Stripe'));
  const accountId = credentials.stripeAccountId;
  if (typeof accountId !== 'string' || accountId === '') throw notConnected();
  const { exchanges, recorder } = exchangeLog();
  const account = await reach(
    () => stripe.account(accountId, recorder),
    () => null,
  );
  await c.keep(db, scope, row, exchanges);
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
}

/** spec 3 §4: deauthorise at Stripe, then clear the account id. */
async function stripeDisconnect(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  id: string,
): Promise<void> {
  const { providers, events } = c.deps;
  const stripe = c.deps.clients.Stripe;
  const { row, credentials } = await db.read((tx) => c.configurationOf(tx, scope, id, 'Stripe'));
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
    await c.keep(db, scope, row, exchanges);
    throw refused;
  }
  await db.write(async (tx) => {
    await c.configurationOf(tx, scope, id, 'Stripe');
    await providers.setServerCredentials(tx, scope, id, { stripeAccountId: null });
    await events.insert(tx, scope, row, exchanges);
  }, 204);
}

/** spec 3 §4 the card provider's account link: keys, start, return, account, disconnect. */
export function createStripeConnection(c: ConnectionSupport) {
  const stripe = c.deps.clients.Stripe;
  return {
    stripeKeys: (): StripeKeys => ({
      isTestMode: stripe.isTestMode(),
      connectClientId: stripe.clientId(),
      authoriseUrl: stripe.authoriseUrl(),
    }),
    stripeRedirectUri: () => stripeReturnOf(c),
    stripeStart: stripeStart.bind(null, c),
    stripeConnect: stripeConnect.bind(null, c),
    stripeAccount: stripeAccount.bind(null, c),
    stripeDisconnect: stripeDisconnect.bind(null, c),
  };
}
