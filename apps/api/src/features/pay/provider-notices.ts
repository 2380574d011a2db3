import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import { providerNotifications } from '../../db/schema-pay.js';
import { paymentProviders } from '../../db/schema-providers.js';
import { paymentTransactions } from '../../db/schema-receivables.js';
import { uuidPattern } from '@ledgerline/contract';
import type { Jobs } from '../../platform/jobs.js';
import type {
  CheckoutConfiguration,
  CheckoutPaymentStatus,
  CheckoutRegistry,
  NotificationEvent,
  NotificationReply,
  PaymentSecret,
} from '../../providers/checkout.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { PayRepository, PayScope, ProviderRow } from './pay.repository.js';
import { noPayment, type PaymentFinish } from './finish.js';
import { isMoneyBack, type MoneyBack, type MoneyBackNotice } from './money-back.js';
import type { PaymentStatusChange } from '../notifications/index.js';
import { inDataset } from '../../platform/scope.js';

/** A move finish.ts finishIn made, for its afterMoves once committed. */
type SettledMove = Awaited<ReturnType<PaymentFinish['finishIn']>>;

/** The safety net's job (its name predates the notices' name: queued jobs keep it). */
export const providerNoticeJob = 'pay.provider-notifications';

interface NotificationJob extends PayScope {
  /** Why the job was sent (the first new notification's id), for the log. */
  notificationId: string;
}

interface Summary {
  paymentTransactionId: string | null;
  providerReference: string | null;
  status: CheckoutPaymentStatus | null;
  errorMessage: string | null;
  /** What the provider says was taken, where it says (issue 20 item 10); absent on older rows. */
  amount?: string | null;
  currency?: string | null;
  /** The money went back after the payment had succeeded (lifecycle.ts lateFailure). */
  lateFailure?: boolean;
  /** Issue 19: a refund or dispute the event reports (money-back.ts settles these). */
  refund?: NotificationEvent['refund'];
  dispute?: NotificationEvent['dispute'];
}

export type ReceiveAnswer =
  | { kind: 'unknown' }
  | { kind: 'refused'; statusCode: number; body: string; contentType?: string }
  | { kind: 'received'; events: number; stored: number; reply?: NotificationReply };

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

/** Notifications of one company settled side by side (each in its own transaction). */
const drainConcurrency = 8;
const drainBatch = 200;
/** At most this many notifications are settled in one transaction; a few at least, when there are. */
const groupBatch = 25;
const minimumGroup = 4;
/** How long a drain that found new notifications arriving waits for the next few. */
const gatherMs = 20;
/** The safety net job's delay, and how long before it is due the next notification sends another. */
const safetyNetSeconds = 30;
const safetyNetMargin = 10;

/**
 * Provider notifications (issue 14): `POST webhooks/{provider}/{configurationId}`. The signature
 * is verified by the provider's adapter before anything is read; each event is stored once per
 * (provider, event id) and answered at once; this process then settles the new ones through the
 * completion path, exactly once each (the settle transaction claims the row), with a delayed job
 * per company as the safety net should it stop first.
 */
