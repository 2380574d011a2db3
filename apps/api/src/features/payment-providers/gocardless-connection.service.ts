import {
  createPaymentProviderBody,
  providerConnectionMessages as messages,
  type GoCardlessCompleteResult,
  type GoCardlessCreditorInfo,
} from '@ledgerline/contract';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import {
  exchangeLog,
  issueState,
  reach,
  spendState,
  uniqueName,
  type ConnectionSupport,
  type StateOwner,
  type Transactions,
} from './provider-connections.support.js';

const goCardlessNotConfigured =
  'GoCardless is not set up on this server yet: ask the operator to set GOCARDLESS_CLIENT_ID and GOCARDLESS_CLIENT_SECRET.';

const verificationStatuses: Record<string, GoCardlessCreditorInfo['status']> = {
  successful: 'Successful',
  in_review: 'InReview',
  action_required: 'ActionRequired',
};

const goCardlessReturnOf = (c: ConnectionSupport) => `${c.deps.publicUrl}/gocardless/connect/oauth`;

/** GoCardless's authorisation address with a random state the server keeps for this caller. */
async function goCardlessStart(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  owner: StateOwner,
): Promise<{ url: string; state: string }> {
  const goCardless = c.deps.clients.GoCardless;
  // A server without the partner app's credentials cannot start the flow: a clear 422, not a 500.
  if (!goCardless.isConfigured())
    throw new AppError(422, 'Unprocessable Content', goCardlessNotConfigured, {
      errorCode: 'goCardlessNotConfigured',
    });
  const state = randomBytes(24).toString('base64url');
  await db.write((tx) =>
    issueState(tx, scope, { owner, kind: 'GoCardless', paymentProviderId: null }, state),
  );
  return { url: goCardless.authoriseUrl({ state, redirectUri: goCardlessReturnOf(c) }), state };
}

/** spec 3 §4 direct-debit connection: exchange the code, add the configuration. */
async function goCardlessComplete(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  owner: StateOwner,
  input: { code: string; state: string },
): Promise<GoCardlessCompleteResult> {
  const { providers, repository, events } = c.deps;
  const goCardless = c.deps.clients.GoCardless;
  const { code } = input;
  // The state this caller was given, spent before the code reaches GoCardless.
  await db.record((tx) => spendState(tx, scope, owner, 'GoCardless', input.state));
  let token: { accessToken: string; organisationId: string };
  // A refused code adds no configuration: its exchange has nothing to be kept with.
  const { exchanges, recorder } = exchangeLog();
  try {
    token = await goCardless.exchangeCode({ code, redirectUri: goCardlessReturnOf(c) }, recorder);
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
}

async function goCardlessCreditor(
  c: ConnectionSupport,
  db: Transactions,
  scope: DatasetScope,
  id: string,
): Promise<GoCardlessCreditorInfo> {
  const goCardless = c.deps.clients.GoCardless;
  const { row, credentials } = await db.read((tx) =>
    c.configurationOf(tx, scope, id, 'GoCardless'),
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
  await c.keep(db, scope, row, exchanges);
  if (!creditor) return unknown;
  const status = verificationStatuses[creditor.verificationStatus] ?? 'Unknown';
  return {
    organisationId,
    name: creditor.name,
    status,
    verifyUrl: status === 'ActionRequired' ? goCardless.verifyUrl() : null,
  };
}

/** spec 3 §4 the direct-debit provider's authorisation: start, completion, creditor. */
export function createGoCardlessConnection(c: ConnectionSupport) {
  return {
    goCardlessRedirectUri: () => goCardlessReturnOf(c),
    goCardlessStart: goCardlessStart.bind(null, c),
    goCardlessComplete: goCardlessComplete.bind(null, c),
    goCardlessCreditor: goCardlessCreditor.bind(null, c),
  };
}
