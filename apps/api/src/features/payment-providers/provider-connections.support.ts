import {
  providerConnectionMessages as messages,
  secretSentinel,
  type PaymentProviderName,
} from '@ledgerline/contract';
import { createHash } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import type { ProviderExchange } from '../../providers/adapter.js';
import { AppError } from '../../platform/errors.js';
import { GoCardlessError } from '../../providers/gocardless/gocardless.connect.js';
import { ProviderUnreachableError } from '../../providers/http.js';
import type { OutgoingIp } from '../../providers/opayo/outgoing-ip.js';
import type { ProviderClients } from '../../providers/registry.js';
import { StripeError } from '../../providers/stripe/stripe.connect.js';
import type { DatasetScope } from '../../platform/scope.js';
import type { PaymentProvidersService } from './payment-providers.service.js';
import type { PaymentProvidersRepository } from './payment-providers.repository.js';
import type { PaymentProviderEventsRepository } from './payment-provider-events.repository.js';
import {
  insertOAuthState,
  oauthStateKnown,
  spendOAuthState,
  type OAuthKind,
} from './provider-oauth-states.repository.js';

/** The request's kinds of transaction: provider calls happen between them (style.md §7). */
export interface Transactions {
  read<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: Tx) => Promise<T>, successStatus?: number): Promise<T>;
  /** A transaction that only keeps provider events (of a read or a failed call): no audit. */
  record<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export interface ProviderConnectionsDeps {
  providers: PaymentProvidersService;
  repository: PaymentProvidersRepository;
  events: PaymentProviderEventsRepository;
  /** The providers' connection clients (providers/registry.ts). */
  clients: ProviderClients;
  publicUrl: string;
  /** The address Opayo sees this server's calls from (providers/opayo/outgoing-ip.ts). */
  opayoServerIp: () => Promise<OutgoingIp>;
}

/** The exchanges one call made, in order, for the configuration's provider events. */
export function exchangeLog() {
  const exchanges: ProviderExchange[] = [];
  return { exchanges, recorder: (exchange: ProviderExchange) => void exchanges.push(exchange) };
}

export const badRequest = (detail: string) => new AppError(400, 'Bad Request', detail);

/** How long an authorisation the server started may take to come back. */
export const oauthStateLifetimeMinutes = 15;

/** The caller an authorisation's state is bound to: its session, or its access key. */
export type StateOwner = string;

const stateHash = (state: string) => createHash('sha256').update(state).digest('hex');
const stateRefused = (detail: string) =>
  new AppError(400, 'Bad Request', detail, { errorCode: 'AuthorisationStateRefused' });

/** Keeps a new state's hash, bound to the caller and the company, for the lifetime above. */
export async function issueState(
  tx: Tx,
  scope: DatasetScope,
  input: { owner: StateOwner; kind: OAuthKind; paymentProviderId: string | null },
  state: string,
) {
  await insertOAuthState(tx, scope, {
    ...input,
    stateHash: stateHash(state),
    lifetimeMinutes: oauthStateLifetimeMinutes,
  });
}

/**
 * Spends a state once: it must be this company's, this caller's and of this provider, unused and
 * unexpired. A missing or foreign state is 'not started from this browser'; a spent or expired
 * one of this caller says so.
 */
export async function spendState(
  tx: Tx,
  scope: DatasetScope,
  owner: StateOwner,
  kind: OAuthKind,
  state: string,
): Promise<{ paymentProviderId: string | null }> {
  if (state === '') throw stateRefused(messages.stateMismatch);
  const key = { owner, kind, stateHash: stateHash(state) };
  const spent = await spendOAuthState(tx, scope, key);
  if (spent) return spent;
  const known = await oauthStateKnown(tx, scope, key);
  throw stateRefused(known ? messages.stateSpent : messages.stateMismatch);
}

/** spec 3 §4 "made unique by appending a counter": Name, Name 2, Name 3… */
export function uniqueName(base: string, taken: readonly string[]): string {
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
export async function reach<T>(call: () => Promise<T>, failed: (message: string) => T): Promise<T> {
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

/** What every connection flow and test does with the company's configurations and their events. */
export function createConnectionSupport(deps: ProviderConnectionsDeps) {
  const { providers, repository, events } = deps;

  /** A configuration of one kind with its credentials in clear (for the provider call only). */
  async function configurationOf(
    tx: Tx,
    scope: DatasetScope,
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
    scope: DatasetScope,
    configuration: { id: string; providerName: string } | null | undefined,
    exchanges: readonly ProviderExchange[],
  ) {
    if (!configuration || exchanges.length === 0) return;
    await db.record((tx) => events.insert(tx, scope, configuration, exchanges));
  }

  /** The configuration a connection test names, if it is this company's one of the kind. */
  async function keepForTest(
    db: Transactions,
    scope: DatasetScope,
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
    scope: DatasetScope,
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

  return { deps, configurationOf, keep, keepForTest, secretOf };
}
export type ConnectionSupport = ReturnType<typeof createConnectionSupport>;
