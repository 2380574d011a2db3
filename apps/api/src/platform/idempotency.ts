import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyRetentionHours } from '@ledgerline/contract';
import type { Database, Tx } from '../db/client.js';
import { idempotencyKeys } from '../db/schema-receivables.js';
import { requirePrincipal } from './context.js';
import { sha256 } from './crypto.js';
import { ConflictError, UnprocessableError } from './errors.js';
import { inTenant } from './scope.js';

/** What a create answered: the first time, or replayed from the stored first answer. */
export interface IdempotentAnswer<T> {
  status: number;
  body: T;
  replayed: boolean;
}

export const idempotencyReplayedHeader = 'idempotent-replayed';
const retentionMs = idempotencyRetentionHours * 3_600_000;

/** JSON with object keys sorted, so two equal bodies always hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The request a key stands for: route, company, the validated query (`match-existing` changes
 * what a create does) and body. The same key sent with any of them different is "another request"
 * (422), never a replay.
 */
function requestHash(request: FastifyRequest): string {
  return sha256(
    canonicalJson({
      method: request.method,
      route: request.routeOptions.url,
      datasetId: request.datasetId,
      query: request.query,
      body: request.body,
    }),
  );
}

/**
 * Runs a create at most once per `Idempotency-Key` and client (design §6, IETF draft, as Stripe).
 * Call it inside `request.unitOfWork` so the stored answer commits — or rolls back — with the
 * record it describes: a failed create stores nothing and its retry runs again.
 *
 * - no key: `create` runs;
 * - a key seen within the retention window with the same request: the stored answer, `replayed`;
 * - the same key with another body (or route, or company): 422;
 * - the same key while its first call is still running (another transaction holds it): 409.
 *
 * The route declares `headers: idempotencyKeyHeaders` so the key is validated and documented.
 */
export async function runIdempotent<T>(
  tx: Tx,
  request: FastifyRequest,
  status: number,
  create: () => Promise<T>,
): Promise<IdempotentAnswer<T>> {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' && header !== '' ? header : undefined;
  if (key === undefined) return { status, body: await create(), replayed: false };

  const principal = requirePrincipal(request.principal);
  const clientId = principal.accessKeyId ?? principal.userId;
  if (clientId === null) throw new Error('An idempotent call needs a user or an access key.');
  const hash = requestHash(request);

  // Holding this lock to the end of the transaction serialises the key; a second call with it
  // meanwhile learns at once that the first is still running instead of waiting or duplicating.
  const result = (await tx.execute(
    sql`select pg_try_advisory_xact_lock(hashtext(${`idempotency:${principal.tenantId}:${clientId}`}), hashtext(${key})) as locked`,
  )) as unknown as { rows: { locked: boolean }[] };
  const locked = result.rows[0]?.locked === true;
  if (!locked) {
    throw new ConflictError(
      'A request with this Idempotency-Key is still being processed. Retry it in a moment.',
      'idempotencyKeyInProgress',
    );
  }

  const scope = and(
    inTenant(idempotencyKeys, principal),
    eq(idempotencyKeys.clientId, clientId),
    eq(idempotencyKeys.key, key),
  );
  const [stored] = await tx.select().from(idempotencyKeys).where(scope);
  if (stored && Date.now() - stored.createdAt.getTime() >= retentionMs) {
    // Past the retention window the key is free again.
    await tx.delete(idempotencyKeys).where(scope);
  } else if (stored) {
    if (stored.requestHash !== hash) {
      throw new UnprocessableError(
        'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        { 'Idempotency-Key': ['The key was already used with a different request.'] },
      );
    }
    if (stored.status === null) {
      throw new ConflictError(
        'A request with this Idempotency-Key is still being processed. Retry it in a moment.',
        'idempotencyKeyInProgress',
      );
    }
    return { status: stored.status, body: stored.response as T, replayed: true };
  }

  const body = await create();
  await tx.insert(idempotencyKeys).values({
    tenantId: principal.tenantId,
    clientId,
    key,
    requestHash: hash,
    status,
    // Stored as the client saw it (dates as ISO strings), so a replay answers the same JSON.
    response: JSON.parse(JSON.stringify(body)) as unknown,
  });
  return { status, body, replayed: false };
}

