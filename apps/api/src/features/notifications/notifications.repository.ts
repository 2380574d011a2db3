import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import {
  customerNotificationNames,
  userNotificationNames,
  type NotificationName,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { datasets, tenantSettings, users } from '../../db/schema.js';
import {
  companyDetails,
  companyLogos,
  customerNotificationSettings,
  notificationDeliveries,
  notificationRecipients,
} from '../../db/schema-company.js';
import { payers, paymentTransactions } from '../../db/schema-receivables.js';
import {
  inDataset,
  inTenant,
  sameDataset,
  sameTenant,
  type DatasetScope,
  type TenantScope,
} from '../../platform/scope.js';
import type { MailCompany } from './company-mail.js';

export type RecipientRow = typeof notificationRecipients.$inferSelect & {
  userDisplayName: string | null;
  userEmailAddress: string | null;
};

const r = notificationRecipients;
const c = customerNotificationSettings;
const company = (scope: DatasetScope) => inDataset(r, scope);

/** The company's recipients (or the one of id), with their user's name and address. */
async function recipients(
  executor: Executor,
  scope: DatasetScope,
  id?: string,
): Promise<RecipientRow[]> {
  return executor
    .select({
      tenantId: r.tenantId,
      datasetId: r.datasetId,
      id: r.id,
      type: r.type,
      userId: r.userId,
      emailAddress: r.emailAddress,
      enabled: r.enabled,
      createdOn: r.createdOn,
      userDisplayName: users.displayName,
      userEmailAddress: users.emailAddress,
    })
    .from(r)
    .leftJoin(users, and(sameTenant(users, r), eq(users.id, r.userId)))
    .where(id ? and(company(scope), eq(r.id, id)) : company(scope))
    .orderBy(asc(r.createdOn), asc(r.id));
}

/** The Customer tab: every customer notification, on unless a row says off. */
async function customerSettings(executor: Executor, scope: DatasetScope) {
  const rows = await executor.select().from(c).where(inDataset(c, scope));
  const off = new Set(rows.filter((row) => !row.isEnabled).map((row) => row.notificationName));
  return customerNotificationNames.map((name) => ({
    notificationName: name,
    isEnabled: !off.has(name),
  }));
}

async function saveCustomerSetting(
  executor: Executor,
  scope: DatasetScope,
  notificationName: NotificationName,
  isEnabled: boolean,
) {
  await executor
    .insert(c)
    .values({ ...scope, notificationName, isEnabled })
    .onConflictDoUpdate({
      target: [c.tenantId, c.datasetId, c.notificationName],
      set: { isEnabled },
    });
}

/** Recipients and switches of spec 3 §3; every call takes the company's scope. */
export function createNotificationsRepository() {
  return {
    recipients,

    /** The tenant's users that are active and not yet a recipient of the company. */
    async availableUsers(executor: Executor, scope: DatasetScope) {
      const rows = await executor
        .select({ id: users.id, displayName: users.displayName, emailAddress: users.emailAddress })
        .from(users)
        .where(and(inTenant(users, scope), isNull(users.disabledAt)))
        .orderBy(asc(users.displayName));
      const added = new Set((await recipients(executor, scope)).map((row) => row.userId));
      return rows.filter((user) => !added.has(user.id));
    },

    async userOfTenant(executor: Executor, scope: DatasetScope, userId: string) {
      const [row] = await executor
        .select({ id: users.id })
        .from(users)
        .where(and(inTenant(users, scope), eq(users.id, userId), isNull(users.disabledAt)));
      return row ?? null;
    },

    async insert(
      executor: Executor,
      scope: DatasetScope,
      values: {
        id: string;
        type: string;
        userId: string | null;
        emailAddress: string | null;
        enabled: NotificationName[];
      },
    ) {
      await executor.insert(r).values({ ...scope, ...values });
    },

    async setEnabled(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      enabled: NotificationName[],
    ) {
      const rows = await executor
        .update(r)
        .set({ enabled })
        .where(and(company(scope), eq(r.id, id)))
        .returning({ id: r.id });
      return rows.length > 0;
    },

    async remove(executor: Executor, scope: DatasetScope, id: string) {
      const rows = await executor
        .delete(r)
        .where(and(company(scope), eq(r.id, id)))
        .returning({ id: r.id });
      return rows.length > 0;
    },

    customerSettings,
    saveCustomerSetting,
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;

export const isUserNotification = (name: NotificationName) =>
  (userNotificationNames as readonly string[]).includes(name);
export const isCustomerNotification = (name: NotificationName) =>
  (customerNotificationNames as readonly string[]).includes(name);

/** The company's details, logo and name, read in the mail's transaction. */
export async function readMailCompany(
  executor: Executor,
  scope: DatasetScope,
): Promise<MailCompany> {
  const [details] = await executor
    .select()
    .from(companyDetails)
    .where(inDataset(companyDetails, scope));
  const [logo] = await executor.select().from(companyLogos).where(inDataset(companyLogos, scope));
  const [company] = await executor
    .select({ name: datasets.name })
    .from(datasets)
    .where(and(inTenant(datasets, scope), eq(datasets.id, scope.datasetId)));
  return {
    details: details ?? null,
    logo: logo ?? null,
    companyName: details?.name ?? company?.name ?? 'Ledgerline',
  };
}

/** The tenant's two switches (spec 3 §3): mails to staff, and mails to payers. */
export async function notificationSwitches(executor: Executor, scope: TenantScope) {
  const rows = await executor
    .select({ name: tenantSettings.name, value: tenantSettings.value })
    .from(tenantSettings)
    .where(
      and(
        inTenant(tenantSettings, scope),
        inArray(tenantSettings.name, ['AllowInternalNotifications', 'AllowCustomerNotifications']),
      ),
    );
  const value = (name: string) => rows.find((row) => row.name === name)?.value === 'true';
  return {
    internal: value('AllowInternalNotifications'),
    customer: value('AllowCustomerNotifications'),
  };
}
export type NotificationSwitches = Awaited<ReturnType<typeof notificationSwitches>>;

type CustomerDetails = { emailAddress?: string | null };
/** The payer's address: the one given at payment, else the payer's. */
const payerEmailOf = (customerDetails: unknown, payerEmail: string | null) =>
  (customerDetails as CustomerDetails | null)?.emailAddress?.trim() || payerEmail?.trim() || null;

/** A payment and the address its payer is mailed at; null when it is gone. */
export async function paymentToNotify(executor: Executor, scope: DatasetScope, id: string) {
  const t = paymentTransactions;
  const [row] = await executor
    .select({ payment: t, payerEmail: payers.emailAddress })
    .from(t)
    .leftJoin(payers, and(sameDataset(payers, t), eq(payers.id, t.payerId)))
    .where(and(inDataset(t, scope), eq(t.id, id)));
  if (!row) return null;
  return { ...row.payment, payerEmail: payerEmailOf(row.payment.customerDetails, row.payerEmail) };
}
export type PaymentToNotify = NonNullable<Awaited<ReturnType<typeof paymentToNotify>>>;

/** For each of the payments that exists, the address its payer is mailed at (or null). */
export async function payerEmailsOf(
  executor: Executor,
  scope: DatasetScope,
  ids: string[],
): Promise<Map<string, string | null>> {
  const t = paymentTransactions;
  const rows = await executor
    .select({ id: t.id, customerDetails: t.customerDetails, payerEmail: payers.emailAddress })
    .from(t)
    .leftJoin(payers, and(sameDataset(payers, t), eq(payers.id, t.payerId)))
    .where(and(inDataset(t, scope), inArray(t.id, ids)));
  return new Map(rows.map((row) => [row.id, payerEmailOf(row.customerDetails, row.payerEmail)]));
}

/** The addresses already mailed this notification of this event. */
export async function deliveredAddresses(
  executor: Executor,
  scope: DatasetScope,
  eventKey: string,
  notificationName: NotificationName,
): Promise<Set<string>> {
  const d = notificationDeliveries;
  const rows = await executor
    .select({ emailAddress: d.emailAddress })
    .from(d)
    .where(
      and(inDataset(d, scope), eq(d.eventKey, eventKey), eq(d.notificationName, notificationName)),
    );
  return new Set(rows.map((row) => row.emailAddress));
}

/** Records that an address was mailed this notification of this event. */
export async function recordDelivery(
  executor: Executor,
  scope: DatasetScope,
  delivery: { eventKey: string; notificationName: NotificationName; emailAddress: string },
) {
  await executor
    .insert(notificationDeliveries)
    .values({ tenantId: scope.tenantId, datasetId: scope.datasetId, ...delivery })
    .onConflictDoNothing();
}
