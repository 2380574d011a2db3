import { and, eq, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import { uuidPattern } from '@ledgerline/contract';
import type { Database } from '../../db/client.js';
import { providerNotifications } from '../../db/schema-pay.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { inDataset } from '../../platform/scope.js';
import type { SecretBox } from '../../platform/secrets.js';
import type {
  CheckoutConfiguration,
  CheckoutRegistry,
  NotificationEvent,
  NotificationReply,
  PaymentSecret,
} from '../../providers/checkout.js';
import type { PayRepository, PayScope, ProviderRow } from './pay.repository.js';
import type { NoticeSummary } from './provider-notices.repository.js';

/**
 * The intake of provider notices: `POST webhooks/{provider}/{configurationId}`. The signature is
 * verified by the provider's adapter before anything is read; each event is stored once per
 * (provider, event id) and answered at once (provider-notice-drain.ts then finishes them).
 */

export type ReceiveAnswer =
  | { kind: 'unknown' }
  | { kind: 'refused'; statusCode: number; body: string; contentType?: string }
  | { kind: 'received'; events: number; stored: number; reply?: NotificationReply };

export interface ReceiveInput {
  provider: string;
  configurationId: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  url: string;
}

export interface IntakeDeps {
  database: Database;
  repository: PayRepository;
  checkouts: CheckoutRegistry;
  /** The configuration's credentials in clear (payment-providers withCredentials). */
  withCredentials: (row: ProviderRow) => { row: ProviderRow; credentials: Record<string, unknown> };
  /** Seals and opens per-payment provider secrets (Opayo Server's SecurityKey). */
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  /** `<PUBLIC_URL>`: the payer page's return addresses some providers must be answered with. */
  publicUrl: string;
  log: FastifyBaseLogger;
  /** New notices of `scope` were stored (the first one's id): finished now, a safety net sent. */
  stored: (scope: PayScope, notificationId: string) => Promise<void>;
}

/** The intake and the configurations it remembers (locate). */
export interface Intake extends IntakeDeps {
  located: Map<string, { row: ProviderRow; configuration: CheckoutConfiguration; expires: number }>;
}

export const createIntake = (deps: IntakeDeps): Intake => ({ ...deps, located: new Map() });

/** How long the intake remembers a configuration it located (guardOf keeps it honest). */
const rememberedMs = 30_000;

/** A store refused because its configuration's guard (guardOf) found the row changed or gone. */
function isStaleGuard(error: unknown): boolean {
  const cause = ((error as { cause?: unknown }).cause ?? error) as {
    code?: string;
    column?: string;
  };
  return cause.code === '23502' && cause.column === 'configuration_id';
}

/**
 * The configurations deliveries were addressed to lately, by id, their credentials opened
 * (a look-up and a decryption per delivery were most of the intake's cost). Never
 * trusted blindly: every event stored under a remembered configuration is stored only if the
 * configuration is still as remembered (guardOf), else the delivery is answered again from a
 * fresh look-up. So an event is never accepted with credentials or a configuration that changed
 * or went (in this process or another), and the entry lasts only to bound the memory.
 */
async function locate(c: Intake, id: string, fresh: boolean) {
  const now = Date.now();
  const known = fresh ? undefined : c.located.get(id);
  if (known && known.expires > now) return { ...known, remembered: true };
  const row = await c.repository.locateConfiguration(c.database.db, id);
  if (!row) {
    c.located.delete(id);
    return null;
  }
  const entry = { row, configuration: configurationOf(c, row), expires: now + rememberedMs };
  if (c.located.size >= 1_000) c.located.clear();
  c.located.set(id, entry);
  return { ...entry, remembered: false };
}

/**
 * The configuration id to store with an event of a remembered configuration: the configuration's
 * id only while its row is as remembered (the company, provider, credentials, settings and test
 * flag that verified the event), else NULL, which configuration_id refuses (not null): the store
 * fails and the delivery is answered again afresh (isStaleGuard).
 */
function guardOf(row: ProviderRow): SQL {
  const p = paymentProviders;
  return sql`(select ${p.id} from ${p} where ${and(
    inDataset(p, row),
    eq(p.id, row.id),
    eq(p.providerName, row.providerName),
    eq(p.credentialsSealed, row.credentialsSealed),
    eq(p.isTest, row.isTest),
  )} and ${p.settings} = ${JSON.stringify(row.settings ?? {})}::jsonb)`;
}

type Adapter = NonNullable<ReturnType<CheckoutRegistry['forProvider']>>;
type Located = NonNullable<Awaited<ReturnType<typeof locate>>>;
type Verified = Extract<
  Awaited<ReturnType<NonNullable<Adapter['verifyNotification']>>>,
  { ok: true }
>;
interface Owner {
  scope: PayScope;
  configurationId: string;
  events: NotificationEvent[];
}

/**
 * Each event with the company and configuration it belongs to: the path's, or for a
 * platform-wide provider the one of the payment it names (ownerOf). Refused: those no one owns.
 */
async function ownersOf(c: Intake, adapter: Adapter, found: Located, events: NotificationEvent[]) {
  const { configuration, row } = found;
  const owners = new Map<string, Owner>();
  let refused = 0;
  for (const event of events) {
    const owner = await ownerOf(c, adapter, row, configuration, event);
    if (!owner) {
      refused++;
      c.log.warn(
        { provider: adapter.name, eventId: event.eventId, configurationId: row.id },
        'provider notification names a payment of another account: not applied',
      );
      continue;
    }
    const key = `${owner.scope.tenantId}:${owner.scope.datasetId}:${owner.configurationId}`;
    const entry = owners.get(key) ?? { ...owner, events: [] };
    entry.events.push(event);
    owners.set(key, entry);
  }
  return { owners: [...owners.values()], refused };
}

/** One owner's events stored: the new ones' ids. */
async function storeOwner(
  c: Intake,
  adapter: Adapter,
  found: Located,
  verified: Verified,
  owner: Owner,
): Promise<string[]> {
  const { row } = found;
  // What the provider added to the payment's secret (Opayo's TxAuthNo) is kept in the same
  // transaction as the event that brought it; every other delivery takes the one-write path.
  const secret = verified.secret && owner.configurationId === row.id ? verified.secret : null;
  const statement = storeStatement(
    c,
    owner.scope,
    adapter.name,
    found.remembered && owner.configurationId === row.id ? guardOf(row) : owner.configurationId,
    owner.events,
  );
  if (!secret)
    return (await c.database.writeAsTenant(owner.scope.tenantId, statement)).map(
      (row) => row.id as string,
    );
  return c.database.withTenant(owner.scope.tenantId, async (tx) => {
    const rows = ((await tx.execute(statement)) as unknown as { rows: { id: string }[] }).rows.map(
      (row) => row.id,
    );
    if (rows.length > 0)
      await c.repository.storeSecret(
        tx,
        owner.scope,
        secret.paymentTransactionId,
        c.secrets.seal(secret.secret),
      );
    return rows;
  });
}

export async function receive(
  c: Intake,
  input: ReceiveInput,
  fresh = false,
): Promise<ReceiveAnswer> {
  if (!uuidPattern.test(input.configurationId)) return { kind: 'unknown' };
  const adapter = c.checkouts.forProvider(input.provider);
  if (!adapter?.verifyNotification) return { kind: 'unknown' };
  const found = await locate(c, input.configurationId, fresh);
  if (!found || found.row.providerName.toLowerCase() !== adapter.name.toLowerCase())
    return { kind: 'unknown' };
  const { configuration, row } = found;
  const pathScope: PayScope = { tenantId: row.tenantId, datasetId: row.datasetId };
  // Nothing of the body is read before its signature holds (a provider that signs with each
  // payment's own secret names the payment first: only this configuration's payments are found).
  const verified = await adapter.verifyNotification({
    headers: input.headers,
    rawBody: input.rawBody,
    configuration,
    url: input.url,
    paymentSecret: (providerReference) => paymentSecretOf(c, pathScope, row.id, providerReference),
    publicUrl: c.publicUrl,
  });
  if (!verified.ok)
    return {
      kind: 'refused',
      statusCode: verified.statusCode,
      body: verified.body,
      ...(verified.contentType ? { contentType: verified.contentType } : {}),
    };
  const { owners, refused } = await ownersOf(c, adapter, found, verified.events);
  let storedCount = 0;
  for (const owner of owners) {
    let stored: string[];
    try {
      stored = await storeOwner(c, adapter, found, verified, owner);
    } catch (error) {
      // The remembered configuration changed or went since: nothing of this owner's events
      // was stored. The whole delivery again, from a fresh look-up (what another owner's store
      // kept already is kept once: the store skips events it has).
      if (found.remembered && isStaleGuard(error)) {
        c.located.delete(row.id);
        return receive(c, input, true);
      }
      throw error;
    }
    storedCount += stored.length;
    // Finished at once in this process, and a safety net's job sent before the provider hears 200.
    if (stored.length > 0) await c.stored(owner.scope, stored[0]!);
  }
  return {
    kind: 'received',
    events: verified.events.length - refused,
    stored: storedCount,
    ...(verified.reply ? { reply: verified.reply } : {}),
  };
}

/** A payment of the notified configuration by the provider's reference, its secret opened. */
async function paymentSecretOf(
  c: Intake,
  scope: PayScope,
  configurationId: string,
  providerReference: string,
): Promise<PaymentSecret | null> {
  const found = await c.database.readAsTenant(scope.tenantId, (tx) =>
    c.repository.paymentSecret(tx, scope, configurationId, providerReference),
  );
  if (!found) return null;
  return {
    paymentTransactionId: found.paymentTransactionId,
    ledgerlineReference: found.ledgerlineReference,
    secret: found.sealed ? c.secrets.open(found.sealed) : null,
    returnUrl: found.paymentRequestId
      ? `${c.publicUrl}/pay/${found.paymentRequestId}?payment=${found.paymentTransactionId}`
      : c.publicUrl,
  };
}

/**
 * Whose an event is. A provider with an endpoint per configuration: the path's configuration.
 * A platform-wide provider (Stripe Connect, GoCardless partner app: one endpoint and one secret
 * for every merchant, so the path's configuration says nothing): the configuration of the
 * payment our id in the event names, in whichever company it is — but only when the event comes
 * from that configuration's own merchant account, so one merchant's account cannot move another
 * company's payment by copying its id into metadata. An event without our id (or naming no
 * payment of ours) stays with the path's configuration, where only its provider reference can
 * match. Null: refused.
 */
async function ownerOf(
  c: Intake,
  adapter: NonNullable<ReturnType<CheckoutRegistry['forProvider']>>,
  located: ProviderRow,
  pathConfiguration: CheckoutConfiguration,
  event: NotificationEvent,
): Promise<{ scope: PayScope; configurationId: string } | null> {
  const pathOwner = {
    scope: { tenantId: located.tenantId, datasetId: located.datasetId },
    configurationId: located.id,
  };
  if (!adapter.accountOf) return pathOwner;
  const id = event.paymentTransactionId;
  const payment =
    id && uuidPattern.test(id)
      ? await c.repository.locatePaymentConfiguration(c.database.db, id)
      : null;
  if (!payment?.paymentProviderId) {
    // Not ours by id: only the path configuration's own account may speak about its references.
    const pathAccount = adapter.accountOf(pathConfiguration);
    return event.account && pathAccount && event.account !== pathAccount ? null : pathOwner;
  }
  const owning =
    payment.paymentProviderId === located.id
      ? located
      : await c.repository.locateConfiguration(c.database.db, payment.paymentProviderId);
  if (
    !owning ||
    owning.tenantId !== payment.tenantId ||
    owning.providerName.toLowerCase() !== adapter.name.toLowerCase()
  )
    return null;
  const account = adapter.accountOf(
    owning.id === located.id ? pathConfiguration : configurationOf(c, owning),
  );
  // The provider names the account on every merchant event; an event without one is only
  // trusted for the path's own configuration (the per-configuration endpoint's old rule).
  if (event.account ? event.account !== account : owning.id !== located.id) return null;
  return {
    scope: { tenantId: payment.tenantId, datasetId: payment.datasetId },
    configurationId: owning.id,
  };
}

function configurationOf(c: Intake, row: ProviderRow): CheckoutConfiguration {
  const opened = c.withCredentials(row);
  return {
    id: opened.row.id,
    isTest: opened.row.isTest,
    credentials: opened.credentials,
    settings: (opened.row.settings ?? {}) as Record<string, unknown>,
  };
}

/**
 * The events, each once per (provider, event id): ONE statement (`INSERT … ON CONFLICT DO
 * NOTHING RETURNING`) in its own transaction, sent with its BEGIN and COMMIT in one round trip.
 * The ids of those that are new.
 */
/** One INSERT of a delivery's events, each once per (provider, event id): the new ones' ids. */
function storeStatement(
  c: Intake,
  scope: PayScope,
  providerName: string,
  /** The id, or guardOf's statement for it. */
  configurationId: string | SQL,
  events: NotificationEvent[],
) {
  return c.database.db
    .insert(providerNotifications)
    .values(
      events.map((event) => ({
        ...scope,
        id: uuidv7(),
        providerName,
        eventId: event.eventId,
        configurationId,
        eventType: event.eventType,
        summary: {
          paymentTransactionId: event.paymentTransactionId,
          providerReference: event.providerReference,
          status: event.status,
          errorMessage: event.errorMessage ?? null,
          amount: event.amount ?? null,
          currency: event.currency ?? null,
          lateFailure: event.lateFailure ?? false,
          ...(event.refund ? { refund: event.refund } : {}),
          ...(event.dispute ? { dispute: event.dispute } : {}),
        } satisfies NoticeSummary,
        payload: event.payload,
      })),
    )
    .onConflictDoNothing({
      target: [providerNotifications.providerName, providerNotifications.eventId],
    })
    .returning({ id: providerNotifications.id })
    .getSQL();
}
