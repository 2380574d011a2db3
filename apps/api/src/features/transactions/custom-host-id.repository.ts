import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  transactionLimits,
  type CustomHostIdField,
  type CustomHostIdOption,
  type RebuildStatus,
} from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { datasets } from '../../db/schema.js';
import { customHostIdSettings } from '../../db/schema-receivables.js';
import { trimmedCharacters, type Template } from './custom-host-id.template.js';
import { type DatasetScope, inDataset, inTenant } from '../../platform/scope.js';

/** spec 3 §3: the setting's id; the only custom host id setting is the transactions'. */
export const settingId = 'transaction';

export interface CustomHostIdSettingValues {
  createOption: CustomHostIdOption;
  updateOption: CustomHostIdOption;
  trimWhiteSpace: boolean;
  parseValue: string;
}
export interface StoredCustomHostIdSetting extends CustomHostIdSettingValues {
  updatedOn: Date;
}

/** The smallest and largest UUIDs: the rebuild's walk starts after one and ends at the other. */
const beforeEveryId = '00000000-0000-0000-0000-000000000000';
const afterEveryId = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * The SQL of each field the rebuild's UPDATE reads (t: transactions). The account's reference is
 * looked up by the account's own unique id: the transaction's foreign key already holds it to the
 * same company, and row-level security to the tenant; naming tenant and dataset as well let a
 * planner without statistics pick another index of the company and read all its accounts per row.
 */
const rebuildColumns: Record<CustomHostIdField, SQL> = {
  transactionReference: sql.raw('t.transaction_reference'),
  transactionSecondReference: sql.raw('t.transaction_second_reference'),
  orderReference: sql.raw('t.order_reference'),
  transactionType: sql.raw('t.transaction_type'),
  currency: sql.raw('t.currency'),
  postingApplication: sql.raw('t.posting_application'),
  accountReference: sql.raw(
    '(select a.account_reference from accounts a where a.id = t.account_id)',
  ),
};

/**
 * The template as one SQL expression, computing exactly what applyTemplate computes (a property
 * test holds them together): concat reads null as empty text, btrim with the same characters,
 * left() cuts to the same limit in characters, and nothing left is null. Literal text is bound.
 */
