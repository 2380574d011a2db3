import {
  messages,
  defaultUserSetting,
  type CreateUserBody,
  type QuerySearch,
  type Role,
  type User,
} from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Tx } from '../../db/client.js';
import { tenants, users } from '../../db/schema.js';
import { normalizeEmail } from '../../platform/crypto.js';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors.js';
import { toUser, type UsersRepository } from './users.repository.js';
import { and, eq, sql } from 'drizzle-orm';
import { inTenant } from '../../platform/scope.js';

export interface Actor {
  tenantId: string;
  userId: string | null;
}

function uniqueViolation(error: unknown, constraint: string): boolean {
  const cause = (error as { cause?: { code?: string; constraint?: string } }).cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return (
    pgError.code === '23505' &&
    (pgError.constraint === undefined || pgError.constraint === constraint)
  );
}

function conflict(field: string, message: string) {
  return new AppError(409, 'Conflict', message, { errors: { [field]: [message] } });
}

/** spec 1 §5: the users of a tenant, with the rules the server always enforces. */
export function createUsersAdminService(deps: { repository: UsersRepository; database: Database }) {
  const { repository, database } = deps;

  async function load(tx: Tx, tenantId: string, id: string) {
    const row = await repository.find(tx, tenantId, id);
    if (!row) throw new NotFoundError('The user was not found.');
    return row;
  }

  /**
   * E-mails are unique across tenants (docs/decisions/002-e-mail-addresses-are-unique-across-tenants.md); the owner function `email_in_use`
   * answers for all of them inside the request's own transaction (PGlite has one connection).
   */
  async function emailTaken(tx: Tx, tenantId: string, email: string) {
    const [row] = await tx
      .select({ taken: sql<boolean>`email_in_use(${normalizeEmail(email)})` })
      .from(tenants)
      .where(eq(tenants.id, tenantId));
    return row?.taken === true;
  }

  async function assertKeepsAnAdministrator(tx: Tx, tenantId: string, leaving: { role: string }) {
    if (
      leaving.role === 'Administrator' &&
      (await repository.administratorCount(tx, tenantId)) <= 1
    ) {
      throw new ConflictError(messages.lastAdministrator, 'lastAdministrator');
    }
  }

  return {
    all: (tx: Tx, tenantId: string, search?: QuerySearch) => repository.all(tx, tenantId, search),

    async get(tx: Tx, tenantId: string, id: string): Promise<User> {
      return toUser(await load(tx, tenantId, id));
    },

    async create(
      tx: Tx,
      actor: Actor,
      body: CreateUserBody & { name: string; email: string; role: Role },
    ) {
      await repository.lock(tx, actor.tenantId);
      if (await emailTaken(tx, actor.tenantId, body.email))
        throw conflict('email', messages.userEmailExists);
      if (await repository.nameTaken(tx, actor.tenantId, body.name))
        throw conflict('name', messages.userNameExists);
      try {
        return await repository.insert(tx, {
          tenantId: actor.tenantId,
          id: uuidv7(),
          emailAddress: body.email,
          emailNormalized: normalizeEmail(body.email),
          displayName: body.name,
          role: body.role,
          settings: defaultUserSetting,
        });
      } catch (error) {
        // Two invitations racing for one e-mail: the unique index decides, the answer stays a 409.
        if (uniqueViolation(error, 'users_email_key'))
          throw conflict('email', messages.userEmailExists);
        throw error;
      }
    },

    async rename(tx: Tx, actor: Actor, id: string, name: string) {
      await load(tx, actor.tenantId, id);
      if (await repository.nameTaken(tx, actor.tenantId, name, id))
        throw conflict('displayName', messages.userNameExists);
      return (await repository.update(tx, actor.tenantId, id, { displayName: name }))!;
    },

    async changeRole(tx: Tx, actor: Actor, id: string, role: Role) {
      if (id === actor.userId) throw new ConflictError(messages.cannotChangeOwnRole, 'ownRole');
      await repository.lock(tx, actor.tenantId);
      const current = await load(tx, actor.tenantId, id);
      if (current.role !== role) await assertKeepsAnAdministrator(tx, actor.tenantId, current);
      return (await repository.update(tx, actor.tenantId, id, { role }))!;
    },

    async remove(tx: Tx, actor: Actor, id: string) {
      if (id === actor.userId) throw new ConflictError(messages.cannotDeleteSelf, 'deleteSelf');
      await repository.lock(tx, actor.tenantId);
      const current = await load(tx, actor.tenantId, id);
      await assertKeepsAnAdministrator(tx, actor.tenantId, current);
      await repository.remove(tx, actor.tenantId, id);
      return current;
    },

    /** For the invitation job: the user as stored, if still there. */
    async forInvitation(tenantId: string, userId: string) {
      return database.withTenant(tenantId, async (tx) => {
        const [row] = await tx
          .select()
          .from(users)
          .where(and(inTenant(users, { tenantId }), eq(users.id, userId)));
        return row ?? null;
      });
    },
  };
}
export type UsersAdminService = ReturnType<typeof createUsersAdminService>;
