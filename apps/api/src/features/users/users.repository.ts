import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { QuerySearch, Role, User, UserSetting } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { tenants, users } from '../../db/schema.js';
import { compileSearch } from '../../platform/paging/compile-filter.js';
import { inTenant } from '../../platform/scope.js';

type UserRow = typeof users.$inferSelect;

const nameOrder = new Intl.Collator('en');

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    displayName: row.displayName,
    emailAddress: row.emailAddress,
    role: row.role as Role,
    lastSignInAt: row.lastSignInAt ? row.lastSignInAt.toISOString() : null,
    invitationPending: row.lastSignInAt === null,
  };
}

export function createUsersRepository() {
  return {
    async findWithTenant(executor: Executor, tenantId: string, userId: string) {
      const [row] = await executor
        .select({ user: users, tenantName: tenants.name })
        .from(users)
        .innerJoin(tenants, eq(tenants.id, users.tenantId))
        .where(and(inTenant(users, { tenantId }), eq(users.id, userId)));
      return row ?? null;
    },

    async updateSettings(
      executor: Executor,
      tenantId: string,
      userId: string,
      settings: UserSetting,
    ) {
      const updated = await executor
        .update(users)
        .set({ settings })
        .where(and(inTenant(users, { tenantId }), eq(users.id, userId)))
        .returning({ id: users.id });
      return updated.length > 0;
    },

    /** Every user, or with `search` those the users grid's search box finds. */
    async all(executor: Executor, tenantId: string, search?: QuerySearch) {
      const rows = await executor
        .select()
        .from(users)
        .where(
          and(
            inTenant(users, { tenantId }),
            compileSearch(search, {
              displayName: users.displayName,
              emailAddress: users.emailAddress,
            }),
          ),
        )
        .orderBy(asc(users.id));
      // spec 1 §9: by name ascending, as a person reads names (Véra beside Vera), not by bytes;
      // a tenant's users are few, and the database's collation differs between PGlite and servers.
      return rows.sort((a, b) => nameOrder.compare(a.displayName, b.displayName)).map(toUser);
    },

    async find(executor: Executor, tenantId: string, id: string) {
      const [row] = await executor
        .select()
        .from(users)
        .where(and(inTenant(users, { tenantId }), eq(users.id, id)));
      return row ?? null;
    },

    /** Another user of the tenant with this display name (case-insensitive). */
    async nameTaken(executor: Executor, tenantId: string, name: string, exceptId?: string) {
      const [row] = await executor
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inTenant(users, { tenantId }),
            sql`lower(${users.displayName}) = lower(${name})`,
            exceptId ? ne(users.id, exceptId) : undefined,
          ),
        );
      return row !== undefined;
    },

    async insert(executor: Executor, row: typeof users.$inferInsert) {
      const [inserted] = await executor.insert(users).values(row).returning();
      return toUser(inserted!);
    },

    async update(
      executor: Executor,
      tenantId: string,
      id: string,
      changes: Partial<typeof users.$inferInsert>,
    ) {
      const [row] = await executor
        .update(users)
        .set(changes)
        .where(and(inTenant(users, { tenantId }), eq(users.id, id)))
        .returning();
      return row ? toUser(row) : null;
    },

    async remove(executor: Executor, tenantId: string, id: string) {
      await executor.delete(users).where(and(inTenant(users, { tenantId }), eq(users.id, id)));
    },

    async administratorCount(executor: Executor, tenantId: string) {
      const [row] = await executor
        .select({ n: count() })
        .from(users)
        .where(and(inTenant(users, { tenantId }), eq(users.role, 'Administrator')));
      return row?.n ?? 0;
    },

    /** Serialises changes to a tenant's users so two requests cannot both remove the last admin. */
    async lock(executor: Executor, tenantId: string) {
      await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`users:${tenantId}`}))`);
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
