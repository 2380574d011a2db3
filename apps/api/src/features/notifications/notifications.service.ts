import {
  notificationMessages,
  userNotificationNames,
  type AddNotificationRecipientBody,
  type NotificationName,
  type NotificationRecipient,
  type NotificationRecipientType,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { DatasetScope } from '../../platform/scope.js';
import {
  isCustomerNotification,
  isUserNotification,
  type NotificationsRepository,
  type RecipientRow,
} from './notifications.repository.js';

type Switches = { notificationName: NotificationName; isEnabled: boolean }[];

function toRecipient(row: RecipientRow): NotificationRecipient {
  const enabled = new Set(row.enabled);
  return {
    id: row.id,
    type: row.type as NotificationRecipientType,
    userId: row.userId,
    emailAddress: row.type === 'LedgerlineUser' ? row.userEmailAddress : row.emailAddress,
    displayName: (row.type === 'LedgerlineUser' ? row.userDisplayName : row.emailAddress) ?? '',
    notificationSettings: userNotificationNames.map((name) => ({
      notificationUserId: row.id,
      notificationName: name,
      isEnabled: enabled.has(name),
    })),
  };
}

/** Applies switches to what was on; only the user notifications belong to a recipient. */
function applySwitches(
  current: readonly string[],
  switches: Switches,
  belongs: (name: NotificationName) => boolean,
) {
  const wrong = switches.find((s) => !belongs(s.notificationName));
  if (wrong)
    throw new ValidationError({ notificationSettings: [notificationMessages.notificationName] });
  const enabled = new Set(current as NotificationName[]);
  for (const s of switches) {
    if (s.isEnabled) enabled.add(s.notificationName);
    else enabled.delete(s.notificationName);
  }
  return userNotificationNames.filter((name) => enabled.has(name));
}

/** Who a new recipient is: a user of the tenant or an address, not yet a recipient. */
async function newRecipient(
  repository: NotificationsRepository,
  tx: Tx,
  scope: DatasetScope,
  body: AddNotificationRecipientBody,
) {
  const existing = await repository.recipients(tx, scope);
  if (body.type === 'LedgerlineUser') {
    if (!(await repository.userOfTenant(tx, scope, body.userId!)))
      throw new ValidationError({ userId: [notificationMessages.userNotFound] });
    const userId = body.userId!;
    if (existing.some((row) => row.userId === userId))
      throw new ConflictError(notificationMessages.alreadyAdded, 'recipientExists');
    return { userId, emailAddress: null };
  }
  const emailAddress = body.emailAddress!.trim();
  const lower = emailAddress.toLowerCase();
  if (existing.some((row) => row.emailAddress?.toLowerCase() === lower))
    throw new ConflictError(notificationMessages.alreadyAdded, 'recipientExists');
  return { userId: null, emailAddress };
}

/** The Customer tab's answer. */
async function customerTab(repository: NotificationsRepository, tx: Tx, scope: DatasetScope) {
  return {
    notificationSettings: (await repository.customerSettings(tx, scope)).map((s) => ({
      notificationUserId: null,
      ...s,
    })),
  };
}

/** spec 3 §2, §3, §5, §7 the Notifications page. */
export function createNotificationsService(deps: { repository: NotificationsRepository }) {
  const { repository } = deps;

  async function one(tx: Tx, scope: DatasetScope, id: string) {
    const [row] = await repository.recipients(tx, scope, id);
    if (!row) throw new NotFoundError(notificationMessages.recipientNotFound);
    return toRecipient(row);
  }

  return {
    async list(tx: Tx, scope: DatasetScope) {
      const [rows, availableUsers] = await Promise.all([
        repository.recipients(tx, scope),
        repository.availableUsers(tx, scope),
      ]);
      return { items: rows.map(toRecipient), availableUsers };
    },

    async add(tx: Tx, scope: DatasetScope, body: AddNotificationRecipientBody) {
      const { userId, emailAddress } = await newRecipient(repository, tx, scope, body);
      // spec 3 §3: a new recipient starts with every notification off.
      const enabled = applySwitches(
        [],
        (body.notificationSettings ?? []) as Switches,
        isUserNotification,
      );
      const id = uuidv7();
      await repository.insert(tx, scope, { id, type: body.type, userId, emailAddress, enabled });
      return one(tx, scope, id);
    },

    async update(tx: Tx, scope: DatasetScope, id: string, switches: Switches) {
      const [row] = await repository.recipients(tx, scope, id);
      if (!row) throw new NotFoundError(notificationMessages.recipientNotFound);
      await repository.setEnabled(
        tx,
        scope,
        id,
        applySwitches(row.enabled, switches, isUserNotification),
      );
      return one(tx, scope, id);
    },

    async remove(tx: Tx, scope: DatasetScope, id: string) {
      if (!(await repository.remove(tx, scope, id)))
        throw new NotFoundError(notificationMessages.recipientNotFound);
    },

    async customer(tx: Tx, scope: DatasetScope) {
      return customerTab(repository, tx, scope);
    },

    async saveCustomer(tx: Tx, scope: DatasetScope, switches: Switches) {
      applySwitches([], switches, isCustomerNotification);
      for (const s of switches)
        await repository.saveCustomerSetting(tx, scope, s.notificationName, s.isEnabled);
      return customerTab(repository, tx, scope);
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
