import { and, asc, count, eq, inArray, max, ne, or, sql } from 'drizzle-orm';
import type { datasetQuery } from '@ledgerline/contract';
import { type Dataset, type DatasetStatus, type PageQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { accessKeys, datasets, tenants } from '../../db/schema.js';
import { compilePageQuery } from '../../platform/paging/compile-page-query.js';
import { inDataset, inTenant } from '../../platform/scope.js';

type DatasetRow = typeof datasets.$inferSelect;
type DatasetFields = (typeof datasetQuery)['fields'];

export function toDataset(row: DatasetRow): Dataset {
  return {
    id: row.id,
    name: row.name,
    shortName: row.shortName,
    description: row.description,
    status: row.status as Dataset['status'],
    hostId: row.hostId,
    customHostId: row.customHostId,
    hostSystemName: row.hostSystemName as Dataset['hostSystemName'],
    currency: row.currency as Dataset['currency'],
    rebuildStatus: row.rebuildStatus as Dataset['rebuildStatus'],
    lastSync: row.lastSync ? row.lastSync.toISOString() : null,
    copyFromDatasetId: row.copyFromDatasetId,
    type: row.type as Dataset['type'],
  };
}

const columns = {
  id: datasets.id,
  name: datasets.name,
  type: datasets.type,
  hostSystemName: datasets.hostSystemName,
  hostId: datasets.hostId,
  customHostId: datasets.customHostId,
  currency: datasets.currency,
  rebuildStatus: datasets.rebuildStatus,
  status: datasets.status,
  lastSync: datasets.lastSync,
};

/**
 * Serialises id allocation and host-id checks of one tenant's companies until the transaction
 * ends; without it two simultaneous calls both pass the duplicate check (READ COMMITTED).
 */
async function lock(executor: Executor, tenantId: string): Promise<void> {
  await executor.execute(sql`select pg_advisory_xact_lock(hashtext(${`datasets:${tenantId}`}))`);
}

export function createDatasetsRepository() {
  return {
    /** The tenant's companies; with `only` (a company-bound key's company) that one alone. */
    async all(
      executor: Executor,
      tenantId: string,
      only: number | null = null,
    ): Promise<Dataset[]> {
      const rows = await executor
        .select()
        .from(datasets)
        .where(
          and(inTenant(datasets, { tenantId }), only === null ? undefined : eq(datasets.id, only)),
        )
        .orderBy(asc(datasets.id));
      return rows.map(toDataset);
    },

    async page(
      executor: Executor,
      tenantId: string,
      query: PageQuery<DatasetFields>,
      only: number | null = null,
    ) {
      const compiled = compilePageQuery(query, { columns, tieBreaker: datasets.id });
      const where = and(
        inTenant(datasets, { tenantId }),
        only === null ? undefined : eq(datasets.id, only),
        compiled.where,
      );
      const rows = await executor
        .select()
        .from(datasets)
        .where(where)
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit)
        .offset(compiled.offset);
      const [total] = await executor.select({ n: count() }).from(datasets).where(where);
      return { items: rows.map(toDataset), totalItems: total?.n ?? 0 };
    },

    async find(executor: Executor, tenantId: string, id: number): Promise<Dataset | null> {
      const [row] = await executor
        .select()
        .from(datasets)
        .where(and(inTenant(datasets, { tenantId }), eq(datasets.id, id)));
      return row ? toDataset(row) : null;
    },

    /**
     * find, locking the row until the transaction ends: a simultaneous change waits, then reads the
     * status this one left, so its status check cannot pass on a stale read.
     */
    async findForUpdate(executor: Executor, tenantId: string, id: number): Promise<Dataset | null> {
      const [row] = await executor
        .select()
        .from(datasets)
        .where(and(inTenant(datasets, { tenantId }), eq(datasets.id, id)))
        .for('update');
      return row ? toDataset(row) : null;
    },

    /** Which of hostId / customHostId another company of the tenant already uses (spec 1 §5). */
    async duplicates(
      executor: Executor,
      tenantId: string,
      hostId: string,
      customHostId: string,
      exceptId?: number,
    ) {
      const rows = await executor
        .select({ hostId: datasets.hostId, customHostId: datasets.customHostId })
        .from(datasets)
        .where(
          and(
            inTenant(datasets, { tenantId }),
            exceptId === undefined ? undefined : ne(datasets.id, exceptId),
            or(eq(datasets.hostId, hostId), eq(datasets.customHostId, customHostId)),
          ),
        );
      return {
        hostId: rows.some((r) => r.hostId === hostId),
        customHostId: rows.some((r) => r.customHostId === customHostId),
      };
    },

    lock,

    /** The next company id of the tenant: never one a deleted company had (its activities keep it). */
    async nextId(executor: Executor, tenantId: string): Promise<number> {
      await lock(executor, tenantId);
      const highest = executor
        .select({ id: max(datasets.id) })
        .from(datasets)
        .where(inTenant(datasets, { tenantId }));
      const [row] = await executor
        .update(tenants)
        .set({
          lastDatasetId: sql`greatest(${tenants.lastDatasetId}, coalesce((${highest}), 0)) + 1`,
        })
        .where(eq(tenants.id, tenantId))
        .returning({ id: tenants.lastDatasetId });
      if (!row) throw new Error(`Tenant ${tenantId} was not found.`);
      return row.id;
    },

    async insert(executor: Executor, row: typeof datasets.$inferInsert) {
      const [inserted] = await executor.insert(datasets).values(row).returning();
      return toDataset(inserted!);
    },

    async update(
      executor: Executor,
      tenantId: string,
      id: number,
      changes: Partial<typeof datasets.$inferInsert>,
    ) {
      const [row] = await executor
        .update(datasets)
        .set(changes)
        .where(and(inTenant(datasets, { tenantId }), eq(datasets.id, id)))
        .returning();
      return row ? toDataset(row) : null;
    },

    /** Moves a company from one of `from` to `to`; false when it was in another state meanwhile. */
    async transition(
      executor: Executor,
      tenantId: string,
      id: number,
      from: readonly DatasetStatus[],
      to: DatasetStatus,
    ) {
      const rows = await executor
        .update(datasets)
        .set({ status: to })
        .where(
          and(
            inTenant(datasets, { tenantId }),
            eq(datasets.id, id),
            inArray(datasets.status, [...from]),
          ),
        )
        .returning({ id: datasets.id });
      return rows.length > 0;
    },

    /** Removes a company with everything it owns (its bound keys stop working too). */
    async removeWithData(executor: Executor, tenantId: string, id: number) {
      await executor
        .update(accessKeys)
        .set({ deletedAt: new Date() })
        .where(inDataset(accessKeys, { tenantId, datasetId: id }));
      await executor
        .delete(datasets)
        .where(and(inTenant(datasets, { tenantId }), eq(datasets.id, id)));
    },

    async working(executor: Executor) {
      return executor
        .select({ tenantId: datasets.tenantId, id: datasets.id, status: datasets.status })
        .from(datasets)
        .where(inArray(datasets.status, ['Initialise', 'Provisioning', 'Deleting', 'Resetting']));
    },
  };
}
export type DatasetsRepository = ReturnType<typeof createDatasetsRepository>;