export function createProviderNotices(deps: {
  database: Database;
  jobs: Jobs;
  repository: PayRepository;
  checkouts: CheckoutRegistry;
  /** The configuration's credentials in clear (payment-providers withCredentials). */
  withCredentials: (row: ProviderRow) => { row: ProviderRow; credentials: Record<string, unknown> };
  finish: PaymentFinish;
  /** Issue 19: refunds, disputes and late failures the notifications report. */
  moneyBack?: MoneyBack;
  /** Seals and opens per-payment provider secrets (Opayo Server's SecurityKey). */
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  /** `<PUBLIC_URL>`: the payer page's return addresses some providers must be answered with. */
  publicUrl: string;
  log: FastifyBaseLogger;
}) {
  const { database, jobs, repository, checkouts, finish, log } = deps;

  /**
   * The configurations deliveries were addressed to lately, by id, their credentials opened
   * (issue 19: a look-up and a decryption per delivery were most of the intake's cost). Never
   * trusted blindly: every event stored under a remembered configuration is stored only if the
   * configuration is still as remembered (guardOf), else the delivery is answered again from a
   * fresh look-up. So an event is never accepted with credentials or a configuration that changed
   * or went (in this process or another), and the entry lasts only to bound the memory.
   */
  const locatedConfigurations = new Map<
    string,
    { row: ProviderRow; configuration: CheckoutConfiguration; expires: number }
  >();
  async function locate(id: string, fresh: boolean) {
    const now = Date.now();
    const known = fresh ? undefined : locatedConfigurations.get(id);
    if (known && known.expires > now) return { ...known, remembered: true };
    const row = await repository.locateConfiguration(database.db, id);
    if (!row) {
      locatedConfigurations.delete(id);
      return null;
    }
    const entry = { row, configuration: configurationOf(row), expires: now + rememberedMs };
    if (locatedConfigurations.size >= 1_000) locatedConfigurations.clear();
    locatedConfigurations.set(id, entry);
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

  async function receive(
    input: {
      provider: string;
      configurationId: string;
      headers: Record<string, string | string[] | undefined>;
      rawBody: Buffer;
      url: string;
    },
    fresh = false,
  ): Promise<ReceiveAnswer> {
    if (!uuidPattern.test(input.configurationId)) return { kind: 'unknown' };
    const adapter = checkouts.forProvider(input.provider);
    if (!adapter?.verifyNotification) return { kind: 'unknown' };
    const found = await locate(input.configurationId, fresh);
    if (!found || found.row.providerName.toLowerCase() !== adapter.name.toLowerCase())
      return { kind: 'unknown' };
    const { configuration, row: located } = found;
    const row = located;
    const pathScope: PayScope = { tenantId: located.tenantId, datasetId: located.datasetId };
    // Nothing of the body is read before its signature holds (a provider that signs with each
    // payment's own secret names the payment first: only this configuration's payments are found).
    const verified = await adapter.verifyNotification({
      headers: input.headers,
      rawBody: input.rawBody,
      configuration,
      url: input.url,
      paymentSecret: (providerReference) => paymentSecretOf(pathScope, row.id, providerReference),
      publicUrl: deps.publicUrl,
    });
    if (!verified.ok)
      return {
        kind: 'refused',
        statusCode: verified.statusCode,
        body: verified.body,
        ...(verified.contentType ? { contentType: verified.contentType } : {}),
      };
    // Each event is stored with the company and configuration it belongs to: the path's, or for a
    // platform-wide provider the one of the payment it names (ownerOf).
    const owners = new Map<
      string,
      { scope: PayScope; configurationId: string; events: NotificationEvent[] }
    >();
    let refusedEvents = 0;
    for (const event of verified.events) {
      const owner = await ownerOf(adapter, located, configuration, event);
      if (!owner) {
        refusedEvents++;
        log.warn(
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
    let storedCount = 0;
    for (const owner of owners.values()) {
      // What the provider added to the payment's secret (Opayo's TxAuthNo) is kept in the same
      // transaction as the event that brought it; every other delivery takes the one-write path.
      const secret = verified.secret && owner.configurationId === row.id ? verified.secret : null;
      const statement = storeStatement(
        owner.scope,
        adapter.name,
        found.remembered && owner.configurationId === row.id ? guardOf(row) : owner.configurationId,
        owner.events,
      );
      let stored: string[];
      try {
        stored = secret
          ? await database.withTenant(owner.scope.tenantId, async (tx) => {
              const rows = (
                (await tx.execute(statement)) as unknown as { rows: { id: string }[] }
              ).rows.map((row) => row.id);
              if (rows.length > 0)
                await repository.storeSecret(
                  tx,
                  owner.scope,
                  secret.paymentTransactionId,
                  deps.secrets.seal(secret.secret),
                );
              return rows;
            })
          : (await database.writeAsTenant(owner.scope.tenantId, statement)).map(
              (row) => row.id as string,
            );
      } catch (error) {
        // The remembered configuration changed or went since: nothing of this owner's events
        // was stored. The whole delivery again, from a fresh look-up (what another owner's store
        // kept already is kept once: the store skips events it has).
        if (found.remembered && isStaleGuard(error)) {
          locatedConfigurations.delete(row.id);
          return receive(input, true);
        }
        throw error;
      }
      storedCount += stored.length;
      if (stored.length > 0) {
        // Settled at once in this process (a drain under way looks again before it ends)...
        startDrain(owner.scope);
        // ...and, durable before the provider hears 200, a job that will look should this
        // process stop first.
        await safetyNet(owner.scope, stored[0]!);
      }
    }
    return {
      kind: 'received',
      events: verified.events.length - refusedEvents,
      stored: storedCount,
      ...(verified.reply ? { reply: verified.reply } : {}),
    };
  }

  /** A payment of the notified configuration by the provider's reference, its secret opened. */
  async function paymentSecretOf(
    scope: PayScope,
    configurationId: string,
    providerReference: string,
  ): Promise<PaymentSecret | null> {
    const found = await database.readAsTenant(scope.tenantId, (tx) =>
      repository.paymentSecret(tx, scope, configurationId, providerReference),
    );
    if (!found) return null;
    return {
      paymentTransactionId: found.paymentTransactionId,
      ledgerlineReference: found.ledgerlineReference,
      secret: found.sealed ? deps.secrets.open(found.sealed) : null,
      returnUrl: found.paymentRequestId
        ? `${deps.publicUrl}/pay/${found.paymentRequestId}?payment=${found.paymentTransactionId}`
        : deps.publicUrl,
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
        ? await repository.locatePaymentConfiguration(database.db, id)
        : null;
    if (!payment?.paymentProviderId) {
      // Not ours by id: only the path configuration's own account may speak about its references.
      const pathAccount = adapter.accountOf(pathConfiguration);
      return event.account && pathAccount && event.account !== pathAccount ? null : pathOwner;
    }
    const owning =
      payment.paymentProviderId === located.id
        ? located
        : await repository.locateConfiguration(database.db, payment.paymentProviderId);
    if (
      !owning ||
      owning.tenantId !== payment.tenantId ||
      owning.providerName.toLowerCase() !== adapter.name.toLowerCase()
    )
      return null;
    const account = adapter.accountOf(
      owning.id === located.id ? pathConfiguration : configurationOf(owning),
    );
    // The provider names the account on every merchant event; an event without one is only
    // trusted for the path's own configuration (the per-configuration endpoint's old rule).
    if (event.account ? event.account !== account : owning.id !== located.id) return null;
    return {
      scope: { tenantId: payment.tenantId, datasetId: payment.datasetId },
      configurationId: owning.id,
    };
  }

  function configurationOf(row: ProviderRow): CheckoutConfiguration {
    const opened = deps.withCredentials(row);
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
    scope: PayScope,
    providerName: string,
    /** The id, or guardOf's statement for it. */
    configurationId: string | SQL,
    events: NotificationEvent[],
  ) {
    return database.db
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
          } satisfies Summary,
          payload: event.payload,
        })),
      )
      .onConflictDoNothing({
        target: [providerNotifications.providerName, providerNotifications.eventId],
      })
      .returning({ id: providerNotifications.id })
      .getSQL();
  }

  /** The payment a notification is about: by our id, else by the provider's reference, of that configuration only. */
  async function paymentOf(tx: Tx, scope: PayScope, configurationId: string, summary: Summary) {
    const t = paymentTransactions;
    const byId = summary.paymentTransactionId && uuidPattern.test(summary.paymentTransactionId);
    if (!byId && !summary.providerReference) return null;
    const [row] = await tx
      .select({ id: t.id })
      .from(t)
      .where(
        and(
          inDataset(t, scope),
          eq(t.paymentProviderId, configurationId),
          byId
            ? eq(t.id, summary.paymentTransactionId!)
            : eq(t.paymentProviderReference, summary.providerReference!),
        ),
      );
    return row?.id ?? null;
  }

  type NotificationRow = typeof providerNotifications.$inferSelect;

  /** What a notification says, for the completion path. */
  function settleArgs(notification: NotificationRow) {
    const summary = notification.summary as Summary;
    return {
      outcome: {
        // An event that says nothing about status is kept as a provider event and moves nothing.
        status: summary.status ?? 'Processing',
        providerReference: summary.providerReference,
        errorMessage: summary.errorMessage,
        notificationId: notification.id,
        reportsProcessing: summary.status === 'Processing',
        configurationId: notification.configurationId,
        amount: summary.amount ?? null,
        currency: summary.currency ?? null,
        lateFailure: summary.lateFailure === true,
        exchange: {
          eventType: notification.eventType,
          recordType: 'notification',
          recordId: notification.eventId,
          status: summary.status ?? 'unknown',
          payload: notification.payload,
        },
      },
      actor: { name: `${notification.providerName} notification` },
    };
  }

  /** Our own id, when the provider echoes it: straight to the completion path (which checks the configuration). */
  function ourPaymentId(notification: NotificationRow): string | null {
    const id = (notification.summary as Summary).paymentTransactionId;
    return id !== null && uuidPattern.test(id) ? id : null;
  }

  async function process(scope: PayScope, notification: NotificationRow) {
    const summary = notification.summary as Summary;
    // The provider's reference is looked up first.
    const paymentId =
      ourPaymentId(notification) ??
      (await database.readAsTenant(scope.tenantId, (tx) =>
        paymentOf(tx, scope, notification.configurationId, summary),
      ));
    if (!paymentId) {
      await database.withTenant(scope.tenantId, (tx) =>
        tx
          .update(providerNotifications)
          .set({ processedAt: new Date(), outcome: noPayment })
          .where(
            and(
              inDataset(providerNotifications, scope),
              eq(providerNotifications.id, notification.id),
              isNull(providerNotifications.processedAt),
            ),
          ),
      );
      return;
    }
    if (deps.moneyBack && isMoneyBack(summary)) {
      await deps.moneyBack.handle(scope, paymentId, noticeOf(notification));
      return;
    }
    const { outcome, actor } = settleArgs(notification);
    await finish.finish(scope, paymentId, outcome, actor);
  }

  /** What a stored notification about money going back says, for money-back.ts. */
  function noticeOf(notification: NotificationRow): MoneyBackNotice {
    const summary = notification.summary as Summary;
    return {
      notificationId: notification.id,
      configurationId: notification.configurationId,
      providerName: notification.providerName,
      eventId: notification.eventId,
      eventType: notification.eventType,
      payload: notification.payload,
      status: summary.status,
      errorMessage: summary.errorMessage,
      lateFailure: summary.lateFailure,
      refund: summary.refund,
      dispute: summary.dispute,
    };
  }

  /**
   * Several payments' notifications (whole lanes, each in arrival order): the lanes the batch path
   * can take (every row names our payment and none gives money back) in one transaction; the lanes
   * that give money back (issue 19: refunds, disputes, late failures, and whatever else their
   * payment was told beside) in another, each lane in a savepoint of its own (finishTogether); the
   * others one by one. When the batch fails (a deadlock on shared invoices, a bad row), its lanes go
   * one by one too, and so does a lane whose savepoint failed, so one bad notification holds up
   * only its own payment's.
   */
  async function processLanes(scope: PayScope, lanes: NotificationRow[][]) {
    const ours = (lane: NotificationRow[]) => lane.every((row) => ourPaymentId(row) !== null);
    const batchable = (lane: NotificationRow[]) =>
      ours(lane) && lane.every((row) => !isMoneyBack(row.summary as Summary));
    const batch = lanes.filter(batchable);
    const together = deps.moneyBack ? lanes.filter((lane) => !batchable(lane) && ours(lane)) : [];
    const oneByOne = lanes.filter((lane) => !batch.includes(lane) && !together.includes(lane));
    if (batch.flat().length > 1) {
      try {
        await finish.finishBatch(
          scope,
          batch
            .flat()
            .map((row) => ({ paymentTransactionId: ourPaymentId(row)!, ...settleArgs(row) })),
        );
      } catch (error) {
        log.warn(
          { err: error, ...scope, notifications: batch.flat().length },
          'provider notification batch failed: one by one',
        );
        oneByOne.push(...batch);
      }
    } else oneByOne.push(...batch);
    if (together.flat().length > 1) oneByOne.push(...(await finishTogether(scope, together)));
    else oneByOne.push(...together);
    let failure: unknown = null;
    for (const lane of oneByOne) {
      for (const row of lane) {
        try {
          await process(scope, row);
        } catch (error) {
          log.error({ err: error, notificationId: row.id }, 'provider notification failed');
          failure ??= error;
          break;
        }
      }
    }
    if (failure !== null) throw failure;
  }

  /**
   * Lanes that give money back (each row names our payment), in ONE transaction (issue 19: one
   * commit for the group, where each notification had its own): each lane in a savepoint, its rows
   * in arrival order through the same code as one by one (money-back.ts handleIn, finish.ts
   * finishIn), each claiming its stored notification. A lane that fails is rolled back to its
   * savepoint (its claims with it) and answered for one by one after the commit; when the
   * transaction itself fails, every lane is. The mails go after the commit. The lanes answered
   * for one by one.
   */
  async function finishTogether(
    scope: PayScope,
    lanes: NotificationRow[][],
  ): Promise<NotificationRow[][]> {
    const moneyBack = deps.moneyBack!;
    const failed: NotificationRow[][] = [];
    const moves: SettledMove[] = [];
    const changes: PaymentStatusChange[] = [];
    try {
      await database.withTenant(scope.tenantId, async (tx) => {
        // The notifications' provider events, outcomes and web hook events are written together
        // at the group's end (money-back.ts openGroup), a lane's dropped with its savepoint.
        moneyBack.openGroup(tx, scope);
        // The notifications giving money back are claimed, and the payments and requests locked,
        // all at once; each lane's first notification takes its payment as locked then.
        const { claimed, locked } = await moneyBack.claimAndLock(
          tx,
          scope,
          lanes.flat().flatMap((row) => (isMoneyBack(row.summary as Summary) ? [row.id] : [])),
          lanes.map((lane) => ourPaymentId(lane[0]!)!),
        );
        for (const lane of lanes) {
          const laneMoves: SettledMove[] = [];
          const laneChanges: PaymentStatusChange[] = [];
          moneyBack.startLane(tx);
          // The savepoint leaves now (its `then` sends it), ahead of the lane's first statement on
          // the same connection, and is answered with it (the connection pipelines them).
          const savepoint = tx
            .execute(sql.raw('savepoint notification_lane'))
            .then(() => undefined);
          // Awaited below on either path; marked handled meanwhile.
          savepoint.catch(() => undefined);
          try {
            for (const row of lane) {
              const paymentId = ourPaymentId(row)!;
              // The payment as locked before the lanes, for the first notification to move it
              // only (by its stored id: an id in capitals names the same payment).
              const before = locked.get(paymentId.toLowerCase());
              locked.delete(paymentId.toLowerCase());
              if (isMoneyBack(row.summary as Summary))
                await moneyBack.handleIn(tx, scope, paymentId, noticeOf(row), laneChanges, {
                  claimed: claimed.has(row.id),
                  locked: before,
                });
              else {
                // Its web hook events are written at once: those held before it go first (each
                // payment's events in the order of its moves).
                await moneyBack.writeHeldTells(tx);
                const { outcome, actor } = settleArgs(row);
                laneMoves.push(await finish.finishIn(tx, scope, paymentId, outcome, actor));
              }
            }
            await savepoint;
            await tx.execute(sql.raw('release savepoint notification_lane'));
            moneyBack.endLane(tx, true);
          } catch (error) {
            // Had the savepoint itself failed, the transaction is lost: the group goes one by one.
            await savepoint;
            await tx.execute(sql.raw('rollback to savepoint notification_lane'));
            await tx.execute(sql.raw('release savepoint notification_lane'));
            moneyBack.endLane(tx, false);
            // Claimed before its savepoint: unclaimed, so one by one settles it after the commit.
            await moneyBack.unclaim(
              tx,
              scope,
              lane.flatMap((row) => (claimed.has(row.id) ? [row.id] : [])),
            );
            log.warn(
              { err: error, ...scope, notificationId: lane[0]!.id },
              'provider notification lane failed in its group: one by one',
            );
            failed.push(lane);
            continue;
          }
          moves.push(...laneMoves);
          changes.push(...laneChanges);
        }
        await moneyBack.closeGroup(tx, scope);
      });
    } catch (error) {
      log.warn(
        { err: error, ...scope, notifications: lanes.flat().length },
        'provider notification group failed: one by one',
      );
      return lanes;
    }
    await Promise.all([finish.afterMoves(scope, moves), moneyBack.tellStaff(scope, changes)]);
    return failed;
  }

  /** The drains under way in this process, by company: a new notification asks them to look again. */
  const draining = new Map<string, { again: boolean; done: Promise<void> }>();
  /** Set when the app closes: drains take no new payment and no new drain starts. */
  let stopping = false;

  /**
   * The safety net (docs/decisions/086-provider-notifications-are-settled-inline.md "Provider notifications are settled inline"): a delayed job
   * per company that drains whatever is still unprocessed when it runs — what a stopped or crashed
   * process left. One is sent per company at most every `safetyNetSeconds - safetyNetMargin`
   * seconds, always due after the commit of every notification it covers (it is sent after
   * theirs, and runs `safetyNetSeconds` after it was sent). A notification stored while the send is
   * under way waits for that send.
   */
  const safetyNets = new Map<string, { at: number; sent: Promise<void> }>();
  function safetyNet(scope: PayScope, notificationId: string): Promise<void> {
    const key = `${scope.tenantId}:${scope.datasetId}`;
    const now = Date.now();
    const last = safetyNets.get(key);
    if (last && now - last.at < (safetyNetSeconds - safetyNetMargin) * 1000) return last.sent;
    if (safetyNets.size >= 10_000) safetyNets.clear();
    const sent = jobs.send<NotificationJob>(
      providerNoticeJob,
      { ...scope, notificationId },
      { startAfterSeconds: safetyNetSeconds },
    );
    safetyNets.set(key, { at: now, sent });
    // A failed send is not remembered: the next notification sends again.
    sent.catch(() => {
      if (safetyNets.get(key)?.sent === sent) safetyNets.delete(key);
    });
    return sent;
  }

  /** Runs a company's drain now, in the background; a failure is left to the safety net's job. */
  function startDrain(scope: PayScope) {
    if (stopping) return;
    drain(scope).catch((error: unknown) =>
      log.error({ err: error, ...scope }, 'provider notifications left to their job'),
    );
  }

  /** Settles every unprocessed notification of a company, oldest first, until none is left. */
  async function drain(scope: PayScope) {
    const key = `${scope.tenantId}:${scope.datasetId}`;
    const running = draining.get(key);
    if (running) {
      running.again = true;
      return;
    }
    let finished!: () => void;
    const state = { again: true, done: new Promise<void>((resolve) => (finished = resolve)) };
    draining.set(key, state);
    try {
      while (state.again && !stopping) {
        state.again = false;
        await drainOnce(scope);
        // More came while it ran: a moment for the next few, so they settle in one transaction
        // rather than each in its own (a burst settles at a batch's cost per notification).
        if (state.again) await new Promise((resolve) => setTimeout(resolve, gatherMs));
      }
    } finally {
      draining.delete(key);
      finished();
    }
  }

  /**
   * The safety net's work: after any drain of the company under way in this process has ended
   * (an inline one that failed or was stopped says nothing), a drain of its own, which throws when
   * it did not finish, so pg-boss retries the job.
   */
  async function drainForJob(scope: PayScope) {
    const key = `${scope.tenantId}:${scope.datasetId}`;
    for (let running = draining.get(key); running; running = draining.get(key)) await running.done;
    await drain(scope);
    if (stopping)
      throw new Error('The process stopped before its provider notifications were settled.');
  }

  async function drainOnce(scope: PayScope) {
    for (;;) {
      const batch = await database.readAsTenant(scope.tenantId, (tx) =>
        tx
          .select()
          .from(providerNotifications)
          .where(
            and(inDataset(providerNotifications, scope), isNull(providerNotifications.processedAt)),
          )
          .orderBy(asc(providerNotifications.receivedAt), asc(providerNotifications.id))
          .limit(drainBatch),
      );
      if (batch.length === 0) return;
      // Events of one payment in arrival order; different payments side by side.
      const byPayment = new Map<string, (typeof batch)[number][]>();
      for (const row of batch) {
        const summary = row.summary as Summary;
        const key = summary.paymentTransactionId ?? summary.providerReference ?? row.id;
        byPayment.set(key, [...(byPayment.get(key) ?? []), row]);
      }
      // The lanes giving money back after the others (each lane is one payment's, so no order
      // between lanes matters): they then share a few groups, each one transaction with a few
      // statements of its own (finishTogether), instead of one small group beside every batch.
      const givesBack = (lane: NotificationRow[]) =>
        lane.some((row) => isMoneyBack(row.summary as Summary));
      const lanes = [
        ...[...byPayment.values()].filter((lane) => !givesBack(lane)),
        ...[...byPayment.values()].filter(givesBack),
      ];
      const width = database.kind === 'pglite' ? 1 : drainConcurrency;
      // Lanes go in groups of about `groupBatch` notices, one transaction each, spread
      // over the workers (a small backlog: smaller groups, every worker busy).
      const groupSize = Math.min(
        groupBatch,
        Math.max(minimumGroup, Math.ceil(batch.length / width)),
      );
      let next = 0;
      // Every group ends before the job does (a failed one stops the taking of new groups; the
      // others finish theirs), so nothing of a job runs on after it was given up or the process stops.
      let failure: unknown = null;
      await Promise.allSettled(
        Array.from({ length: Math.min(width, lanes.length) }, async () => {
          while (next < lanes.length && failure === null && !stopping) {
            const group: NotificationRow[][] = [];
            let size = 0;
            while (next < lanes.length && (size === 0 || size + lanes[next]!.length <= groupSize)) {
              size += lanes[next]!.length;
              group.push(lanes[next++]!);
            }
            try {
              await processLanes(scope, group);
            } catch (error) {
              failure = error;
            }
          }
        }),
      );
      // The job fails and is retried: what was not settled is still unprocessed.
      if (failure !== null) throw failure;
      if (batch.length < drainBatch || stopping) return;
    }
  }

  return {
    receive,
    drain,
    /** The app is closing: no new drain; waits for those under way to end their current payments. */
    async stop() {
      stopping = true;
      await Promise.all([...draining.values()].map((state) => state.done));
    },
    register: () =>
      jobs.work<NotificationJob>(providerNoticeJob, (job) =>
        drainForJob({ tenantId: job.tenantId, datasetId: job.datasetId }),
      ),
  };
}
export type ProviderNotices = ReturnType<typeof createProviderNotices>;
