import { and, eq } from 'drizzle-orm';
import type { TransactionDocument } from '@ledgerline/contract';
import type { Executor } from '../../db/client.js';
import { transactionDocuments } from '../../db/schema-receivables.js';
import { type DatasetScope, inDataset } from '../../platform/scope.js';

const d = transactionDocuments;
type Row = typeof d.$inferSelect;

export function toTransactionDocument(
  row: Pick<Row, 'id' | 'createdOn' | 'fileType' | 'fileName' | 'fileSize'>,
): TransactionDocument {
  return {
    id: row.id,
    createdOn: row.createdOn.toISOString(),
    fileType: row.fileType,
    fileName: row.fileName,
    fileSize: row.fileSize,
  };
}

const ofTransaction = (scope: DatasetScope, transactionId: string, id: string) =>
  and(inDataset(d, scope), eq(d.transactionId, transactionId), eq(d.id, id));

/** The files of a transaction; their bytes live in the row (design §1: files in the database by default). */
export function createDocumentsRepository() {
  return {
    async insert(
      executor: Executor,
      scope: DatasetScope,
      transactionId: string,
      id: string,
      file: { fileName: string; fileType: string; data: Buffer },
    ): Promise<TransactionDocument> {
      const [row] = await executor
        .insert(d)
        .values({
          ...file,
          fileSize: file.data.length,
          id,
          transactionId,
          tenantId: scope.tenantId,
          datasetId: scope.datasetId,
        })
        .returning({
          id: d.id,
          createdOn: d.createdOn,
          fileType: d.fileType,
          fileName: d.fileName,
          fileSize: d.fileSize,
        });
      return toTransactionDocument(row!);
    },

    async findWithData(executor: Executor, scope: DatasetScope, transactionId: string, id: string) {
      const [row] = await executor
        .select()
        .from(d)
        .where(ofTransaction(scope, transactionId, id));
      return row ?? null;
    },

    async delete(executor: Executor, scope: DatasetScope, transactionId: string, id: string) {
      const [row] = await executor
        .delete(d)
        .where(ofTransaction(scope, transactionId, id))
        .returning({ id: d.id });
      return row !== undefined;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