export function customHostIdSql(
  template: Template,
  trimWhiteSpace: boolean,
  columnOf: (field: CustomHostIdField) => SQL,
): SQL {
  const parts = template.parts.map((part) =>
    part.kind === 'text' ? sql`${part.text}::text` : columnOf(part.field),
  );
  const joined = sql`concat(${sql.join(parts, sql`, `)})`;
  const limit = sql.raw(String(transactionLimits.customHostId));
  if (!trimWhiteSpace) return sql`nullif(left(${joined}, ${limit}), '')`;
  const characters = sql`${trimmedCharacters}::text`;
  return sql`nullif(btrim(left(btrim(${joined}, ${characters}), ${limit}), ${characters}), '')`;
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The custom host id setting of a company and its rebuild; every call takes the company's scope. */
export function createCustomHostIdRepository() {
  const s = customHostIdSettings;
  const inScope = (scope: DatasetScope) => and(inDataset(s, scope), eq(s.id, settingId));
  const datasetOf = (scope: DatasetScope) =>
    and(inTenant(datasets, scope), eq(datasets.id, scope.datasetId));

  async function find(
    executor: Executor,
    scope: DatasetScope,
  ): Promise<StoredCustomHostIdSetting | null> {
    const [row] = await executor
      .select({
        createOption: s.createOption,
        updateOption: s.updateOption,
        trimWhiteSpace: s.trimWhiteSpace,
        parseValue: s.parseValue,
        updatedOn: s.updatedOn,
      })
      .from(s)
      .where(inScope(scope));
    return row
      ? {
          ...row,
          createOption: row.createOption as CustomHostIdOption,
          updateOption: row.updateOption as CustomHostIdOption,
        }
      : null;
  }

  async function save(executor: Executor, scope: DatasetScope, values: CustomHostIdSettingValues) {
    const updatedOn = new Date();
    await executor
      .insert(s)
      .values({
        ...values,
        tenantId: scope.tenantId,
        datasetId: scope.datasetId,
        id: settingId,
        updatedOn,
      })
      .onConflictDoUpdate({
        target: [s.tenantId, s.datasetId, s.id],
        set: { ...values, updatedOn },
      });
  }

  return {
    find,
    save,

    /** New companies copy their copy-from company's setting (datasets/copy-configuration.ts ConfigurationCopier). */
    async copy(
      executor: Executor,
      scope: { tenantId: string; fromDatasetId: number; toDatasetId: number },
    ) {
      const from = await find(executor, {
        tenantId: scope.tenantId,
        datasetId: scope.fromDatasetId,
      });
      if (!from) return;
      const { updatedOn: _updatedOn, ...values } = from;
      await save(executor, { tenantId: scope.tenantId, datasetId: scope.toDatasetId }, values);
    },

    async rebuildState(executor: Executor, scope: DatasetScope): Promise<RebuildStatus> {
      const [row] = await executor
        .select({ rebuildStatus: datasets.rebuildStatus })
        .from(datasets)
        .where(datasetOf(scope));
      return (row?.rebuildStatus ?? 'None') as RebuildStatus;
    },

    /** Moves the company's rebuild from one of `from` to `to`; false when it was in another state. */
    async transition(
      executor: Executor,
      scope: DatasetScope,
      from: readonly RebuildStatus[],
      to: RebuildStatus,
    ): Promise<boolean> {
      const rows = await executor
        .update(datasets)
        .set({ rebuildStatus: to })
        .where(and(datasetOf(scope), inArray(datasets.rebuildStatus, [...from])))
        .returning({ id: datasets.id });
      return rows.length > 0;
    },

    /** Companies whose rebuild was asked for (across tenants: an owner connection at start-up). */
    async queued(executor: Executor) {
      return executor
        .select({ tenantId: datasets.tenantId, datasetId: datasets.id })
        .from(datasets)
        .where(eq(datasets.rebuildStatus, 'QueuedForRebuild'));
    },

    /**
     * One batch of the rebuild: the next `size` transactions of the company by id after `after`,
     * recomputed in one UPDATE; rows whose value is already right are not written. The batch is a
     * range of the primary key written as row comparisons on (tenant_id, dataset_id, id), which no
     * other index can serve: without statistics (PGlite runs no autovacuum) plain equalities let
     * the planner scan another index of the whole company for every batch (17 s per 5,000 rows
     * for 20,000, against 0.2 s). Answers the batch's last id (null once it reached the end) and
     * how many rows changed.
     */
    async rebuildBatch(
      executor: Executor,
      scope: DatasetScope,
      expression: { template: Template; trimWhiteSpace: boolean },
      after: string | null,
      size: number,
    ): Promise<{ last: string | null; changed: number }> {
      const key = sql`(tenant_id, dataset_id, id)`;
      const bound = (id: string) =>
        sql`(${scope.tenantId}::uuid, ${scope.datasetId}::int, ${id}::uuid)`;
      const from = bound(after ?? beforeEveryId);
      const [end] = rowsOf<{ last: string }>(
        await executor.execute(sql`
          select id::text as last from transactions
           where ${key} > ${from} and ${key} <= ${bound(afterEveryId)}
           order by tenant_id, dataset_id, id offset ${size - 1} limit 1`),
      );
      const last = end?.last ?? null;
      const value = customHostIdSql(
        expression.template,
        expression.trimWhiteSpace,
        (field) => rebuildColumns[field],
      );
      const [row] = rowsOf<{ changed: number }>(
        await executor.execute(sql`
          with changed as (
            update transactions t
               set custom_host_id = ${value}, updated_on = now()
             where (t.tenant_id, t.dataset_id, t.id) > ${from}
               and (t.tenant_id, t.dataset_id, t.id) <= ${bound(last ?? afterEveryId)}
               and t.custom_host_id is distinct from ${value}
            returning 1
          )
          select count(*)::int as changed from changed`),
      );
      return { last, changed: Number(row?.changed ?? 0) };
    },
  };
}
export type CustomHostIdRepository = ReturnType<typeof createCustomHostIdRepository>;