export const idempotencyPurgeJob = 'idempotency.purge';

/**
 * Forgets the keys past the retention window (an hourly job): their answers can no longer be
 * replayed, so keeping them only grows the table. Runs as the owner, across tenants.
 */
export async function purgeExpiredIdempotencyKeys(
  database: Database,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  const deleted = await database.db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, cutoff))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/** Sends an idempotent answer; a replay says so in the Idempotent-Replayed header. */
export function sendIdempotent<T>(reply: FastifyReply, answer: IdempotentAnswer<T>): FastifyReply {
  if (answer.replayed) reply.header(idempotencyReplayedHeader, 'true');
  return reply.status(answer.status).send(answer.body);
}

/** A key claimed for a call that spans transactions (claimIdempotent), or its stored answer. */
export type IdempotentClaim<T> =
  | { kind: 'none' }
  | { kind: 'replay'; answer: IdempotentAnswer<T> }
  | { kind: 'claimed'; tenantId: string; clientId: string; key: string };

/**
 * runIdempotent for a call that spans transactions (a refund: its provider is called between
 * two): in the first, claims the key — a row with no answer yet, so a retry meanwhile is a 409 —
 * or finds the stored answer (a replay) or another request's (422). The claim commits or rolls
 * back with that transaction; `completeIdempotent` stores the answer in the last one, and
 * `releaseIdempotent` frees the key when the call ends without one.
 */
export async function claimIdempotent<T>(
  tx: Tx,
  request: FastifyRequest,
): Promise<IdempotentClaim<T>> {
  const header = request.headers['idempotency-key'];
  const key = typeof header === 'string' && header !== '' ? header : undefined;
  if (key === undefined) return { kind: 'none' };
  const principal = requirePrincipal(request.principal);
  const clientId = principal.accessKeyId ?? principal.userId;
  if (clientId === null) throw new Error('An idempotent call needs a user or an access key.');
  const hash = requestHash(request);
  const scope = and(
    inTenant(idempotencyKeys, principal),
    eq(idempotencyKeys.clientId, clientId),
    eq(idempotencyKeys.key, key),
  );
  const [stored] = await tx.select().from(idempotencyKeys).where(scope).for('update');
  if (stored && Date.now() - stored.createdAt.getTime() < retentionMs) {
    if (stored.requestHash !== hash)
      throw new UnprocessableError(
        'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
        { 'Idempotency-Key': ['The key was already used with a different request.'] },
      );
    if (stored.status === null)
      throw new ConflictError(
        'A request with this Idempotency-Key is still being processed. Retry it in a moment.',
        'idempotencyKeyInProgress',
      );
    return {
      kind: 'replay',
      answer: { status: stored.status, body: stored.response as T, replayed: true },
    };
  }
  if (stored) await tx.delete(idempotencyKeys).where(scope);
  // A claim racing this one waits on the primary key and then fails: the client retries.
  await tx.insert(idempotencyKeys).values({
    tenantId: principal.tenantId,
    clientId,
    key,
    requestHash: hash,
    status: null,
    response: null,
  });
  return { kind: 'claimed', tenantId: principal.tenantId, clientId, key };
}

export async function completeIdempotent<T>(
  tx: Tx,
  claim: IdempotentClaim<T>,
  status: number,
  body: T,
) {
  if (claim.kind !== 'claimed') return;
  await tx
    .update(idempotencyKeys)
    .set({ status, response: JSON.parse(JSON.stringify(body)) as unknown })
    .where(
      and(
        inTenant(idempotencyKeys, claim),
        eq(idempotencyKeys.clientId, claim.clientId),
        eq(idempotencyKeys.key, claim.key),
      ),
    );
}

export async function releaseIdempotent<T>(tx: Tx, claim: IdempotentClaim<T>) {
  if (claim.kind !== 'claimed') return;
  await tx
    .delete(idempotencyKeys)
    .where(
      and(
        inTenant(idempotencyKeys, claim),
        eq(idempotencyKeys.clientId, claim.clientId),
        eq(idempotencyKeys.key, claim.key),
        isNull(idempotencyKeys.status),
      ),
    );
}
