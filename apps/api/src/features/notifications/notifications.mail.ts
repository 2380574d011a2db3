import Big from 'big.js';
import { and, eq, inArray } from 'drizzle-orm';
import { currencyDecimalPlaces, type NotificationName } from '@ledgerline/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Tx } from '../../db/client.js';
import { datasets, tenantSettings } from '../../db/schema.js';
import { companyDetails, companyLogos, notificationDeliveries } from '../../db/schema-company.js';
import { payers, paymentTransactions } from '../../db/schema-receivables.js';
import type { Jobs } from '../../platform/jobs.js';
import { escapeHtml, subjectValue, type Mailer } from '../../platform/mail.js';
import type { CompanyScope } from '../company-settings/index.js';
import { createNotificationsRepository } from './notifications.repository.js';

/** A change of a payment's status that may be told to staff and to the payer. */
export interface PaymentStatusChange {
  paymentTransactionId: string;
  /**
   * The status the payment moved to; for a dispute (issue 19) what happened to it: Disputed
   * (opened), DisputeWon or DisputeLost.
   */
  status:
    | 'Paid'
    | 'Cancelled'
    | 'Failed'
    | 'Processing'
    | 'Pending'
    | 'Disputed'
    | 'DisputeWon'
    | 'DisputeLost';
  /** What moved it: a captured or cancelled Pending payment, or a provider's event. */
  from: 'Pending' | 'Provider';
  /** Told once per this key as well (a payment's second dispute is its own event): the dispute's reference. */
  key?: string;
}

export interface NotificationJob extends CompanyScope {
  paymentTransactionId: string;
  eventKey: string;
  notificationName: NotificationName;
  /** What the mail tells (a dispute's stage); absent for the payment notifications of spec 3 §3. */
  change?: PaymentStatusChange['status'];
}

export const notificationJob = 'notification.payment';

/** spec 3 §3: which notifications an event is, to staff and to the payer. */
export function notificationsOf(change: PaymentStatusChange): NotificationName[] {
  if (change.from === 'Pending') {
    if (change.status === 'Paid') return ['TenantPaymentSuccessful', 'PaymentPendingCompleted'];
    if (change.status === 'Cancelled') return ['PaymentPendingCancelled'];
    return [];
  }
  if (change.status === 'Paid') return ['TenantPaymentSuccessful'];
  if (change.status === 'Failed') return ['TenantPaymentFailed'];
  if (change.status === 'Processing') return ['TenantPaymentProcessing'];
  if (change.status === 'Pending') return ['TenantPaymentProcessing', 'PaymentPending'];
  if (
    change.status === 'Disputed' ||
    change.status === 'DisputeWon' ||
    change.status === 'DisputeLost'
  )
    return ['TenantPaymentDisputed'];
  return [];
}

const staff = new Set<NotificationName>([
  'TenantPaymentSuccessful',
  'TenantPaymentFailed',
  'TenantPaymentProcessing',
  'TenantPaymentDisputed',
]);

