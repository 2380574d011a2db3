import { and, eq, gte, inArray, lt, not, sql, type SQL } from 'drizzle-orm';
import { exportColumns, type AllocatedStatus, type ExportType } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { paymentTransactions as t } from '../../db/schema-receivables.js';
import { inDataset, type DatasetScope } from '../../platform/scope.js';

export interface ExportSelection {
  exportType: ExportType;
  from?: Date;
  /** Exclusive: the day after the dialog's "to" date. */
  until?: Date;
  paymentProviderId?: string;
  excludeAllocatedStatus: AllocatedStatus[];
  /** The list's own filters, compiled (the dialog's "include table filters"). */
  filter?: SQL;
}

/** Payments per round trip: about 1.5 MB of CSV, so memory stays flat whatever the total. */
export const exportBatchSize = 5000;

/** A byte-order mark lets spreadsheet programs read the file as UTF-8. */
export const exportHeader = `\ufeff${exportColumns.join(',')}\r\n`;

/**
 * A CSV field made by the database: quoted when it holds a comma, quote or line break, and kept
 * from being read as a formula by spreadsheets (OWASP "CSV injection": a leading = + - @ tab or
 * carriage return gets a leading apostrophe).
 */
function csvText(value: SQL): SQL {
  return sql`(case when ${value} is null then '' else (
    case when (case when ${value} ~ '^[=+@\t\r-]' then '''' || ${value} else ${value} end) ~ '[",\r\n]'
      then '"' || replace(case when ${value} ~ '^[=+@\t\r-]' then '''' || ${value} else ${value} end, '"', '""') || '"'
      else (case when ${value} ~ '^[=+@\t\r-]' then '''' || ${value} else ${value} end) end) end)`;
}

function csvTime(value: SQL): SQL {
  return sql`coalesce(to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;
}

/** Amounts with at least two decimals and no trailing zeros beyond (100.00, 12.3456). */
function csvAmount(value: SQL): SQL {
  return sql`coalesce(case when scale(trim_scale(${value})) < 2 then round(${value}, 2)::text else trim_scale(${value})::text end, '')`;
}

function csvLine(): SQL {
  const p = (column: string) => sql.raw(`p.${column}`);
  const a = (column: string) => sql.raw(`a.${column}`);
  return sql.join(
    [
      sql`p.id::text`,
      p('type'),
      p('status'),
      p('allocated_status'),
      csvText(p('ledgerline_reference')),
      csvTime(p('created_on')),
      csvTime(p('status_date_time')),
      csvText(p('currency')),
      csvAmount(p('total_amount')),
      csvAmount(p('fee')),
      csvText(p('fee_currency')),
      csvText(p('customer_name')),
      csvText(p('company_name')),
      sql`coalesce(p.account_id::text, '')`,
      sql`coalesce(p.payment_request_id::text, '')`,
      csvText(p('payment_provider_name')),
      csvText(p('payment_provider_reference')),
      sql`coalesce(p.payment_method_type, '')`,
      sql`coalesce(a.id::text, '')`,
      csvText(a('type')),
      csvText(a('status')),
      csvText(a('entity_type')),
      sql`coalesce(a.transaction_id::text, '')`,
      sql`coalesce(a.account_id::text, '')`,
      csvAmount(a('discounted_amount')),
      csvAmount(a('allocated_amount')),
    ],
    sql`|| ',' || `,
  );
}

function exportWhere(scope: DatasetScope, selection: ExportSelection): SQL | undefined {
  return and(
    inDataset(t, scope),
    selection.from ? gte(t.statusDateTime, selection.from) : undefined,
    selection.until ? lt(t.statusDateTime, selection.until) : undefined,
    selection.paymentProviderId ? eq(t.paymentProviderId, selection.paymentProviderId) : undefined,
    selection.excludeAllocatedStatus.length > 0
      ? not(inArray(t.allocatedStatus, selection.excludeAllocatedStatus))
      : undefined,
    selection.filter,
  );
}

const allocationJoin = (selection: ExportSelection) =>
  selection.exportType === 'Allocations' ? sql`join` : sql`left join`;
const allocationsOf = sql`payment_allocations a
  on a.tenant_id = p.tenant_id and a.dataset_id = p.dataset_id and a.payment_transaction_id = p.id`;

/**
 * The lines of PaymentTransactions.csv after its header (spec 2 §7), one text column a line, as
 * one SELECT: one line per payment, repeated for each of its allocations (PaymentsAndAllocations),
 * or one line per allocation only (Allocations), in status-date order. On PostgreSQL the export
 * runs it as one COPY (one snapshot, streamed at the database's own pace).
 */
export function exportLines(scope: DatasetScope, selection: ExportSelection): SQL {
  return sql`select ${csvLine()} as line
    from (select * from payment_transactions where ${exportWhere(scope, selection)}) p
    ${allocationJoin(selection)} ${allocationsOf}
    order by p.status_date_time, p.id, a.created_on, a.id`;
}

/** Runs one read in a transaction of its own, scoped to the tenant. */
export type TenantRead = <T>(fn: (tx: Executor) => Promise<T>) => Promise<T>;

/**
 * The same lines in keyset batches, each made into CSV text by the database itself, for a
 * database without COPY to a client (PGlite). Each batch is read in a transaction of its own, so
 * other calls take their turn on PGlite's one connection between batches, and nothing is held
 * while the caller writes a batch out.
 */
export async function* exportPaymentTransactions(
  read: TenantRead,
  scope: DatasetScope,
  selection: ExportSelection,
  batchSize = exportBatchSize,
): AsyncGenerator<string> {
  const where = exportWhere(scope, selection);
  type Batch = { at: string; id: string; n: number; body: string | null };
  const batchAfter = async (
    executor: Executor,
    after: { at: string; id: string } | null,
  ): Promise<Batch | null> => {
    const cursor: SQL = after
      ? sql`and (payment_transactions.status_date_time, payment_transactions.id) > (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql``;
    const result = (await executor.execute(sql`
      with page as (
        select * from payment_transactions where ${where} ${cursor}
        order by payment_transactions.status_date_time, payment_transactions.id
        limit ${batchSize}
      ),
      last as (
        select to_char(status_date_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, id::text as id, count(*) over () as n
        from page order by status_date_time desc, id desc limit 1
      )
      select last.at, last.id, last.n::int as n,
        (select string_agg(${csvLine()}, E'\\r\\n' order by p.status_date_time, p.id, a.created_on, a.id)
           from page p ${allocationJoin(selection)} ${allocationsOf}) as body
      from last`)) as unknown as {
      rows: Batch[];
    };
    return result.rows[0] ?? null;
  };
  yield exportHeader;
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const from: { at: string; id: string } | null = after;
    const batch: Batch | null = await read((tx) => batchAfter(tx, from));
    if (!batch) return;
    if (batch.body) yield `${batch.body}\r\n`;
    if (batch.n < batchSize) return;
    after = { at: batch.at, id: batch.id };
  }
}
