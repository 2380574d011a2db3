import { and, asc, eq, isNull } from 'drizzle-orm';
import {
  customerNotificationNames,
  userNotificationNames,
  type NotificationName,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { customerNotificationSettings, notificationRecipients } from '../../db/schema-company.js';
import type { CompanyScope } from '../company-settings/index.js';

export type RecipientRow = typeof notificationRecipients.$inferSelect & {
  userDisplayName: string | null;
  userEmailAddress: string | null;
};

/** Recipients and switches of spec 3 §3; every call takes the company's scope. */
export function createNotificationsRepository() {
  const r = notificationRecipients;
  const c = customerNotificationSettings;
  const company = (scope: CompanyScope) =>
    and(eq(r.tenantId, scope.tenantId), eq(r.datasetId, scope.datasetId));

  async function recipients(
    executor: Executor,
    scope: CompanyScope,
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
      .leftJoin(users, and(eq(users.tenantId, r.tenantId), eq(users.id, r.userId)))
      .where(id ? and(company(scope), eq(r.id, id)) : company(scope))
      .orderBy(asc(r.createdOn), asc(r.id));
  }

  return {
    recipients,

    /** The tenant's users that are active and not yet a recipient of the company. */
    async availableUsers(executor: Executor, scope: CompanyScope) {
      const rows = await executor
        .select({ id: users.id, displayName: users.displayName, emailAddress: users.emailAddress })
        .from(users)
        .where(and(eq(users.tenantId, scope.tenantId), isNull(users.disabledAt)))
        .orderBy(asc(users.displayName));
      const added = new Set((await recipients(executor, scope)).map((row) => row.userId));
      return rows.filter((user) => !added.has(user.id));
    },

    async userOfTenant(executor: Executor, scope: CompanyScope, userId: string) {
      const [row] = await executor
        .select({ id: users.id })
        .from(users)
        .where(
          and(eq(users.tenantId, scope.tenantId), eq(users.id, userId), isNull(users.disabledAt)),
        );
      return row ?? null;
    },

    async insert(
      executor: Executor,
      scope: CompanyScope,
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
      scope: CompanyScope,
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

    async remove(executor: Executor, scope: CompanyScope, id: string) {
      const rows = await executor
        .delete(r)
        .where(and(company(scope), eq(r.id, id)))
        .returning({ id: r.id });
      return rows.length > 0;
    },

    /** The Customer tab: every customer notification, on unless a row says off. */
    async customerSettings(executor: Executor, scope: CompanyScope) {
      const rows = await executor
        .select()
        .from(c)
        .where(and(eq(c.tenantId, scope.tenantId), eq(c.datasetId, scope.datasetId)));
      const off = new Set(rows.filter((row) => !row.isEnabled).map((row) => row.notificationName));
      return customerNotificationNames.map((name) => ({
        notificationName: name,
        isEnabled: !off.has(name),
      }));
    },

    async saveCustomerSetting(
      executor: Executor,
      scope: CompanyScope,
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
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;

export const isUserNotification = (name: NotificationName) =>
  (userNotificationNames as readonly string[]).includes(name);
export const isCustomerNotification = (name: NotificationName) =>
  (customerNotificationNames as readonly string[]).includes(name);