interface Wording {
  subject: string;
  lead: string;
}
function wordingOf(
  name: NotificationName,
  v: { amount: string; company: string; customer: string; reference: string },
  change?: PaymentStatusChange['status'],
): Wording {
  // Subjects take each value cleaned and bounded (issue 20 item 13: the customer's name is what a
  // payer typed); the lead, in the body, keeps it whole.
  const s = {
    amount: subjectValue(v.amount),
    company: subjectValue(v.company),
    customer: subjectValue(v.customer),
  };
  switch (name) {
    case 'TenantPaymentSuccessful':
      return {
        subject: `Payment received: ${s.amount} from ${s.customer}`,
        lead: `A payment of ${v.amount} from ${v.customer} was successful (reference ${v.reference}).`,
      };
    case 'TenantPaymentFailed':
      return {
        subject: `Payment failed: ${s.amount} from ${s.customer}`,
        lead: `A payment of ${v.amount} from ${v.customer} failed (reference ${v.reference}).`,
      };
    case 'TenantPaymentProcessing':
      return {
        subject: `Payment processing: ${s.amount} from ${s.customer}`,
        lead: `A payment of ${v.amount} from ${v.customer} is being processed (reference ${v.reference}).`,
      };
    case 'TenantPaymentDisputed':
      return change === 'DisputeWon'
        ? {
            subject: `Dispute won: ${v.amount} from ${v.customer}`,
            lead: `The dispute of the payment of ${v.amount} from ${v.customer} was won; the payment is paid again (reference ${v.reference}).`,
          }
        : change === 'DisputeLost'
          ? {
              subject: `Dispute lost: ${v.amount} from ${v.customer}`,
              lead: `The dispute of the payment of ${v.amount} from ${v.customer} was lost; the money went back to the payer's bank and its invoices owe again (reference ${v.reference}).`,
            }
          : {
              subject: `Payment disputed: ${v.amount} from ${v.customer}`,
              lead: `The payer's bank disputes the payment of ${v.amount} from ${v.customer} (reference ${v.reference}). Respond at the payment provider before its deadline.`,
            };
    case 'PaymentPending':
      return {
        subject: `Your payment of ${s.amount} to ${s.company} is pending`,
        lead: `Your payment of ${v.amount} to ${v.company} has been received and is pending (reference ${v.reference}).`,
      };
    case 'PaymentPendingCancelled':
      return {
        subject: `Your payment of ${s.amount} to ${s.company} was cancelled`,
        lead: `Your pending payment of ${v.amount} to ${v.company} was cancelled; no money was taken (reference ${v.reference}).`,
      };
    case 'PaymentPendingCompleted':
      return {
        subject: `Your payment of ${s.amount} to ${s.company} is complete`,
        lead: `Your pending payment of ${v.amount} to ${v.company} has been completed (reference ${v.reference}).`,
      };
  }
}

const logoCid = 'company-logo@ledgerline';

/** What every mail about a company carries: its name, logo and details (issue 13). */
export interface MailCompany {
  details: typeof companyDetails.$inferSelect | null;
  logo: typeof companyLogos.$inferSelect | null;
  companyName: string;
}

/** The company's details, logo and name, read in the mail's transaction. */
export async function readMailCompany(tx: Tx, scope: CompanyScope): Promise<MailCompany> {
  const [details] = await tx
    .select()
    .from(companyDetails)
    .where(
      and(
        eq(companyDetails.tenantId, scope.tenantId),
        eq(companyDetails.datasetId, scope.datasetId),
      ),
    );
  const [logo] = await tx
    .select()
    .from(companyLogos)
    .where(
      and(eq(companyLogos.tenantId, scope.tenantId), eq(companyLogos.datasetId, scope.datasetId)),
    );
  const [company] = await tx
    .select({ name: datasets.name })
    .from(datasets)
    .where(and(eq(datasets.tenantId, scope.tenantId), eq(datasets.id, scope.datasetId)));
  return {
    details: details ?? null,
    logo: logo ?? null,
    companyName: details?.name ?? company?.name ?? 'Ledgerline',
  };
}

/**
 * A mail's text and HTML parts in the company's layout: the logo (inline), the body's lines, a
 * link, and the company's name and details as the footer.
 */
export function companyMail(
  company: MailCompany,
  body: readonly string[],
  link: { label: string; url: string } | null,
) {
  const d = company.details;
  const footer = [
    company.companyName,
    d?.address1,
    d?.address2,
    d?.city,
    d?.state,
    d?.postCode,
    d?.country,
    d?.email,
    d?.telephone,
    d?.website,
    d?.taxCode ? `Tax code ${d.taxCode}` : null,
  ].filter((line): line is string => !!line);
  const text =
    [...body, '', link ? `${link.label}: ${link.url}` : null, '', '--', ...footer]
      .filter((line) => line !== null)
      .join('\n') + '\n';
  const html =
    (company.logo
      ? `<p><img src="cid:${logoCid}" alt="${escapeHtml(company.companyName)}" style="max-height:64px"></p>`
      : '') +
    body.map((line) => (line === '' ? '' : `<p>${escapeHtml(line)}</p>`)).join('') +
    (link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : '') +
    `<hr><p>${footer.map(escapeHtml).join('<br>')}</p>`;
  const attachments = company.logo
    ? [
        {
          filename: company.logo.fileName,
          content: company.logo.data,
          contentType: company.logo.fileType,
          cid: logoCid,
        },
      ]
    : undefined;
  return { text, html, attachments };
}

