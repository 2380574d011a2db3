import {
  and,
  eq,
  getTableName,
  gt,
  lt,
  or,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { datasets, sessions, users } from '../db/schema.js';
import { randomToken, sha256 } from './crypto.js';
import { inTenant, sameTenant } from './scope.js';

export interface SessionOptions {
  idleMinutes: number;
  absoluteHours: number;
}

export interface ResolvedSession {
  idHash: string;
  tenantId: string;
  userId: string;
  xsrfToken: string;
  user: { displayName: string; role: string; disabledAt: Date | null };
  /** Whether the session's tenant has the company asked about (false when none was). */
  datasetFound: boolean;
}

/**
 * Whether the tenant of the row being read has company `datasetId`: the Dataset-Id check of
 * design §3, answered by the same owner query that finds the caller. The tenant is the caller's
 * own, from the row that authenticated them, so no other tenant's company can answer.
 */
export function datasetInTenant(
  tenantId: AnyColumn,
  datasetId: number | null | Placeholder,
): SQL<boolean | null> {
  if (datasetId === null) return sql<null>`null`;
  // Every column written out with its table: in the select list of a query without joins drizzle
  // leaves the columns of a `sql` field unqualified, and "tenant_id" = "tenant_id" inside the
  // subquery then compared the datasets table with itself.
  return sql<boolean>`exists (select 1 from ${datasets} where ${qualified(datasets.tenantId)} = ${qualified(tenantId)} and ${qualified(datasets.id)} = ${datasetId})`;
}

/** `"table"."column"`, whatever query the column ends up in. */
export function qualified(column: AnyColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/**
 * Server-side sessions (design §6, OWASP ASVS V3/V7): a new random id at every sign-in, only its
 * hash stored, idle and absolute timeouts, ended server-side at sign-out.
 */
export function createSessionStore(database: Database, options: SessionOptions) {
  const { db } = database;
  const idleMs = options.idleMinutes * 60_000;

  return {
    async create(input: { tenantId: string; userId: string; ip: string; userAgent?: string }) {
      const id = randomToken(32);
      const xsrfToken = randomToken(24);
      await db.insert(sessions).values({
        idHash: sha256(id),
        tenantId: input.tenantId,
        userId: input.userId,
        xsrfToken,
        expiresAt: new Date(Date.now() + options.absoluteHours * 3_600_000),
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 500),
      });
      return { id, xsrfToken };
    },

    /**
     * `datasetId`: the company of the call's Dataset-Id header; the answer says whether the
     * session's tenant has it, found in the same query (docs/decisions/012-fewer-round-trips-per-call.md "Fewer round trips").
     */
    async resolve(id: string, datasetId: number | null = null): Promise<ResolvedSession | null> {
      const idHash = sha256(id);
      const now = new Date();
      const [row] = await db
        .select({
          idHash: sessions.idHash,
          tenantId: sessions.tenantId,
          userId: sessions.userId,
          xsrfToken: sessions.xsrfToken,
          lastSeenAt: sessions.lastSeenAt,
          displayName: users.displayName,
          role: users.role,
          disabledAt: users.disabledAt,
          datasetFound: datasetInTenant(sessions.tenantId, datasetId),
        })
        .from(sessions)
        .innerJoin(users, and(sameTenant(users, sessions), eq(users.id, sessions.userId)))
        .where(
          and(
            eq(sessions.idHash, idHash),
            gt(sessions.expiresAt, now),
            gt(sessions.lastSeenAt, new Date(now.getTime() - idleMs)),
          ),
        );
      if (!row) return null;
      if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
        // Sliding idle timeout, written at most once a minute per session.
        await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
      }
      return {
        idHash: row.idHash,
        tenantId: row.tenantId,
        userId: row.userId,
        xsrfToken: row.xsrfToken,
        user: { displayName: row.displayName, role: row.role, disabledAt: row.disabledAt },
        datasetFound: row.datasetFound === true,
      };
    },

    async destroy(idHash: string) {
      await db.delete(sessions).where(eq(sessions.idHash, idHash));
    },

    /** Ends every session of a user (disabling or deleting a user signs them out everywhere). */
    async destroyForUser(tenantId: string, userId: string) {
      await db
        .delete(sessions)
        .where(and(inTenant(sessions, { tenantId }), eq(sessions.userId, userId)));
    },

    async purgeExpired() {
      const now = new Date();
      await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.expiresAt, now),
            lt(sessions.lastSeenAt, sql`${new Date(now.getTime() - idleMs)}`),
          ),
        );
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
