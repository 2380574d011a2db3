import { and, count, desc, eq, sql } from 'drizzle-orm';
import type {
  QuerySearch,
  WebHookDelivery,
  WebHookEndpoint,
  WebHookEventType,
} from '@ledgerline/contract';
import { compileSearch } from '../../platform/paging/compile-filter.js';
import type { Executor } from '../../db/client.js';
import {
  webHookDeliveries as d,
  webHookEndpoints as ep,
  webHookEvents as e,
  type WebHookEndpointRow,
} from '../../db/schema-web-hooks.js';
import { datasets } from '../../db/schema.js';
import { inDataset, inTenant, sameDataset, type DatasetScope } from '../../platform/scope.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function toEndpoint(row: WebHookEndpointRow): WebHookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as WebHookEventType[],
    disabled: row.disabled,
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    createdOn: row.createdOn.toISOString(),
    updatedOn: row.updatedOn.toISOString(),
  };
}

const endpointIn = (scope: DatasetScope, id: string) => and(inDataset(ep, scope), eq(ep.id, id));

export interface EndpointValues {
  url: string;
  description: string | null;
  eventTypes: string[];
  disabled: boolean;
}

/** The endpoint's delivery log, newest event first. */
async function deliveries(
  executor: Executor,
  scope: DatasetScope,
  endpointId: string,
  page: { page: number; itemsPerPage: number },
) {
  const where = and(inDataset(d, scope), eq(d.endpointId, endpointId));
  const rows = await executor
    .select({ delivery: d, eventType: e.type })
    .from(d)
    .innerJoin(e, and(sameDataset(e, d), eq(e.id, d.eventId)))
    .where(where)
    .orderBy(desc(d.eventSeq))
    .limit(page.itemsPerPage)
    .offset((page.page - 1) * page.itemsPerPage);
  const [total] = await executor.select({ n: count() }).from(d).where(where);
  return {
    items: rows.map(({ delivery, eventType }) => toDelivery(delivery, eventType)),
    totalItems: total?.n ?? 0,
  };
}

/** Puts a delivery back in line for an attempt now (resend); null when not found. */
async function resend(executor: Executor, scope: DatasetScope, id: string) {
  const [row] = await executor
    .update(d)
    .set({ status: 'Pending', nextAttemptOn: sql`now()`, error: null })
    .where(and(inDataset(d, scope), eq(d.id, id)))
    .returning();
  if (!row) return null;
  const [event] = await executor
    .select({ type: e.type })
    .from(e)
    .where(and(inDataset(e, scope), eq(e.id, row.eventId)));
  return toDelivery(row, event!.type);
}

/** The company's name, if it is still there. */
export async function companyName(executor: Executor, scope: DatasetScope) {
  const [company] = await executor
    .select({ name: datasets.name })
    .from(datasets)
    .where(and(inTenant(datasets, scope), eq(datasets.id, scope.datasetId)));
  return company?.name ?? null;
}

/** SQL of the web hook endpoints and their deliveries; every call takes the company scope. */
export function createWebHooksRepository() {
  return {
    /** The company's endpoints, or with `search` those the search box finds */
    async list(executor: Executor, scope: DatasetScope, search?: QuerySearch) {
      const rows = await executor
        .select()
        .from(ep)
        .where(
          and(
            inDataset(ep, scope),
            compileSearch(search, { url: ep.url, description: ep.description }),
          ),
        )
        .orderBy(ep.createdOn, ep.id);
      return rows.map(toEndpoint);
    },

    async find(executor: Executor, scope: DatasetScope, id: string) {
      const [row] = await executor.select().from(ep).where(endpointIn(scope, id));
      return row ?? null;
    },

    toEndpoint,

    async insert(
      executor: Executor,
      scope: DatasetScope,
      id: string,
      values: EndpointValues & { secret: string },
    ) {
      const [row] = await executor
        .insert(ep)
        .values({
          ...scope,
          id,
          ...values,
          disabledReason: values.disabled ? 'Switched off by a user.' : null,
        })
        .returning();
      return toEndpoint(row!);
    },

    async update(executor: Executor, scope: DatasetScope, id: string, values: EndpointValues) {
      const [row] = await executor
        .update(ep)
        .set({
          ...values,
          // Switching an endpoint on again starts its failure clock afresh.
          disabledReason: values.disabled
            ? sql`coalesce(${ep.disabledReason}, 'Switched off by a user.')`
            : null,
          failingSince: values.disabled ? ep.failingSince : null,
          updatedOn: sql`now()`,
        })
        .where(endpointIn(scope, id))
        .returning();
      return row ? toEndpoint(row) : null;
    },

    async remove(executor: Executor, scope: DatasetScope, id: string) {
      const rows = await executor.delete(ep).where(endpointIn(scope, id)).returning({ id: ep.id });
      return rows.length > 0;
    },

    async setSecret(executor: Executor, scope: DatasetScope, id: string, secret: string) {
      const rows = await executor
        .update(ep)
        .set({ secret, updatedOn: sql`now()` })
        .where(endpointIn(scope, id))
        .returning({ id: ep.id });
      return rows.length > 0;
    },

    deliveries,
    resend,
  };
}
export type WebHooksRepository = ReturnType<typeof createWebHooksRepository>;

function toDelivery(row: typeof d.$inferSelect, eventType: string): WebHookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: eventType as WebHookEventType,
    recordId: row.recordId,
    status: row.status as WebHookDelivery['status'],
    attempts: row.attempts,
    statusCode: row.statusCode,
    durationMs: row.durationMs,
    error: row.error,
    lastAttemptOn: iso(row.lastAttemptOn),
    nextAttemptOn: row.status === 'Pending' ? iso(row.nextAttemptOn) : null,
    createdOn: row.createdOn.toISOString(),
  };
}
