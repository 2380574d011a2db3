import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { webHookDeliveries, webHookEndpoints } from '../../db/schema-web-hooks.js';
import { inDataset, inTenant, type DatasetScope, type TenantScope } from '../../platform/scope.js';
import type { Attempt, EndpointKey } from './delivery-attempts.js';
import { attemptColumns } from './delivery-attempts.js';

/**
 * The outbox's SQL: the delivery drain reads and writes every company's rows as the owner, in
 * set-based statements whose joins and keys carry both tenant_id and dataset_id.
 */

/** A delivery due for an attempt, with its event and endpoint (null endpoint: Svix). */
export interface DueDelivery {
  tenant_id: string;
  dataset_id: number;
  id: string;
  event_id: string;
  endpoint_id: string | null;
  attempts: number;
  type: string;
  payload: unknown;
  created_on: string | Date;
  url: string | null;
  secret: string | null;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** New events → deliveries (an endpoint each, or Svix), in one statement; answers how many events. */
export async function dispatchNewEvents(
  db: Database['db'],
  limit: number,
  toSvix: boolean,
): Promise<number> {
  const result = await db.execute(sql`
    with batch as (
      select e.tenant_id, e.dataset_id, e.id, e.seq, e.type, e.record_id from web_hook_events e
      where e.dispatched_on is null order by e.seq limit ${limit} for update skip locked
    ), marked as (
      update web_hook_events e set dispatched_on = now() from batch
      where e.tenant_id = batch.tenant_id and e.dataset_id = batch.dataset_id and e.id = batch.id
    ), to_endpoints as (
      insert into web_hook_deliveries (tenant_id, dataset_id, event_id, event_seq, endpoint_id, record_id)
      select b.tenant_id, b.dataset_id, b.id, b.seq, ep.id, b.record_id
      from batch b join web_hook_endpoints ep on ep.tenant_id = b.tenant_id and ep.dataset_id = b.dataset_id
      where ${!toSvix} and not ep.disabled and (cardinality(ep.event_types) = 0 or b.type = any(ep.event_types))
    ), to_svix as (
      insert into web_hook_deliveries (tenant_id, dataset_id, event_id, event_seq, endpoint_id, record_id)
      select b.tenant_id, b.dataset_id, b.id, b.seq, null, b.record_id from batch b where ${toSvix}
    )
    select count(*)::int as n from batch`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/**
 * Deliveries due now, oldest event first, never one while an older one of the same record and
 * endpoint is still pending (in order per record).
 */
export async function dueDeliveries(db: Database['db'], limit: number): Promise<DueDelivery[]> {
  return rowsOf<DueDelivery>(
    await db.execute(sql`
      select d.tenant_id, d.dataset_id, d.id, d.event_id, d.endpoint_id, d.attempts,
        e.type, e.payload, e.created_on, ep.url, ep.secret
      from web_hook_deliveries d
      join web_hook_events e on e.tenant_id = d.tenant_id and e.dataset_id = d.dataset_id and e.id = d.event_id
      left join web_hook_endpoints ep on ep.tenant_id = d.tenant_id and ep.dataset_id = d.dataset_id and ep.id = d.endpoint_id
      where d.status = 'Pending' and d.next_attempt_on <= now()
        and not exists (
          select 1 from web_hook_deliveries o
          where o.tenant_id = d.tenant_id and o.dataset_id = d.dataset_id and o.record_id = d.record_id
            and o.status = 'Pending' and o.event_seq < d.event_seq
            and o.endpoint_id is not distinct from d.endpoint_id
        )
      order by d.event_seq
      limit ${limit}`),
  );
}

/** Records a batch of attempts, one statement for all (their columns from attemptColumns). */
export async function recordAttempts(executor: Executor, done: Attempt[], retrySeconds: number[]) {
  const c = attemptColumns(done, retrySeconds);
  await executor.execute(sql`
    update web_hook_deliveries d set
      attempts = v.attempts,
      status = v.status,
      next_attempt_on = case when v.retry_in is null then null else now() + make_interval(secs => v.retry_in) end,
      last_attempt_on = now(),
      status_code = v.status_code,
      duration_ms = v.duration_ms,
      error = v.error
    from unnest(
      ${sql.param(c.tenantIds)}::uuid[],
      ${sql.param(c.datasetIds)}::integer[],
      ${sql.param(c.ids)}::uuid[],
      ${sql.param(c.attempts)}::integer[],
      ${sql.param(c.statuses)}::text[],
      ${sql.param(c.retryIn)}::integer[],
      ${sql.param(c.statusCodes)}::integer[],
      ${sql.param(c.durations)}::integer[],
      ${sql.param(c.errors)}::text[]
    ) as v(tenant_id, dataset_id, id, attempts, status, retry_in, status_code, duration_ms, error)
    where d.tenant_id = v.tenant_id and d.dataset_id = v.dataset_id and d.id = v.id`);
}

const keys = (list: EndpointKey[]) => sql`
  select * from unnest(${sql.param(list.map((e) => e.tenantId))}::uuid[], ${sql.param(list.map((e) => e.datasetId))}::integer[], ${sql.param(list.map((e) => e.id))}::uuid[]) as k(tenant_id, dataset_id, id)`;

/** Endpoints that answered: their failure clock stops. */
export async function clearFailing(executor: Executor, answered: EndpointKey[]) {
  if (answered.length === 0) return;
  await executor.execute(sql`
    update web_hook_endpoints ep set failing_since = null
    from (${keys(answered)}) k
    where ep.tenant_id = k.tenant_id and ep.dataset_id = k.dataset_id and ep.id = k.id and ep.failing_since is not null`);
}

/** Endpoints that failed: their failure clock starts; answers those failing longer than `hours`. */
export async function markFailing(
  executor: Executor,
  failing: EndpointKey[],
  hours: number,
): Promise<{ tenant_id: string; dataset_id: number; id: string }[]> {
  const rows = rowsOf<{ tenant_id: string; dataset_id: number; id: string; too_long: boolean }>(
    await executor.execute(sql`
      update web_hook_endpoints ep set failing_since = coalesce(ep.failing_since, now())
      from (${keys(failing)}) k
      where ep.tenant_id = k.tenant_id and ep.dataset_id = k.dataset_id and ep.id = k.id
      returning ep.tenant_id, ep.dataset_id, ep.id,
        (not ep.disabled and ep.failing_since <= now() - make_interval(hours => ${hours})) as too_long`),
  );
  return rows.filter((row) => row.too_long);
}

/** The earliest retry time of a pending delivery, if any. */
export async function earliestRetry(db: Database['db']): Promise<string | Date | null> {
  const [next] = rowsOf<{ at: string | Date | null }>(
    await db.execute(
      sql`select min(next_attempt_on) as at from web_hook_deliveries where status = 'Pending'`,
    ),
  );
  return next?.at ?? null;
}

/** An endpoint's URL, if it is still there. */
export async function endpointUrl(executor: Executor, scope: TenantScope, endpointId: string) {
  const [endpoint] = await executor
    .select({ url: webHookEndpoints.url })
    .from(webHookEndpoints)
    .where(and(inTenant(webHookEndpoints, scope), eq(webHookEndpoints.id, endpointId)));
  return endpoint?.url ?? null;
}

/** The addresses of the tenant's active administrators. */
export async function administratorAddresses(executor: Executor, scope: TenantScope) {
  const rows = await executor
    .select({ email: users.emailAddress })
    .from(users)
    .where(and(inTenant(users, scope), eq(users.role, 'Administrator'), isNull(users.disabledAt)));
  return rows.map((row) => row.email);
}

/** Switches an endpoint off; its pending deliveries fail (resend brings one back). */
export async function disableEndpoint(
  executor: Executor,
  scope: DatasetScope,
  endpointId: string,
  reason: string,
) {
  await executor
    .update(webHookEndpoints)
    .set({ disabled: true, disabledReason: reason, updatedOn: sql`now()` })
    .where(and(inDataset(webHookEndpoints, scope), eq(webHookEndpoints.id, endpointId)));
  await executor
    .update(webHookDeliveries)
    .set({ status: 'Failed', nextAttemptOn: null, error: 'The endpoint is disabled.' })
    .where(
      and(
        inDataset(webHookDeliveries, scope),
        eq(webHookDeliveries.endpointId, endpointId),
        eq(webHookDeliveries.status, 'Pending'),
      ),
    );
}
