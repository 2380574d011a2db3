import { documentLimits, documentMessages, type TransactionDocument } from '@ledgerline/contract';
import { v7 as uuidv7 } from 'uuid';
import type { Tx } from '../../db/client.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { DocumentsRepository } from './documents.repository.js';
import { cleanFileName, sniffDocumentType } from './file-kind.js';
import type { TransactionsRepository } from './transactions.repository.js';
import type { DatasetScope } from '../../platform/scope.js';

/** spec 2 §2 Documents of an accounting transaction: upload, download, delete. */
export function createDocumentsService(deps: {
  documents: DocumentsRepository;
  transactions: TransactionsRepository;
}) {
  const { documents, transactions } = deps;

  async function requireTransaction(tx: Tx, scope: DatasetScope, transactionId: string) {
    if (!(await transactions.findRow(tx, scope, transactionId)))
      throw new NotFoundError('The transaction was not found.');
  }

  return {
    async upload(
      tx: Tx,
      scope: DatasetScope,
      transactionId: string,
      file: { fileName: string; data: Buffer },
    ): Promise<TransactionDocument> {
      await requireTransaction(tx, scope, transactionId);
      if (file.data.length === 0)
        throw new ValidationError(
          { file: [documentMessages.fileEmpty] },
          documentMessages.fileEmpty,
        );
      const fileName = cleanFileName(file.fileName, documentLimits.fileName);
      const fileType = await sniffDocumentType(file.data, fileName);
      if (!fileType)
        throw new ValidationError(
          { file: [documentMessages.fileTypeNotAllowed] },
          documentMessages.fileTypeNotAllowed,
        );
      return documents.insert(tx, scope, transactionId, uuidv7(), {
        fileName,
        fileType,
        data: file.data,
      });
    },

    async download(tx: Tx, scope: DatasetScope, transactionId: string, documentId: string) {
      const document = await documents.findWithData(tx, scope, transactionId, documentId);
      if (!document) throw new NotFoundError(documentMessages.documentNotFound);
      return document;
    },

    async remove(
      tx: Tx,
      scope: DatasetScope,
      transactionId: string,
      documentId: string,
    ): Promise<void> {
      if (!(await documents.delete(tx, scope, transactionId, documentId)))
        throw new NotFoundError(documentMessages.documentNotFound);
    },
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;