interface Prepared extends MailCompany {
  payment: typeof paymentTransactions.$inferSelect & { payerEmail: string | null };
  addresses: string[];
}

/**
 * Real mail about payments (issue 13): after the commit that changed a payment, one job per
 * notification that is on; the job mails each address once per event (notification_deliveries),
 * so a retry after a failure sends only what is missing.
 */
export function createPaymentNotifications(deps: {
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}) {
  const { database, jobs, mailer, publicUrl, log } = deps;
  const repository = createNotificationsRepository();

  async function allowed(tx: Tx, tenantId: string) {
    const rows = await tx
      .select({ name: tenantSettings.name, value: tenantSettings.value })
      .from(tenantSettings)
      .where(
        and(
          eq(tenantSettings.tenantId, tenantId),
          inArray(tenantSettings.name, [
            'AllowInternalNotifications',
            'AllowCustomerNotifications',
          ]),
        ),
      );
    const value = (name: string) => rows.find((row) => row.name === name)?.value === 'true';
    return {
      internal: value('AllowInternalNotifications'),
      customer: value('AllowCustomerNotifications'),
    };
  }

  async function payment(tx: Tx, scope: CompanyScope, id: string) {
    const t = paymentTransactions;
    const [row] = await tx
      .select({ payment: t, payerEmail: payers.emailAddress })
      .from(t)
      .leftJoin(
        payers,
        and(
          eq(payers.tenantId, t.tenantId),
          eq(payers.datasetId, t.datasetId),
          eq(payers.id, t.payerId),
        ),
      )
      .where(and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId), eq(t.id, id)));
    if (!row) return null;
    const details = (row.payment.customerDetails ?? {}) as { emailAddress?: string | null };
    return {
      ...row.payment,
      payerEmail: details.emailAddress?.trim() || row.payerEmail?.trim() || null,
    };
  }

  /** The addresses a notification goes to now; none when the contract or the switches say no. */
  async function addressesOf(
    tx: Tx,
    scope: CompanyScope,
    name: NotificationName,
    payerEmail: string | null,
  ): Promise<string[]> {
    const allow = await allowed(tx, scope.tenantId);
    if (staff.has(name)) {
      if (!allow.internal) return [];
      const recipients = await repository.recipients(tx, scope);
      const addresses = recipients
        .filter((row) => row.enabled.includes(name))
        .map((row) => (row.type === 'LedgerlineUser' ? row.userEmailAddress : row.emailAddress))
        .filter((address): address is string => !!address);
      return [...new Set(addresses)];
    }
    if (!allow.customer || !payerEmail) return [];
    const settings = await repository.customerSettings(tx, scope);
    return settings.some((s) => s.notificationName === name && s.isEnabled) ? [payerEmail] : [];
  }

  async function deliver(job: NotificationJob) {
    const scope = { tenantId: job.tenantId, datasetId: job.datasetId };
    const prepared = await database.withTenant(
      scope.tenantId,
      async (tx): Promise<Prepared | null> => {
        const found = await payment(tx, scope, job.paymentTransactionId);
        if (!found) return null;
        const addresses = await addressesOf(tx, scope, job.notificationName, found.payerEmail);
        const sent = await tx
          .select({ emailAddress: notificationDeliveries.emailAddress })
          .from(notificationDeliveries)
          .where(
            and(
              eq(notificationDeliveries.tenantId, scope.tenantId),
              eq(notificationDeliveries.datasetId, scope.datasetId),
              eq(notificationDeliveries.eventKey, job.eventKey),
              eq(notificationDeliveries.notificationName, job.notificationName),
            ),
          );
        const already = new Set(sent.map((row) => row.emailAddress));
        return {
          payment: found,
          addresses: addresses.filter((address) => !already.has(address)),
          ...(await readMailCompany(tx, scope)),
        };
      },
    );
    if (!prepared) return; // the payment's company was deleted before the mail went out
    for (const to of prepared.addresses) {
      await mailer.send({ to, ...compose(job, prepared) });
      await database.withTenant(scope.tenantId, (tx) =>
        tx
          .insert(notificationDeliveries)
          .values({
            ...scope,
            eventKey: job.eventKey,
            notificationName: job.notificationName,
            emailAddress: to,
          })
          .onConflictDoNothing(),
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

  function compose(job: NotificationJob, p: Prepared) {
    const amount = `${p.payment.currency} ${new Big(p.payment.totalAmount).toFixed(currencyDecimalPlaces(p.payment.currency))}`;
    const customer = p.payment.customerName ?? p.payment.companyName ?? 'a customer';
    const wording = wordingOf(
      job.notificationName,
      {
        amount,
        company: p.companyName,
        customer,
        reference: p.payment.ledgerlineReference,
      },
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

  /**
   * The same for several payments of one company (a batch of provider notifications): the
   * company's switches and recipients are read once for all, in one read with the payments.
   */
  async function paymentStatusesChanged(scope: CompanyScope, changes: PaymentStatusChange[]) {
    const wanted = changes.map((change) => ({ change, names: notificationsOf(change) }));
    if (wanted.every((w) => w.names.length === 0)) return;
    const anyStaff = wanted.some((w) => w.names.some((name) => staff.has(name)));
    const anyCustomer = wanted.some((w) => w.names.some((name) => !staff.has(name)));
    // A read: no transaction to begin and commit after every settled payment.
    const on = await database.readAsTenant(scope.tenantId, async (tx) => {
      const t = paymentTransactions;
      const ids = [...new Set(changes.map((change) => change.paymentTransactionId))];
      const [rows, allow, recipients, settings] = await Promise.all([
        tx
          .select({ id: t.id, customerDetails: t.customerDetails, payerEmail: payers.emailAddress })
          .from(t)
          .leftJoin(
            payers,
            and(
              eq(payers.tenantId, t.tenantId),
              eq(payers.datasetId, t.datasetId),
              eq(payers.id, t.payerId),
            ),
          )
          .where(
            and(
              eq(t.tenantId, scope.tenantId),
              eq(t.datasetId, scope.datasetId),
              inArray(t.id, ids),
            ),
          ),
        allowed(tx, scope.tenantId),
        anyStaff ? repository.recipients(tx, scope) : [],
        anyCustomer ? repository.customerSettings(tx, scope) : [],
      ]);
      const payerEmailOf = new Map(
        rows.map((row) => {
          const details = (row.customerDetails ?? {}) as { emailAddress?: string | null };
          return [row.id, details.emailAddress?.trim() || row.payerEmail?.trim() || null] as const;
        }),
      );
      // addressesOf's rule, from what was read once.
      const hasAddresses = (name: NotificationName, payerEmail: string | null) => {
        if (staff.has(name))
          return (
            allow.internal &&
            recipients.some(
              (row) =>
                row.enabled.includes(name) &&
                !!(row.type === 'LedgerlineUser' ? row.userEmailAddress : row.emailAddress),
            )
          );
        return (
          allow.customer &&
          !!payerEmail &&
          settings.some((x) => x.notificationName === name && x.isEnabled)
        );
      };
      return wanted.flatMap(({ change, names }) => {
        if (!payerEmailOf.has(change.paymentTransactionId)) return [];
        const payerEmail = payerEmailOf.get(change.paymentTransactionId)!;
        return names
          .filter((name) => hasAddresses(name, payerEmail))
          .map((notificationName) => ({ change, notificationName }));
      });
    });
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
    register: () => jobs.work<NotificationJob>(notificationJob, deliver),
    /** The job's work: what a retry of the same job runs again. */
    deliver,

    /** Call after the commit that changed the payment (style.md §7): one job per notification that is on. */
    paymentStatusChanged: (scope: CompanyScope, change: PaymentStatusChange) =>
      paymentStatusesChanged(scope, [change]),
    paymentStatusesChanged,
  };
}
export type PaymentNotifications = ReturnType<typeof createPaymentNotifications>;
