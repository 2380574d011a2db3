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
import type { CompanyScope } from '../company-settings/index.js';
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

/** spec 3 §2, §3, §5, §7 the Notifications page. */
export function createNotificationsService(deps: { repository: NotificationsRepository }) {
  const { repository } = deps;

  async function one(tx: Tx, scope: CompanyScope, id: string) {
    const [row] = await repository.recipients(tx, scope, id);
    if (!row) throw new NotFoundError(notificationMessages.recipientNotFound);
    return toRecipient(row);
  }

  return {
    async list(tx: Tx, scope: CompanyScope) {
      const [rows, availableUsers] = await Promise.all([
        repository.recipients(tx, scope),
        repository.availableUsers(tx, scope),
      ]);
      return { items: rows.map(toRecipient), availableUsers };
    },

    async add(tx: Tx, scope: CompanyScope, body: AddNotificationRecipientBody) {
      const existing = await repository.recipients(tx, scope);
      let userId: string | null = null;
      let emailAddress: string | null = null;
      if (body.type === 'LedgerlineUser') {
        if (!(await repository.userOfTenant(tx, scope, body.userId!)))
          throw new ValidationError({ userId: [notificationMessages.userNotFound] });
        userId = body.userId!;
        if (existing.some((row) => row.userId === userId))
          throw new ConflictError(notificationMessages.alreadyAdded, 'recipientExists');
      } else {
        emailAddress = body.emailAddress!.trim();
        const lower = emailAddress.toLowerCase();
        if (existing.some((row) => row.emailAddress?.toLowerCase() === lower))
          throw new ConflictError(notificationMessages.alreadyAdded, 'recipientExists');
      }
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

    async update(tx: Tx, scope: CompanyScope, id: string, switches: Switches) {
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

    async remove(tx: Tx, scope: CompanyScope, id: string) {
      if (!(await repository.remove(tx, scope, id)))
        throw new NotFoundError(notificationMessages.recipientNotFound);
    },

    async customer(tx: Tx, scope: CompanyScope) {
      return {
        notificationSettings: (await repository.customerSettings(tx, scope)).map((s) => ({
          notificationUserId: null,
          ...s,
        })),
      };
    },

    async saveCustomer(tx: Tx, scope: CompanyScope, switches: Switches) {
      applySwitches([], switches, isCustomerNotification);
      for (const s of switches)
        await repository.saveCustomerSetting(tx, scope, s.notificationName, s.isEnabled);
      return {
        notificationSettings: (await repository.customerSettings(tx, scope)).map((s) => ({
          notificationUserId: null,
          ...s,
        })),
      };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
