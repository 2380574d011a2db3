import Big from 'big.js';
import { currencyDecimalPlaces, type NotificationName } from '@ledgerline/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import type { DatasetScope } from '../../platform/scope.js';
import { companyMail, type MailCompany } from './company-mail.js';
import {
  createNotificationsRepository,
  deliveredAddresses,
  notificationSwitches,
  payerEmailsOf,
  paymentToNotify,
  readMailCompany,
  recordDelivery,
  type NotificationSwitches,
  type PaymentToNotify,
  type RecipientRow,
} from './notifications.repository.js';
import {
  notificationsOf,
  staffNotifications as staff,
  wordingOf,
  type PaymentStatusChange,
} from './payment-notices.js';

export interface NotificationJob extends DatasetScope {
  paymentTransactionId: string;
  eventKey: string;
  notificationName: NotificationName;
  /** What the mail tells (a dispute's stage); absent for the payment notifications of spec 3 §3. */
  change?: PaymentStatusChange['status'];
}

export const notificationJob = 'notification.payment';

interface Prepared extends MailCompany {
  payment: PaymentToNotify;
  addresses: string[];
}

interface Deps {
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

const repository = createNotificationsRepository();

/** The address a staff recipient is mailed at: the user's, or the one typed in. */
const recipientAddress = (row: RecipientRow) =>
  row.type === 'LedgerlineUser' ? row.userEmailAddress : row.emailAddress;

/** The addresses a notification goes to now; none when the contract or the switches say no. */
async function addressesOf(
  executor: Executor,
  scope: DatasetScope,
  name: NotificationName,
  payerEmail: string | null,
): Promise<string[]> {
  const allow = await notificationSwitches(executor, scope);
  if (staff.has(name)) {
    if (!allow.internal) return [];
    const recipients = await repository.recipients(executor, scope);
    const addresses = recipients
      .filter((row) => row.enabled.includes(name))
      .map(recipientAddress)
      .filter((address): address is string => !!address);
    return [...new Set(addresses)];
  }
  if (!allow.customer || !payerEmail) return [];
  const settings = await repository.customerSettings(executor, scope);
  return settings.some((s) => s.notificationName === name && s.isEnabled) ? [payerEmail] : [];
}

/** What a job mails: the payment, the addresses not yet mailed, and the company's layout. */
async function prepare(
  executor: Executor,
  scope: DatasetScope,
  job: NotificationJob,
): Promise<Prepared | null> {
  const found = await paymentToNotify(executor, scope, job.paymentTransactionId);
  if (!found) return null;
  const addresses = await addressesOf(executor, scope, job.notificationName, found.payerEmail);
  const already = await deliveredAddresses(executor, scope, job.eventKey, job.notificationName);
  return {
    payment: found,
    addresses: addresses.filter((address) => !already.has(address)),
    ...(await readMailCompany(executor, scope)),
  };
}

/** The mail of one notification: subject, text, HTML and the logo. */
function compose(publicUrl: string, job: NotificationJob, p: Prepared) {
  const amount = `${p.payment.currency} ${new Big(p.payment.totalAmount).toFixed(currencyDecimalPlaces(p.payment.currency))}`;
  const customer = p.payment.customerName ?? p.payment.companyName ?? 'a customer';
  const wording = wordingOf(
    job.notificationName,
    { amount, company: p.companyName, customer, reference: p.payment.ledgerlineReference },
    job.change,
  );
  const link = staff.has(job.notificationName)
    ? {
        label: 'Open the payment in Ledgerline',
        url: `${publicUrl}/rd?et=pt&eid=${p.payment.id}&ds=${job.datasetId}`,
      }
    : p.payment.paymentRequestId
      ? {
          label: 'View your payment request',
          url: `${publicUrl}/pay/${p.payment.paymentRequestId}`,
        }
      : null;
  return { subject: wording.subject, ...companyMail(p, [wording.lead], link) };
}

/** The job's work: mails each address once per event, so a retry sends only what is missing. */
async function deliver(deps: Deps, job: NotificationJob) {
  const { database, mailer, publicUrl, log } = deps;
  const scope = { tenantId: job.tenantId, datasetId: job.datasetId };
  const prepared = await database.withTenant(scope.tenantId, (tx) => prepare(tx, scope, job));
  if (!prepared) return; // the payment's company was deleted before the mail went out
  for (const to of prepared.addresses) {
    await mailer.send({ to, ...compose(publicUrl, job, prepared) });
    await database.withTenant(scope.tenantId, (tx) =>
      recordDelivery(tx, scope, {
        eventKey: job.eventKey,
        notificationName: job.notificationName,
        emailAddress: to,
      }),
    );
    log.info(
      {
        tenantId: scope.tenantId,
        datasetId: scope.datasetId,
        notification: job.notificationName,
        eventKey: job.eventKey,
      },
      'payment notification sent',
    );
  }
}

/** addressesOf's rule, from what was read once for several payments. */
function hasAddressesRule(
  allow: NotificationSwitches,
  recipients: RecipientRow[],
  settings: { notificationName: NotificationName; isEnabled: boolean }[],
) {
  return (name: NotificationName, payerEmail: string | null) => {
    if (staff.has(name))
      return (
        allow.internal &&
        recipients.some((row) => row.enabled.includes(name) && !!recipientAddress(row))
      );
    return (
      allow.customer &&
      !!payerEmail &&
      settings.some((x) => x.notificationName === name && x.isEnabled)
    );
  };
}

/** Which notifications of the changes have someone to mail, read in one read for all. */
async function notificationsOn(
  database: Database,
  scope: DatasetScope,
  changes: PaymentStatusChange[],
) {
  const wanted = changes.map((change) => ({ change, names: notificationsOf(change) }));
  if (wanted.every((w) => w.names.length === 0)) return [];
  const anyStaff = wanted.some((w) => w.names.some((name) => staff.has(name)));
  const anyCustomer = wanted.some((w) => w.names.some((name) => !staff.has(name)));
  // A read: no transaction to begin and commit after every settled payment.
  return database.readAsTenant(scope.tenantId, async (tx) => {
    const ids = [...new Set(changes.map((change) => change.paymentTransactionId))];
    const [payerEmails, allow, recipients, settings] = await Promise.all([
      payerEmailsOf(tx, scope, ids),
      notificationSwitches(tx, scope),
      anyStaff ? repository.recipients(tx, scope) : [],
      anyCustomer ? repository.customerSettings(tx, scope) : [],
    ]);
    const hasAddresses = hasAddressesRule(allow, recipients, settings);
    return wanted.flatMap(({ change, names }) => {
      if (!payerEmails.has(change.paymentTransactionId)) return [];
      const payerEmail = payerEmails.get(change.paymentTransactionId)!;
      return names
        .filter((name) => hasAddresses(name, payerEmail))
        .map((notificationName) => ({ change, notificationName }));
    });
  });
}

/**
 * Real mail about payments: after the commit that changed a payment, one job per notification
 * that is on; the job mails each address once per event (notification_deliveries), so a retry
 * after a failure sends only what is missing.
 */
export function createPaymentNotifications(deps: Deps) {
  const { database, jobs } = deps;

  /**
   * The same for several payments of one company (a batch of provider notifications): the
   * company's switches and recipients are read once for all, in one read with the payments.
   */
  async function paymentStatusesChanged(scope: DatasetScope, changes: PaymentStatusChange[]) {
    const on = await notificationsOn(database, scope, changes);
    for (const { change, notificationName } of on) {
      const eventKey = `${change.paymentTransactionId}:${change.from}:${change.status}${change.key ? `:${change.key}` : ''}`;
      await jobs.send<NotificationJob>(
        notificationJob,
        {
          ...scope,
          paymentTransactionId: change.paymentTransactionId,
          eventKey,
          notificationName,
          ...(notificationName === 'TenantPaymentDisputed' ? { change: change.status } : {}),
        },
        { singletonKey: `${eventKey}:${notificationName}` },
      );
    }
  }

  return {
    register: () => jobs.work<NotificationJob>(notificationJob, (job) => deliver(deps, job)),
    /** The job's work: what a retry of the same job runs again. */
    deliver: (job: NotificationJob) => deliver(deps, job),

    /** Call after the commit that changed the payment (style.md §7): one job per notification that is on. */
    paymentStatusChanged: (scope: DatasetScope, change: PaymentStatusChange) =>
      paymentStatusesChanged(scope, [change]),
    paymentStatusesChanged,
  };
}
export type PaymentNotifications = ReturnType<typeof createPaymentNotifications>;
