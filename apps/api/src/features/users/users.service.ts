import {
  defaultUserSetting,
  rolePermissions,
  userSettingSchema,
  type Role,
  type UserMe,
  type UserSetting,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { NotFoundError } from '../../platform/errors.js';
import type { UsersRepository } from './users.repository.js';

/** Stored settings may predate a newer list of formats: fall back field by field. */
function readSettings(stored: unknown): UserSetting {
  const merged = { ...defaultUserSetting, ...(stored as object) };
  const parsed = userSettingSchema.safeParse(merged);
  return parsed.success ? parsed.data : { ...defaultUserSetting };
}

/**
 * spec 1 §3 User (me) forename and surname when the identity provider gave none (docs/decisions/124-spec-1-row-by-row-logo-rules-user-update-body-to.md):
 * the display name's first word, and the rest of it (null for a one-word name).
 */
export function namesOfDisplayName(displayName: string): {
  forename: string | null;
  surname: string | null;
} {
  const [first, ...rest] = displayName.trim().split(/\s+/);
  return { forename: first || null, surname: rest.length > 0 ? rest.join(' ') : null };
}

export function createUsersService(deps: { repository: UsersRepository }) {
  const { repository } = deps;
  return {
    async me(tx: Tx, tenantId: string, userId: string): Promise<UserMe> {
      const row = await repository.findWithTenant(tx, tenantId, userId);
      if (!row) throw new NotFoundError('The user was not found.');
      const { user } = row;
      const role = user.role as Role;
      const fromDisplayName = namesOfDisplayName(user.displayName);
      return {
        id: user.id,
        tenantId: user.tenantId,
        tenantName: row.tenantName,
        userName: user.emailAddress,
        displayName: user.displayName,
        forename: user.forename ?? fromDisplayName.forename,
        surname: user.surname ?? fromDisplayName.surname,
        emailAddress: user.emailAddress,
        role,
        permissions: [...rolePermissions[role]],
        userSetting: readSettings(user.settings),
      };
    },

    async updateMySettings(tx: Tx, tenantId: string, userId: string, settings: UserSetting) {
      const found = await repository.updateSettings(tx, tenantId, userId, settings);
      if (!found) throw new NotFoundError('The user was not found.');
      return settings;
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
