import { sql } from 'drizzle-orm';
import {
  allocatedStatuses,
  importLimits,
  importMessages,
  type AllocatedStatus,
  type ImportResult,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { parseCsv } from '../../platform/csv.js';
import { AppError, ValidationError } from '../../platform/errors.js';
import { insertWebhookEventsFrom } from '../web-hooks/index.js';
import { uuidPattern } from '@ledgerline/contract';
import type { DatasetScope } from '../../platform/scope.js';

export interface ImportRow {
  line: number;
  id: string;
  allocatedStatus: string;
}

/** The file's rows, by the header's PaymentTransactionId (or Id) and AllocatedStatus columns. */
export function readImportFile(bytes: Buffer): ImportRow[] {
  if (bytes.length > importLimits.maxBytes)
    throw new AppError(413, 'Content Too Large', importMessages.tooLarge);
  const [header, ...rows] = parseCsv(bytes.toString('utf8'));
  const names = (header ?? []).map((name) => name.trim().toLowerCase());
  const idColumn =
    names.indexOf('paymenttransactionid') >= 0
      ? names.indexOf('paymenttransactionid')
      : names.indexOf('id');
  const statusColumn = names.indexOf('allocatedstatus');
  if (idColumn < 0 || statusColumn < 0)
    throw new ValidationError({ file: [importMessages.columns] }, importMessages.columns);
  if (rows.length === 0)
    throw new ValidationError({ file: [importMessages.empty] }, importMessages.empty);
  if (rows.length > importLimits.maxRows)
    throw new ValidationError({ file: [importMessages.tooManyRows] }, importMessages.tooManyRows);
  return rows.map((fields, index) => ({
    line: index + 2,
    id: (fields[idColumn] ?? '').trim(),
    allocatedStatus: (fields[statusColumn] ?? '').trim(),
  }));
}

/** The rows' changes, worked out before any transaction: each valid id once, with its first valid row's status. */
export interface ImportPlan {
  rows: ImportRow[];
  ids: string[];
  statuses: AllocatedStatus[];
}

const isAllocatedStatus = (value: string): value is AllocatedStatus =>
  (allocatedStatuses as readonly string[]).includes(value);

/**
 * Checks every row that can be checked without the database (nothing of this runs
 * inside the write transaction): the id's shape, the status, and which row of an id counts.
 */
export function planImport(rows: ImportRow[]): ImportPlan {
  const firstStatus = new Map<string, AllocatedStatus>();
  for (const row of rows) {
    const id = row.id.toLowerCase();
    if (
      uuidPattern.test(row.id) &&
      isAllocatedStatus(row.allocatedStatus) &&
      !firstStatus.has(id)
    ) {
      firstStatus.set(id, row.allocatedStatus);
    }
  }
  return { rows, ids: [...firstStatus.keys()], statuses: [...firstStatus.values()] };
}

/**
 * Applies a plan in one statement (spec 2 §4 "in bulk by import"): the staged ids and statuses
 * (two array parameters, unnested) are joined to the company's payments once; the same statement
 * sets every status that differs and answers each found payment's status before it, from which
 * every row's result follows. The same statement writes a payment.allocated-status-changed web hook
 * event per changed payment, set-based. All or nothing with the caller's transaction and its activity.
 */
export async function importAllocatedStatuses(
  tx: Tx,
  scope: DatasetScope,
  plan: ImportPlan,
): Promise<ImportResult> {
  const before = new Map<string, string>();
  if (plan.ids.length > 0) {
    const found = (await tx.execute(sql`
      with staged as (
        select s.id, s.status from unnest(${sql.param(plan.ids)}::uuid[], ${sql.param(plan.statuses)}::text[]) as s(id, status)
      ), found as (
        select p.id, p.allocated_status as before, staged.status
        from staged join payment_transactions p
          on p.tenant_id = ${scope.tenantId} and p.dataset_id = ${scope.datasetId} and p.id = staged.id
      ), changed as (
        update payment_transactions p set allocated_status = found.status
        from found
        where p.tenant_id = ${scope.tenantId} and p.dataset_id = ${scope.datasetId} and p.id = found.id
          and p.allocated_status <> found.status
      ), events as (
        ${insertWebhookEventsFrom(
          scope,
          { type: 'payment.allocated-status-changed', recordType: 'PaymentTransaction' },
          sql`(select found.id::text as record_id,
                 jsonb_build_object('id', found.id, 'allocatedStatus', found.status, 'previousAllocatedStatus', found.before) as payload
               from found where found.before <> found.status)`,
        )}
      )
      select found.id, found.before as "allocatedStatus" from found`)) as unknown as {
      rows: { id: string; allocatedStatus: string }[];
    };
    for (const row of found.rows) before.set(row.id, row.allocatedStatus);
  }
  return answerRows(plan.rows, before);
}

/** Every row's answer, in file order, from the statuses the payments had before the import. */
function answerRows(rows: ImportRow[], before: Map<string, string>): ImportResult {
  const seen = new Set<string>();
  const result: ImportResult = {
    processedCount: rows.length,
    importedCount: 0,
    notImportedCount: 0,
    duplicatedCount: 0,
    results: [],
  };
  for (const row of rows) {
    const answer = (
      resultStatus: 'Error' | 'Warning' | 'Ok',
      importStatus: 'NotImported' | 'Imported' | 'Duplicate',
      message: string,
    ) => {
      result.results.push({
        id: row.id,
        line: row.line,
        resultStatus,
        importStatus,
        allocatedStatus: row.allocatedStatus || null,
        message,
      });
      if (importStatus === 'Imported') result.importedCount++;
      else if (importStatus === 'Duplicate') result.duplicatedCount++;
      else result.notImportedCount++;
    };
    const id = row.id.toLowerCase();
    if (!uuidPattern.test(row.id)) {
      answer('Error', 'NotImported', `'${row.id}' is not a payment transaction id.`);
    } else if (!isAllocatedStatus(row.allocatedStatus)) {
      answer(
        'Error',
        'NotImported',
        `'${row.allocatedStatus}' is not an allocated status; use one of ${allocatedStatuses.join(', ')}.`,
      );
    } else if (!before.has(id)) {
      answer('Error', 'NotImported', 'No payment transaction of this company has this id.');
    } else if (seen.has(id)) {
      answer(
        'Warning',
        'Duplicate',
        'This payment transaction appears earlier in the file; the first row counts.',
      );
    } else if (before.get(id) === row.allocatedStatus) {
      seen.add(id);
      answer('Warning', 'NotImported', `The allocated status is already ${row.allocatedStatus}.`);
    } else {
      seen.add(id);
      answer(
        'Ok',
        'Imported',
        `Allocated status changed from ${before.get(id)} to ${row.allocatedStatus}.`,
      );
    }
  }
  return result;
}
