import { and, eq, sql } from 'drizzle-orm';
import {
  allocatedStatuses,
  importLimits,
  importMessages,
  type AllocatedStatus,
  type ImportResult,
} from '@ledgerline/contract';
import type { Tx } from '../../db/client.js';
import { paymentTransactions as t } from '../../db/schema-receivables.js';
import { parseCsv } from '../../platform/csv.js';
import { AppError, ValidationError } from '../../platform/errors.js';
import type { Scope } from './payment-transactions.repository.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const lookupBatch = 5000;

export interface ImportRow {
  line: number;
  id: string;
  allocatedStatus: string;
}

/** The file's rows, by the header's PaymentTransactionId (or Id) and AllocatedStatus columns. */
export function readImportFile(bytes: Buffer): ImportRow[] {
  if (bytes.length > importLimits.maxBytes) throw new AppError(413, 'Content Too Large', importMessages.tooLarge);
  const [header, ...rows] = parseCsv(bytes.toString('utf8'));
  const names = (header ?? []).map((name) => name.trim().toLowerCase());
  const idColumn = names.indexOf('paymenttransactionid') >= 0 ? names.indexOf('paymenttransactionid') : names.indexOf('id');
  const statusColumn = names.indexOf('allocatedstatus');
  if (idColumn < 0 || statusColumn < 0) throw new ValidationError({ file: [importMessages.columns] }, importMessages.columns);
  if (rows.length === 0) throw new ValidationError({ file: [importMessages.empty] }, importMessages.empty);
  if (rows.length > importLimits.maxRows) throw new ValidationError({ file: [importMessages.tooManyRows] }, importMessages.tooManyRows);
  return rows.map((fields, index) => ({
    line: index + 2,
    id: (fields[idColumn] ?? '').trim(),
    allocatedStatus: (fields[statusColumn] ?? '').trim(),
  }));
}

/**
 * Sets the allocated statuses a file lists (spec 2 §4 "in bulk by import"), all in the caller's
 * transaction: every row is checked and answered, and the valid changes are written together.
 */
export async function importAllocatedStatuses(tx: Tx, scope: Scope, rows: ImportRow[]): Promise<ImportResult> {
  const validIds = [...new Set(rows.filter((row) => uuidPattern.test(row.id)).map((row) => row.id.toLowerCase()))];
  const current = new Map<string, string>();
  for (let start = 0; start < validIds.length; start += lookupBatch) {
    const ids = validIds.slice(start, start + lookupBatch);
    const found = await tx
      .select({ id: t.id, allocatedStatus: t.allocatedStatus })
      .from(t)
      .where(and(eq(t.tenantId, scope.tenantId), eq(t.datasetId, scope.datasetId), sql`${t.id} = any(${sql.param(ids)}::uuid[])`));
    for (const row of found) current.set(row.id, row.allocatedStatus);
  }

  const seen = new Set<string>();
  const changes: { id: string; status: AllocatedStatus }[] = [];
  const result: ImportResult = { processedCount: rows.length, importedCount: 0, notImportedCount: 0, duplicatedCount: 0, results: [] };
  for (const row of rows) {
    const answer = (resultStatus: 'Error' | 'Warning' | 'Ok', importStatus: 'NotImported' | 'Imported' | 'Duplicate', message: string) => {
      result.results.push({ id: row.id, line: row.line, resultStatus, importStatus, allocatedStatus: row.allocatedStatus || null, message });
      if (importStatus === 'Imported') result.importedCount++;
      else if (importStatus === 'Duplicate') result.duplicatedCount++;
      else result.notImportedCount++;
    };
    const id = row.id.toLowerCase();
    if (!uuidPattern.test(row.id)) {
      answer('Error', 'NotImported', `'${row.id}' is not a payment transaction id.`);
    } else if (!(allocatedStatuses as readonly string[]).includes(row.allocatedStatus)) {
      answer('Error', 'NotImported', `'${row.allocatedStatus}' is not an allocated status; use one of ${allocatedStatuses.join(', ')}.`);
    } else if (!current.has(id)) {
      answer('Error', 'NotImported', 'No payment transaction of this company has this id.');
    } else if (seen.has(id)) {
      answer('Warning', 'Duplicate', 'This payment transaction appears earlier in the file; the first row counts.');
    } else if (current.get(id) === row.allocatedStatus) {
      seen.add(id);
      answer('Warning', 'NotImported', `The allocated status is already ${row.allocatedStatus}.`);
    } else {
      seen.add(id);
      changes.push({ id, status: row.allocatedStatus as AllocatedStatus });
      answer('Ok', 'Imported', `Allocated status changed from ${current.get(id)} to ${row.allocatedStatus}.`);
    }
  }

  for (let start = 0; start < changes.length; start += lookupBatch) {
    const batch = changes.slice(start, start + lookupBatch);
    await tx.execute(sql`
      update payment_transactions set allocated_status = v.status
      from (select unnest(${sql.param(batch.map((c) => c.id))}::uuid[]) as id, unnest(${sql.param(batch.map((c) => c.status))}::text[]) as status) v
      where payment_transactions.tenant_id = ${scope.tenantId} and payment_transactions.dataset_id = ${scope.datasetId}
        and payment_transactions.id = v.id`);
  }
  return result;
}
