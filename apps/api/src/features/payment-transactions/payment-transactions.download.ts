import { pipeline } from 'node:stream/promises';
import type { Database } from '../../db/client.js';
import { copyTextToLines } from '../../db/copy-out.js';
import { isQueryCanceled } from '../../db/client.js';
import { spool, writeOut, type DownloadLimits, type Spool } from '../../platform/downloads.js';
import { UnprocessableError } from '../../platform/errors.js';
import {
  exportHeader,
  exportLines,
  exportPaymentTransactions,
  type ExportSelection,
  type TenantRead,
} from './payment-transactions.export.js';
import type { DatasetScope } from '../../platform/scope.js';

export interface ExportSources {
  /** The database's COPY of one SELECT (PostgreSQL); without it the export reads in batches. */
  copyOut?: Database['copyOutAsTenant'];
  limits: DownloadLimits;
}

export const exportTooLong = (minutes: number) =>
  `The export did not finish within ${minutes} minutes: choose fewer days, a payment provider or the table’s filters.`;

/**
 * PaymentTransactions.csv made whole into a spool file at the database's pace:
 * on PostgreSQL one COPY under a statement_timeout of the time left, on PGlite keyset batches
 * each in a short transaction of its own. No transaction waits on the client that downloads it.
 */
export async function spoolExport(
  sources: ExportSources,
  read: TenantRead,
  scope: DatasetScope,
  selection: ExportSelection,
  deadlineAt: number,
): Promise<Spool> {
  const { copyOut, limits } = sources;
  const tooLong = () =>
    new UnprocessableError(exportTooLong(Math.ceil(limits.deadlineSeconds / 60)));
  try {
    return await spool(limits.spoolDir, async (out) => {
      if (copyOut) {
        await writeOut(out, exportHeader);
        const copy = await copyOut(scope.tenantId, exportLines(scope, selection), {
          timeoutMs: Math.max(1, deadlineAt - Date.now()),
        });
        // A failed COPY fails the spool; the spool's end ends the file.
        await pipeline(copy, copyTextToLines(), out);
        return;
      }
      for await (const chunk of exportPaymentTransactions(read, scope, selection)) {
        if (Date.now() >= deadlineAt) throw tooLong();
        await writeOut(out, chunk);
      }
      out.end();
    });
  } catch (error) {
    if (isQueryCanceled(error)) throw tooLong();
    throw error;
  }
}
