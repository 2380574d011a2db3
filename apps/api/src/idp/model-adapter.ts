import { and, eq, gt, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/client.js';
import { idpModels } from '../db/schema.js';

/**
 * Models whose rows belong to a grant: revoking the grant (logout, code reuse) deletes them all,
 * as oidc-provider's reference adapters do.
 */
const grantableModels = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
];

/** Expired rows count as absent even before the sweep deletes them. */
function notExpired(): SQL {
  return or(isNull(idpModels.expiresAt), gt(idpModels.expiresAt, sql`now()`))!;
}

/** The time `seconds` from now on the database's clock, shared by every API process. */
export function secondsFromNow(seconds: number): SQL<Date> {
  return sql<Date>`now() + make_interval(secs => ${seconds})`;
}

/**
 * oidc-provider's storage (sessions, interactions, grants, codes...) in idp_models, one adapter
 * per model name. Everything lives in the database, so a restart or another API process behind
 * the load balancer sees the same state (design §6).
 */
export class DatabaseModelAdapter implements Adapter {
  constructor(
    private readonly database: Database,
    private readonly model: string,
  ) {}

  private byId(id: string): SQL {
    return and(eq(idpModels.model, this.model), eq(idpModels.id, id))!;
  }

  private async findWhere(condition: SQL): Promise<AdapterPayload | undefined> {
    const [row] = await this.database.db
      .select({ payload: idpModels.payload, consumedAt: idpModels.consumedAt })
      .from(idpModels)
      .where(and(eq(idpModels.model, this.model), condition, notExpired()))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    // oidc-provider reads `consumed` (epoch seconds) to detect a reused code.
    return row.consumedAt
      ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) }
      : payload;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const values = {
      payload,
      grantId: grantableModels.includes(this.model) ? (payload.grantId ?? null) : null,
      userCode: payload.userCode ?? null,
      // Only sessions are looked up by uid; an interaction's uid is its id.
      uid: this.model === 'Session' ? (payload.uid ?? null) : null,
      expiresAt: typeof expiresIn === 'number' ? secondsFromNow(expiresIn) : null,
    };
    await this.database.db
      .insert(idpModels)
      .values({ model: this.model, id, ...values, consumedAt: null })
      .onConflictDoUpdate({ target: [idpModels.model, idpModels.id], set: values });
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(idpModels.id, id));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(idpModels.uid, uid));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(idpModels.userCode, userCode));
  }

  /**
   * Marks a code used. The update only succeeds once, so two API processes racing to exchange the
   * same code cannot both issue tokens: the loser gets invalid_grant (RFC 6749 §4.1.2).
   */
  async consume(id: string): Promise<void> {
    const updated = await this.database.db
      .update(idpModels)
      .set({ consumedAt: sql`now()` })
      .where(and(this.byId(id), isNull(idpModels.consumedAt)))
      .returning({ id: idpModels.id });
    if (updated.length === 0) throw new errors.InvalidGrant('grant source already consumed');
  }

  async destroy(id: string): Promise<void> {
    await this.database.db.delete(idpModels).where(this.byId(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.database.db
      .delete(idpModels)
      .where(and(eq(idpModels.grantId, grantId), inArray(idpModels.model, grantableModels)));
  }
}

/** Deletes expired rows of every model; reads already ignore them, this keeps the table small. */
export async function deleteExpiredModels(database: Database): Promise<number> {
  const deleted = await database.db
    .delete(idpModels)
    .where(and(isNotNull(idpModels.expiresAt), lt(idpModels.expiresAt, sql`now()`)))
    .returning({ id: idpModels.id });
  return deleted.length;
}
