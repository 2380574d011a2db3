import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { auditActivityQuery } from '@ledgerline/contract';
import { type AuditActivity, type CursorQuery } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { auditActivities } from '../../db/schema.js';
import { compileCursorQuery, toCursorPage } from '../../platform/paging/cursor.js';
import { countRows } from '../../platform/paging/count.js';
import { inDataset, inTenant } from '../../platform/scope.js';

type ActivityRow = typeof auditActivities.$inferSelect;
type ActivityFields = (typeof auditActivityQuery)['fields'];

function toActivity(row: ActivityRow): AuditActivity {
  return {
    id: row.id,
    operation: row.operation,
    userName: row.userName,
    timestamp: row.timestamp.toISOString(),
    status: row.status,
    errorMessage: row.errorMessage,
    ipAddress: row.ipAddress,
    datasetId: row.datasetId,
    resourceType: row.resourceType,
    resourceId: row.resourceId,
  };
}

const columns = {
  id: auditActivities.id,
  operation: auditActivities.operation,
  userName: auditActivities.userName,
  status: auditActivities.status,
  timestamp: auditActivities.timestamp,
};

export function createActivitiesRepository() {
  return {
    /** A company's activities, or with datasetId null those of the tenant itself (no company). */
    async page(
      executor: Executor,
      tenantId: string,
      datasetId: number | null,
      query: CursorQuery<ActivityFields>,
    ) {
      const compiled = compileCursorQuery(query, { columns, tieBreaker: auditActivities.id });
      const scope: SQL =
        datasetId === null
          ? and(inTenant(auditActivities, { tenantId }), isNull(auditActivities.datasetId))!
          : inDataset(auditActivities, { tenantId, datasetId });
      const rows = await executor
        .select()
        .from(auditActivities)
        .where(and(scope, compiled.where))
        .orderBy(...compiled.orderBy)
        .limit(compiled.limit);
      // The key is the sort values, then the tie-breaker (both the id here).
      const page = toCursorPage(rows.map(toActivity), query, (row) => [row.id, row.id]);
      if (query.cursor !== undefined) return page;
      // The first page says how many (the tabs' counts): with no cursor, the condition is the
      // scope, the filters and the search alone (an estimate only for the whole list).
      const count = await countRows(executor, auditActivities, and(scope, compiled.where), {
        preferEstimate: query.filters.length === 0 && !query.search,
        atLeast: page.items.length,
      });
      return { ...page, count };
    },

    /** One record's activities; with `datasetId`, only those of that company (a bound key). */
    async forResource(
      executor: Executor,
      tenantId: string,
      resourceId: string,
      limit: number,
      datasetId: number | null = null,
    ) {
      const rows = await executor
        .select()
        .from(auditActivities)
        .where(
          and(
            datasetId === null
              ? inTenant(auditActivities, { tenantId })
              : inDataset(auditActivities, { tenantId, datasetId }),
            eq(auditActivities.resourceId, resourceId),
          ),
        )
        .orderBy(desc(auditActivities.id))
        .limit(limit);
      return rows.map(toActivity);
    },
  };
}
export type ActivitiesRepository = ReturnType<typeof createActivitiesRepository>;
